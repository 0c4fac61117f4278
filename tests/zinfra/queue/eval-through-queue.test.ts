// An evaluation through the Redis queue, with three real `zetta worker` processes, gives the same
// per-task successes as the local run at the same seeds: as it is, with one worker SIGKILLed in the
// middle of an episode (its job is run again by another worker and counted as an infra retry, never
// a task failure), and with Redis killed and restarted from its append-only file mid-run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../../util/package-root.js';
import { runZetta } from '../../support/zetta-process.js';
import { RedisProcess } from '../../../bench/redis-process.js';
import { WorkerProcess } from './worker-process.js';

const TASKS = ['spatial/left_cube_in_bowl', 'object/green_cube_in_bowl'];
const args = (out: string, queue?: string) => [
  'eval',
  '--tasks',
  TASKS.join(','),
  '--episodes',
  '3',
  '--perturb',
  'position-shift',
  '--critic',
  'default',
  '--out',
  out,
  '--json',
  ...(queue ? ['--queue', queue] : []),
];

interface Report {
  tasks: Record<string, { success: number; episodes: number }>;
  infra_retries: number;
  infra_failures: number;
  queue?: { jobs: number; queueRetries: number; failedJobs: number };
}

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Report;
const successes = (r: Report) => Object.fromEntries(Object.entries(r.tasks).map(([t, v]) => [t, [v.success, v.episodes]]));

let redis: RedisProcess;
let workers: WorkerProcess[] = [];
let dir: string;
let local: Report;

async function evaluate(name: string, queue?: string): Promise<Report> {
  const r = await runZetta(args(join(dir, name), queue), 240_000);
  if (r.code !== 0) throw new Error(`zetta eval exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return lastJson(r.stdout);
}

beforeAll(async () => {
  if (!existsSync(packagePath('dist', 'cli', 'commands', 'worker.js')))
    throw new Error('the queue tests run the built bin: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'zetta-queue-eval-'));
  redis = await RedisProcess.start({ fsyncEveryWrite: true });
  workers = [0, 1, 2].map(() => new WorkerProcess(redis.url));
  const [reference] = await Promise.all([evaluate('local'), ...workers.map((w) => w.ready())]);
  local = reference;
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('zetta eval --queue with three workers', () => {
  it('gives the local per-task successes, each episode run once, recordings where the run keeps them', async () => {
    const queued = await evaluate('queued', redis.url);
    expect(successes(queued)).toEqual(successes(local));
    expect(queued.infra_retries).toBe(0);
    expect(queued.queue).toMatchObject({ jobs: 6, queueRetries: 0, failedJobs: 0 });
    const started = workers.flatMap((w) => w.started);
    expect(started).toHaveLength(6);
    expect(new Set(started).size).toBe(6);
    for (const task of TASKS)
      for (const seed of [1000, 1001, 1002])
        expect(existsSync(join(dir, 'queued', 'episodes', task.replace('/', '__'), `${seed}.mcap`))).toBe(true);
  }, 240_000);

  it('gives the same successes with a worker SIGKILLed mid-episode, and reports the retry', async () => {
    const killed = Promise.race(workers.map((w) => w.killAtNextStart()));
    const run = evaluate('one-worker-killed', redis.url);
    const lostJob = await killed;
    for (const w of workers) w.spare();
    const queued = await run;
    expect(successes(queued)).toEqual(successes(local));
    expect(queued.queue!.queueRetries).toBeGreaterThanOrEqual(1);
    expect(queued.infra_retries).toBeGreaterThanOrEqual(1);
    expect(queued.infra_failures).toBe(0);
    // another worker ran the lost episode to its end
    expect(workers.filter((w) => w.alive).some((w) => w.finished.includes(lostJob))).toBe(true);
    workers = workers.filter((w) => w.alive);
  }, 240_000);

  it('gives the same successes when Redis is killed and restarted mid-run', async () => {
    const run = evaluate('redis-restarted', redis.url);
    const before = workers.reduce((n, w) => n + w.finished.length, 0);
    while (workers.reduce((n, w) => n + w.finished.length, 0) === before) await new Promise((r) => setTimeout(r, 20));
    await redis.restart();
    const queued = await run;
    expect(successes(queued)).toEqual(successes(local));
    expect(queued.infra_failures).toBe(0);
  }, 240_000);
});
