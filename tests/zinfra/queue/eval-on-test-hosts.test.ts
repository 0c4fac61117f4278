// Workers on other hosts: two `zetta worker` processes, each in a network namespace of its own
// (tests/support/test-hosts.ts), reach Redis over a veth link, not loopback, and run a real
// evaluation that gives the local per-task successes at the same seeds. Where the machine cannot
// make namespaces (no root, no iproute2), the same check runs on loopback in
// eval-through-queue.test.ts, and this one is skipped with the reason.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../../util/package-root.js';
import { runZetta } from '../../support/zetta-process.js';
import { TestHosts } from '../../support/test-hosts.js';
import { RedisProcess } from '../../../bench/redis-process.js';
import { WorkerProcess } from './worker-process.js';

const made = TestHosts.create(2);
const hosts = 'hosts' in made ? made : undefined;
if (!hosts) console.warn(`eval-on-test-hosts: skipped: ${'unavailable' in made ? made.unavailable : ''}`);

let redis: RedisProcess;
let workers: WorkerProcess[] = [];
let dir: string;

interface Report {
  tasks: Record<string, { success: number; episodes: number }>;
  queue?: { jobs: number; queueRetries: number };
}
const args = (out: string) => [
  'eval',
  '--tasks',
  'spatial/left_cube_in_bowl,goal/stack_red_on_green',
  '--episodes',
  '3',
  '--perturb',
  'disturbance',
  '--critic',
  'default',
  '--out',
  out,
  '--json',
];
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Report;
const successes = (r: Report) => Object.fromEntries(Object.entries(r.tasks).map(([t, v]) => [t, [v.success, v.episodes]]));

async function evaluate(extra: string[], out: string): Promise<Report> {
  const r = await runZetta([...args(join(dir, out)), ...extra], 240_000);
  if (r.code !== 0) throw new Error(`zetta eval exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return lastJson(r.stdout);
}

beforeAll(async () => {
  if (!hosts) return;
  if (!existsSync(packagePath('dist', 'cli', 'commands', 'worker.js')))
    throw new Error('the queue tests run the built bin: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'zetta-queue-hosts-'));
  redis = await RedisProcess.start({ alsoBind: hosts.hosts.map((h) => h.gateway) });
  workers = hosts.hosts.map((h) => new WorkerProcess(redis.urlAt(h.gateway), [], h.prefix));
  await Promise.all(workers.map((w) => w.ready()));
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
  hosts?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hosts)('zetta eval --queue with workers on two test hosts (network namespaces)', () => {
  it('gives the local per-task successes, each host running part of it', async () => {
    const local = await evaluate([], 'local');
    const queued = await evaluate(['--queue', redis.url], 'queued');
    expect(successes(queued)).toEqual(successes(local));
    expect(queued.queue).toMatchObject({ jobs: 6, queueRetries: 0 });
    for (const w of workers) expect(w.finished.length).toBeGreaterThan(0);
    expect(workers.reduce((n, w) => n + w.finished.length, 0)).toBe(6);
  }, 300_000);
});
