// A campaign whose rollouts run through the Redis queue, its coordinator SIGKILLed in two different
// phases and restarted with the same command, makes the same decisions and artifact hashes as an
// uninterrupted local campaign, and no worker ran any episode twice: the restarted coordinator
// collects the jobs that finished while it was down from Redis.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomMlp, writeMlpOnnx } from '../../../models/build/mlp-onnx.js';
import { packagePath } from '../../../zinfra/package-root.js';
import { RedisProcess } from '../../../bench/redis-process.js';
import { BIN, WorkerProcess } from './worker-process.js';

let redis: RedisProcess;
let workers: WorkerProcess[] = [];
let dir: string;
let policy: string;

beforeAll(async () => {
  if (!existsSync(packagePath('dist', 'cli', 'commands', 'worker.js'))) throw new Error('the queue tests run the built bin: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'zetta-queue-campaign-'));
  policy = join(dir, 'policy.onnx');
  writeMlpOnnx(policy, randomMlp({ inputDim: 8, hidden: [32], horizon: 10, actionDim: 7, seed: 11 }), { inputName: 'observation/state' });
  redis = await RedisProcess.start({ fsyncEveryWrite: true });
  workers = [0, 1].map(() => new WorkerProcess(redis.url));
  await Promise.all(workers.map((w) => w.ready()));
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const args = (root: string, queue?: string) => [
  BIN, 'evolve', '--suite', 'spatial', '--task', 'spatial/left_cube_in_bowl', '--policy', `onnx:${policy}`,
  '--dev-episodes', '4', '--heldout-seeds', '1-4', '--generations', '1', '--max-candidates', '1', '--root', root, '--json',
  ...(queue ? ['--queue', queue] : []),
];

interface Run {
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
}

/** Runs the campaign; with `killAt`, SIGKILLs it `delayMs` after it logs entering that phase. */
function run(root: string, queue?: string, killAt?: { phase: string; delayMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args(root, queue), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (killAt && stderr.includes(`evolve: phase ${killAt.phase}`)) {
        const at = killAt;
        killAt = undefined;
        setTimeout(() => child.kill('SIGKILL'), at.delayMs);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== null && code !== 0) reject(new Error(`zetta evolve exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ signal, stdout });
    });
  });
}

const state = (root: string) => JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')) as { phase: string; ledger: Record<string, string> };
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
const portable = (s: Record<string, unknown>) => ({ ...s, root: null, report: null, bundle_dir: null });

describe('a campaign through the queue, its coordinator SIGKILLed', () => {
  it('resumes from two phases to the decisions and hashes of an uninterrupted local campaign, running no episode twice', async () => {
    const straight = join(dir, 'local');
    const killed = join(dir, 'queued');
    const reference = run(straight);
    const phases: string[] = [];
    for (const killAt of [
      { phase: 'dev-rollouts (generation 1)', delayMs: 300 }, // jobs enqueued, some running
      { phase: 'gating (generation 1, candidate 0)', delayMs: 300 }, // the candidate's rollouts
    ]) {
      const r = await run(killed, redis.url, killAt);
      expect(r.signal).toBe('SIGKILL');
      phases.push(state(killed).phase);
    }
    const resumed = await run(killed, redis.url);
    const done = await reference;
    expect(new Set(phases).size).toBe(2);
    expect(state(killed).phase).toBe('done');
    expect(state(killed).ledger).toEqual(state(straight).ledger);
    expect(portable(lastJson(resumed.stdout))).toEqual(portable(lastJson(done.stdout)));
    const started = workers.flatMap((w) => w.started);
    expect(started.length).toBeGreaterThan(0);
    expect(new Set(started).size).toBe(started.length);
  }, 300_000);
});
