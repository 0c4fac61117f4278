import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TabletopEnv, resolvePerturbation } from '../../sim/tabletop/index.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import { attribute } from '../../measure/attribution.js';
import { EpisodeTally } from '../../zinfra/runtime/episode-tally.js';
import { openCritic, resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { runEpisode } from '../../zinfra/runtime/run-episode.js';
import { ConstantPolicy, ReplayPolicy, expertScript } from '../runtime/loop-policies.js';
import { TABLETOP_WORLD, tabletopIO } from '../support/tabletop.js';

const defaultCritic = () => openCritic(resolveCriticSpec('default'), TABLETOP_WORLD)!;
const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  a.length === b.length && Array.from(a).every((x, i) => Object.is(Math.fround(x), Math.fround(b[i]!)));

describe('attribution counters of a real episode', () => {
  let env: TabletopEnv;
  beforeAll(async () => {
    env = await TabletopEnv.create();
  });
  afterAll(async () => {
    await env.close();
  });

  it('counts only the policy’s own unmodified actions, and milestones first reached under a recovery, as the recording shows', async () => {
    const task = 'spatial/left_cube_in_bowl';
    const script = await expertScript(env, task, 5000);
    const dir = mkdtempSync(join(tmpdir(), 'zetta-attr-'));
    const out = await runEpisode(
      env,
      new ReplayPolicy(script, env, 10),
      { task, seed: 5000, perturbation: resolvePerturbation('disturbance') },
      {
        executeSteps: 5,
        ...tabletopIO(),
        policyLabel: 'replay',
        critic: defaultCritic(),
        recordPath: join(dir, 'ep.mcap'),
      },
    );
    expect(out.recoveries).toBeGreaterThan(0);
    expect(out.unmodifiedPolicyActions).toBeLessThan(out.steps);
    expect(out.unmodifiedPolicyActions).toBeLessThanOrEqual(out.policyActions);
    const ep = await readEpisode(join(dir, 'ep.mcap'));
    const unmodified = ep.steps.filter((s) => s.source === 'policy' && s.policyAction !== null && same(s.action, s.policyAction)).length;
    expect(out.unmodifiedPolicyActions).toBe(unmodified);
    const reached = new Set<string>();
    let underRecovery = 0;
    for (const s of ep.steps) {
      for (const m of s.milestones) {
        if (!reached.has(m) && s.source === 'recovery') underRecovery++;
        reached.add(m);
      }
    }
    expect(out.milestonesDuringRecovery).toBe(underRecovery);
    expect(ep.summary).toMatchObject({
      unmodifiedPolicyActions: unmodified,
      milestonesDuringRecovery: underRecovery,
      physicsDivergence: false,
    });
  });

  it('counts an action the envelope limited against the policy, though its source is the policy', async () => {
    const out = await runEpisode(
      env,
      new ConstantPolicy([1, 1, 1, 0, 0, 0, -1]),
      { task: 'goal/press_button', seed: 2 },
      {
        executeSteps: 1,
        ...tabletopIO(),
        policyLabel: 'push',
        critic: defaultCritic(),
        stepLimit: 40,
      },
    );
    expect(out.envelopeHits).toBeGreaterThan(0);
    expect(out.unmodifiedPolicyActions).toBeLessThan(out.policyActions);
  });

  it('without a critic every executed step is the policy’s own', async () => {
    const task = 'goal/lift_red_cube';
    const script = await expertScript(env, task, 7);
    const out = await runEpisode(
      env,
      new ReplayPolicy(script),
      { task, seed: 7 },
      { executeSteps: 1, ...tabletopIO(), policyLabel: 'replay' },
    );
    expect(out.success).toBe(true);
    expect(out.steps).toBeGreaterThan(0);
    expect(out).toMatchObject({ policyActions: out.steps, unmodifiedPolicyActions: out.steps, milestonesDuringRecovery: 0 });
  });
});

describe('EpisodeTally', () => {
  it('credits the policy only with exact chunk actions and a recovery only with milestones it reached first', () => {
    const t = new EpisodeTally();
    const a = Float32Array.from([0.1, 0, 0, 0, 0, 0, 1]);
    const clamped = Float32Array.from([0.05, 0, 0, 0, 0, 0, 1]);
    t.count('policy', a, a.slice(), true, []); // executed as proposed
    t.count('policy', clamped, a, true, ['reached']); // clamped: the policy's source, not its action
    t.count('policy', a, a, false, ['reached']); // not from a chunk: never the policy's own
    t.count('recovery', clamped, null, false, ['reached', 'grasped']); // first reached under a recovery
    t.count('recovery', clamped, null, false, ['reached', 'grasped']); // already reached
    t.count('hold', clamped, a, true, ['reached', 'grasped', 'lifted']); // reached on a hold: not a recovery's
    t.count('recovery', clamped, null, false, ['reached', 'grasped', 'lifted', 'placed']);
    expect(t).toMatchObject({ policyActions: 3, unmodifiedPolicyActions: 1, recoveryActions: 3, holds: 1, milestonesDuringRecovery: 2 });
  });
});

describe('attribute', () => {
  const episode = (
    success: boolean,
    steps: number,
    unmodified: number,
    recoveries: number,
    extra: { infra?: boolean; physics?: boolean; milestones?: number } = {},
  ) => ({
    success,
    steps,
    unmodifiedPolicyActions: unmodified,
    recoveries,
    milestonesDuringRecovery: extra.milestones ?? 0,
    physicsDivergence: extra.physics ?? false,
    infraFailure: extra.infra ? 'PolicyUnavailable: gone' : null,
  });

  it('divides by every executed step, failures and infrastructure failures included', () => {
    const a = attribute([
      episode(true, 100, 80, 0),
      episode(true, 100, 40, 2, { milestones: 1 }),
      episode(false, 200, 0, 5, { physics: true }),
      episode(false, 50, 50, 0, { infra: true }),
    ]);
    expect(a).toMatchObject({
      episodes: 4,
      successes: 2,
      executedSteps: 450,
      unmodifiedPolicyActions: 170,
      successSteps: 200,
      successUnmodifiedPolicyActions: 120,
      successesWithoutRecovery: 1,
      recoveries: 7,
      milestonesDuringRecovery: 1,
      physicsDivergences: 1,
      infraFailures: 1,
    });
    expect(a.unmodifiedPolicyShare).toBeCloseTo(170 / 450, 12);
    expect(a.unmodifiedPolicyShareInSuccesses).toBeCloseTo(0.6, 12);
    expect(attribute([]).unmodifiedPolicyShare).toBeNaN();
    expect(attribute([episode(false, 10, 10, 0)]).unmodifiedPolicyShareInSuccesses).toBeNaN();
  });
});
