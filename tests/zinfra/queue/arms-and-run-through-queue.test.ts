// The governance arms and the main job through the Redis queue, with two real `zetta worker`
// processes: `zetta eval --arms --queue` gives the local arms table (every arm's per-task successes,
// the synergy) at the same seeds, and a small `zetta run --queue` gives the local run's baseline and
// governance figures, and the same campaigns with the same verdicts (side by side through the queue,
// one after the other locally).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../../util/package-root.js';
import { runZetta } from '../../support/zetta-process.js';
import { RedisProcess } from '../../../bench/redis-process.js';
import { WorkerProcess } from './worker-process.js';

let redis: RedisProcess;
let workers: WorkerProcess[] = [];
let dir: string;

async function zetta(args: string[]): Promise<string> {
  const r = await runZetta(args, 700_000);
  if (r.code !== 0) throw new Error(`zetta ${args[0]} exited ${r.code}: ${r.stderr.slice(-2000)}`);
  return r.stdout;
}
const lastJson = <T>(stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

beforeAll(async () => {
  if (!existsSync(packagePath('dist', 'cli', 'commands', 'worker.js')))
    throw new Error('the queue tests run the built bin: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'zetta-queue-arms-'));
  redis = await RedisProcess.start({ fsyncEveryWrite: false });
  workers = [0, 1].map(() => new WorkerProcess(redis.url));
  await Promise.all(workers.map((w) => w.ready()));
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface ArmsJson {
  arms: Record<string, { tasks: Record<string, { success: number; episodes: number }> }>;
  macro: Record<string, { value: number }>;
}
const armTable = (a: ArmsJson) =>
  Object.fromEntries(Object.entries(a.arms).map(([arm, r]) => [arm, Object.values(r.tasks).map((t) => [t.success, t.episodes])]));

describe('the arms and the main job through the queue, two workers', () => {
  it('zetta eval --arms --queue gives the local arms table at the same seeds', async () => {
    const args = (out: string) => [
      'eval',
      '--arms',
      '--critic',
      'default',
      '--tasks',
      'spatial/left_cube_in_bowl,object/green_cube_in_bowl',
      '--episodes',
      '3',
      '--perturb',
      'disturbance',
      '--no-record',
      '--out',
      join(dir, out),
      '--json',
    ];
    const local = lastJson<ArmsJson>(await zetta(args('arms-local')));
    const queued = lastJson<ArmsJson>(await zetta([...args('arms-queued'), '--queue', redis.url]));
    expect(armTable(queued)).toEqual(armTable(local));
    expect(queued.macro.synergy!.value).toBe(local.macro.synergy!.value);
  }, 400_000);

  it("a small zetta run --queue gives the local run's baseline, governance and campaign figures", async () => {
    const args = (out: string) => [
      'run',
      '--episodes',
      '1',
      '--expert-episodes',
      '1',
      '--wire-requests',
      '20',
      '--campaigns',
      '2',
      '--dev-episodes',
      '4',
      '--generations',
      '1',
      '--skills-db',
      join(dir, `${out}.db`),
      '--auto-approve',
      '--out',
      join(dir, out),
      '--json',
    ];
    await zetta(args('run-local'));
    await zetta([...args('run-queued'), '--queue', redis.url]);
    const report = (out: string) =>
      JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as { stages: Record<string, Record<string, unknown>> };
    const local = report('run-local').stages;
    const queued = report('run-queued').stages;
    for (const stage of ['baseline', 'governance'] as const) {
      const strip = (s: Record<string, unknown>) =>
        JSON.stringify(s, (k, v) => (/wall|_ms$|seconds|episodes_per_min|rate_per_min|timing|started|finished/.test(k) ? undefined : v));
      expect(strip(queued[stage]!), stage).toBe(strip(local[stage]!));
    }
    type Evolution = {
      in_parallel: number;
      campaigns: { task: string; perturbation: string; campaign: { promoted: boolean; heldout: unknown } }[];
    };
    const verdicts = (e: Evolution) => e.campaigns.map((c) => [c.task, c.perturbation, c.campaign.promoted, c.campaign.heldout]);
    const [localEvolution, queuedEvolution] = [local.evolution, queued.evolution] as unknown as Evolution[];
    expect(localEvolution!.campaigns).toHaveLength(2);
    expect(verdicts(queuedEvolution!)).toEqual(verdicts(localEvolution!));
    expect(queuedEvolution!.in_parallel).toBe(2);
  }, 1_400_000);
});
