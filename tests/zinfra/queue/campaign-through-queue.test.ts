// A campaign whose rollouts run through the Redis queue, its coordinator SIGKILLed in two different
// phases and restarted with the same command, makes the same decisions and artifact hashes as an
// uninterrupted local campaign, and no worker ran any episode twice: the restarted coordinator
// collects the jobs that finished while it was down from Redis.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../../util/package-root.js';
import { RedisProcess } from '../../../bench/redis-process.js';
import { campaignState, portableSummary, runCampaign, writeCampaignPolicy, type KillAt } from '../../support/killable-campaign.js';
import { WorkerProcess } from './worker-process.js';

let redis: RedisProcess;
let workers: WorkerProcess[] = [];
let dir: string;
let policy: string;

beforeAll(async () => {
  if (!existsSync(packagePath('dist', 'cli', 'commands', 'worker.js')))
    throw new Error('the queue tests run the built bin: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'zetta-queue-campaign-'));
  policy = writeCampaignPolicy(dir);
  redis = await RedisProcess.start({ fsyncEveryWrite: true });
  workers = [0, 1].map(() => new WorkerProcess(redis.url, ['--policy', `onnx:${policy}`]));
  await Promise.all(workers.map((w) => w.ready()));
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (root: string, queue?: string, killAt?: KillAt) => runCampaign(policy, root, queue ? ['--queue', queue] : [], killAt);

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
      phases.push(campaignState(killed).phase);
    }
    const resumed = await run(killed, redis.url);
    const done = await reference;
    expect(new Set(phases).size).toBe(2);
    expect(campaignState(killed).phase).toBe('done');
    expect(campaignState(killed).ledger).toEqual(campaignState(straight).ledger);
    expect(portableSummary(resumed.stdout)).toEqual(portableSummary(done.stdout));
    const started = workers.flatMap((w) => w.started);
    expect(started.length).toBeGreaterThan(0);
    expect(new Set(started).size).toBe(started.length);
  }, 300_000);
});
