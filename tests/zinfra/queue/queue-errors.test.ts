// What cannot work is said in one line, never waited on: a URL that is not redis://, no Redis at the
// address, a coordinator and workers of different protocol versions. A job that fails on every
// attempt is reported with its error as an infrastructure failure, not retried forever.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullConnection, RedisCommands } from '../../../zinfra/queue/connections.js';
import { KEYS, PROTOCOL_VERSION, QUEUE_NAME } from '../../../zinfra/queue/job-schema.js';
import { parseRedisUrl } from '../../../zinfra/queue/redis-url.js';
import { runZetta } from '../../support/zetta-process.js';
import { freePort } from '../../../bench/free-port.js';
import { RedisProcess } from '../../../bench/redis-process.js';
import { WorkerProcess } from './worker-process.js';

let redis: RedisProcess;
let dir: string;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zetta-queue-errors-'));
  redis = await RedisProcess.start({ fsyncEveryWrite: true });
});

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const evalArgs = (queue: string, out: string, extra: string[] = []) => [
  'eval',
  '--tasks',
  'spatial/left_cube_in_bowl',
  '--episodes',
  '2',
  '--queue',
  queue,
  '--out',
  join(dir, out),
  ...extra,
];
const lines = (s: string) =>
  s
    .trim()
    .split('\n')
    .filter((l) => l !== '');

describe('a queue that cannot be used', () => {
  it('a URL that is not redis:// is one line, exit code 2, on eval and on the worker', async () => {
    for (const args of [evalArgs('http://127.0.0.1:6379', 'bad-url'), ['worker', '--queue', 'localhost:6379']]) {
      const r = await runZetta(args, 30_000);
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/--queue must be redis:\/\/HOST:PORT/);
    }
  });

  it('no Redis at the address is one line, exit code 2, not a hang', async () => {
    const nobody = `redis://127.0.0.1:${await freePort()}`;
    for (const args of [
      evalArgs(nobody, 'no-redis'),
      ['worker', '--queue', nobody],
      ['evolve', '--suite', 'spatial', '--task', 'spatial/left_cube_in_bowl', '--root', join(dir, 'no-redis-campaign'), '--queue', nobody],
    ]) {
      const r = await runZetta(args, 30_000);
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toContain(`cannot reach Redis at ${nobody}`);
    }
  });

  it('a worker refuses a queue claimed by a coordinator of another protocol version, in one line', async () => {
    const commands = new RedisCommands(parseRedisUrl(redis.url));
    await commands.send('SET', [KEYS.protocol, '999']);
    const r = await runZetta(['worker', '--queue', redis.url], 30_000);
    await commands.send('DEL', [KEYS.protocol]);
    commands.close();
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(`speaks protocol 999, this worker ${PROTOCOL_VERSION}`);
  });

  it('a coordinator refuses to start beside a worker of another protocol version, in one line', async () => {
    const commands = new RedisCommands(parseRedisUrl(redis.url));
    await commands.send('SET', [KEYS.worker('old-host:1'), JSON.stringify({ protocol: 999 }), 'EX', '60']);
    const r = await runZetta(evalArgs(redis.url, 'old-worker'), 30_000);
    await commands.send('DEL', [KEYS.worker('old-host:1')]);
    commands.close();
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`worker old-host:1 .* speaks queue protocol 999, this coordinator ${PROTOCOL_VERSION}`));
  });
});

describe('jobs that cannot run', () => {
  it('a job of another protocol version fails at once with the reason, and is not retried', async () => {
    // the next test's coordinator asks for a model file; a worker runs only the policies it was started with
    const worker = new WorkerProcess(redis.url, ['--policy', 'embedded,onnx:/nonexistent/model.onnx']);
    cleanup.push(() => worker.stop());
    await worker.ready();
    const queue = new Queue(QUEUE_NAME, { connection: bullConnection(parseRedisUrl(redis.url)) });
    const job = await queue.add('episode', { protocol: 999 }, { jobId: 'from-the-future', attempts: 3 });
    await expect.poll(async () => job.getState(), { timeout: 30_000, interval: 100 }).toBe('failed');
    const failed = await queue.getJob('from-the-future');
    expect(failed!.failedReason).toContain(`speaks queue protocol 999, this worker ${PROTOCOL_VERSION}`);
    expect(failed!.attemptsMade).toBe(1);
    await queue.close();
  });

  it('an episode that fails on every attempt is reported with its error as an infra failure', async () => {
    const r = await runZetta(evalArgs(redis.url, 'no-model', ['--policy', 'onnx:/nonexistent/model.onnx', '--json']), 120_000);
    // every episode lost to the infrastructure: nothing was measured (eval's exit code 3), the report still printed
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
      infra_failures: number;
      tasks: Record<string, { episodes: number }>;
      queue: { failedJobs: number };
    };
    expect(report.infra_failures).toBe(2);
    expect(report.tasks['spatial/left_cube_in_bowl']!.episodes).toBe(0);
    expect(report.queue.failedJobs).toBe(2);
    expect(r.stdout).toMatch(/infra failure ×2: queue: failed 3 times: .*no such file \/nonexistent\/model\.onnx/);
  });
});
