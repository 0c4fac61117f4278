// A campaign over several tasks: every seed list runs on each task, an episode is named by its key
// (task index × TASK_STRIDE + seed, the seed itself for the first task), the runner still sees real
// seeds, and the gates pool the tasks but refuse a candidate that does worse on any one of them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GATES, runCampaign } from '../../evolution/index.js';
import { DEV_SEED_BASE, TASK_STRIDE, episodeKeys, keyParts } from '../../evolution/campaign/seeds.js';
import type { EpisodeResult } from '../../evolution/campaign/rollouts.js';
import { heldoutGate, regressionGate } from '../../evolution/gates/gates.js';
import { pairEpisodes } from '../../evolution/gates/paired.js';
import { TASK, syntheticCampaignOptions, syntheticRunner } from './synthetic.js';

const OTHER = 'spatial/right_cube_on_plate';

describe('episode keys', () => {
  it('are the seeds for one task, and task index × stride + seed for several', () => {
    expect(episodeKeys(1, [5, 6])).toEqual([5, 6]);
    expect(episodeKeys(2, [5, 6])).toEqual([5, 6, TASK_STRIDE + 5, TASK_STRIDE + 6]);
    expect(keyParts(TASK_STRIDE + 6, 2)).toEqual({ task: 1, seed: 6 });
    expect(keyParts(TASK_STRIDE + 6, 1)).toEqual({ task: 0, seed: TASK_STRIDE + 6 });
    expect(() => episodeKeys(2, [TASK_STRIDE])).toThrow(/below/);
  });
});

describe('a campaign over two tasks', () => {
  it('runs every seed list on each task under the real seeds, and keeps each episode under its key', async () => {
    const root = mkdtempSync(join(tmpdir(), 'zetta-multi-task-'));
    const inner = syntheticRunner((s) => s % 3 === 0);
    const asked: Array<{ task: string; seeds: readonly number[] }> = [];
    const runner = {
      ...inner,
      run: (req: Parameters<typeof inner.run>[0], cb: Parameters<typeof inner.run>[1]) => {
        if (req.policy === undefined) asked.push({ task: req.task, seeds: req.seeds });
        return inner.run(req, cb);
      },
    };
    await runCampaign(syntheticCampaignOptions(root, { tasks: [TASK, OTHER], runner }));
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ task: TASK, tasks: [TASK, OTHER] });
    const prereg = JSON.parse(readFileSync(join(root, 'preregistration.json'), 'utf8'));
    const dev = Array.from({ length: 6 }, (_, i) => DEV_SEED_BASE + i);
    expect(prereg.dev['1']).toEqual([...dev, ...dev.map((s) => TASK_STRIDE + s)]);
    expect(prereg.heldout).toEqual([1, 2, 3, 4, TASK_STRIDE + 1, TASK_STRIDE + 2, TASK_STRIDE + 3, TASK_STRIDE + 4]);
    // the runner never sees a key: each task with its own seeds
    for (const task of [TASK, OTHER]) expect(asked.filter((a) => a.task === task).flatMap((a) => a.seeds)).toContain(DEV_SEED_BASE);
    expect(asked.flatMap((a) => a.seeds).every((s) => s < TASK_STRIDE)).toBe(true);
    // the parent's development rollout: 12 episodes, each task's under its keys
    const ledger = Object.keys(JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')).ledger as Record<string, string>);
    const devSet = JSON.parse(readFileSync(join(root, ledger.find((p) => p.endsWith('/dev-g1.json'))!), 'utf8')) as {
      results: EpisodeResult[];
    };
    expect(devSet.results).toHaveLength(12);
    for (const r of devSet.results) expect(r.task).toBe(keyParts(r.seed, 2).task === 0 ? TASK : OTHER);
  });
});

/** A parent and a candidate episode at `key` of `task`. */
function result(task: string, key: number, success: boolean): EpisodeResult {
  return {
    task,
    seed: key,
    success,
    infra_failure: null,
    steps: 100,
    milestones: [],
    reset_digest: `d${key}`,
    policy_actions: 100,
    recovery_actions: 0,
    recoveries: 0,
    safety_events: 0,
    record: null,
  };
}

describe('gates over several tasks', () => {
  // task A: the candidate rescues 8 of 8; task B: it breaks 1 of its 2 successes. Pooled: +8 − 1.
  const parent = [
    ...Array.from({ length: 8 }, (_, i) => result(TASK, i, false)),
    ...Array.from({ length: 6 }, (_, i) => result(OTHER, TASK_STRIDE + i, i < 2)),
  ];
  const candidate = [
    ...Array.from({ length: 8 }, (_, i) => result(TASK, i, true)),
    ...Array.from({ length: 6 }, (_, i) => result(OTHER, TASK_STRIDE + i, i < 1)),
  ];
  const pairs = pairEpisodes(parent, candidate, { parent: 'p', candidate: 'p' });

  it('refuse a pooled gain that costs one task a success', () => {
    const regression = regressionGate(pairs, DEFAULT_GATES);
    expect(regression.pass).toBe(false);
    expect(regression.reason).toContain(`fewer on ${OTHER} (2 → 1)`);
    const held = heldoutGate(pairs, DEFAULT_GATES);
    expect(held.p_value).toBeLessThan(DEFAULT_GATES.alpha); // the pooled test alone would promote it
    expect(held.pass).toBe(false);
  });

  it('pass it when no task loses', () => {
    const fixed = candidate.map((r) => (r.task === OTHER ? { ...r, success: keyParts(r.seed, 2).seed < 2 } : r));
    const ok = pairEpisodes(parent, fixed, { parent: 'p', candidate: 'p' });
    expect(regressionGate(ok, DEFAULT_GATES).pass).toBe(true);
    expect(heldoutGate(ok, DEFAULT_GATES).pass).toBe(true);
  });
});
