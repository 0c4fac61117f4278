import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EEF_BOX, POSITION_SCALE, TabletopEnv, resolvePerturbation, type Env } from '../../sim/tabletop/index.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import { openCritic, resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { runEpisode, type EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';
import { ConstantPolicy, ReplayPolicy, expertScript } from './loop-policies.js';
import { TABLETOP_WORLD, tabletopIO } from '../support/tabletop.js';

const disturbance = resolvePerturbation('disturbance');
const defaultCritic = () => openCritic(resolveCriticSpec('default'), TABLETOP_WORLD)!;
const oracleCritic = () => openCritic(resolveCriticSpec('oracle'), TABLETOP_WORLD)!;

/** The env, with every action it receives copied (what really reached env.step). */
function spyOn(env: TabletopEnv): { env: Env; sent: Float32Array[] } {
  const sent: Float32Array[] = [];
  const spy: Env = {
    spec: () => env.spec(),
    reset: (o) => env.reset(o),
    step: (a) => {
      sent.push(Float32Array.from(a));
      return env.step(a);
    },
    observe: () => env.observe(),
    features: () => env.features(),
    close: () => env.close(),
  };
  return { env: spy, sent };
}

describe('the control loop with the default critic', () => {
  let env: TabletopEnv;
  beforeAll(async () => {
    env = await TabletopEnv.create();
  });
  afterAll(async () => {
    await env.close();
  });

  it('runs a recovery when the object is knocked out of the gripper, and hands back only by re-entry with a fresh chunk', async () => {
    const task = 'spatial/left_cube_in_bowl';
    const script = await expertScript(env, task, 5000);
    const dir = mkdtempSync(join(tmpdir(), 'zetta-loop-'));
    const policy = new ReplayPolicy(script, env, 10);
    const out = await runEpisode(
      env,
      policy,
      { task, seed: 5000, perturbation: disturbance },
      {
        executeSteps: 5,
        ...tabletopIO(),
        policyLabel: 'replay',
        critic: defaultCritic(),
        criticLabel: 'default',
        recordPath: join(dir, 'ep.mcap'),
      },
    );
    expect(out.recoveries).toBeGreaterThan(0);
    expect(out.recoveryActions).toBeGreaterThan(0);
    const ep = await readEpisode(join(dir, 'ep.mcap'));
    expect(ep.header.critic).toBe('default');
    const steps = ep.steps;
    expect(steps.filter((s) => s.source === 'recovery')).toHaveLength(out.recoveryActions);
    expect(steps.filter((s) => s.source === 'policy')).toHaveLength(out.policyActions);
    let reentries = 0;
    for (let i = 1; i < steps.length; i++) {
      const prev = steps[i - 1]!;
      const s = steps[i]!;
      // A recovery starts on a step whose decision names the rule that proposed it.
      if (s.source === 'recovery' && prev.source !== 'recovery') {
        expect(s.decision?.kind).toBe('recover');
        expect(s.decision?.reason).toMatch(/^rule /);
        // …fired this step, or queued by the governor while the previous recovery ran.
        const rule = /^rule ([^\s;]+)/.exec(s.decision!.reason!)![1];
        if (!/queued/.test(s.decision!.reason!)) expect(s.proposals?.map((p) => p.ruleId)).toContain(rule);
      }
      // Control returns to the policy only through re-entry, which asks the policy for a fresh chunk
      // at that very step (the stale one was dropped) and executes its first action.
      if (prev.source === 'recovery' && s.source === 'policy') {
        expect(s.decision?.kind).toBe('reenter');
        expect(policy.calls).toContain(s.step);
        expect(Array.from(s.action)).toEqual(Array.from(s.policyAction!));
        reentries++;
      }
      // A recovery's later steps do not ask the policy; its first step records the a_t it overrode.
      if (s.source === 'recovery' && prev.source === 'recovery') expect(s.policyAction).toBeNull();
      if (s.source === 'recovery' && prev.source !== 'recovery') expect(s.policyAction).not.toBeNull();
    }
    expect(reentries).toBeGreaterThan(0);
    // The policy is never asked while a recovery drives (it may be on the step one starts: the
    // critic judged that step's a_t).
    const driven = new Set(steps.filter((s, i) => s.source === 'recovery' && steps[i - 1]?.source === 'recovery').map((s) => s.step));
    expect(driven.size).toBeGreaterThan(0);
    expect(policy.calls.filter((t) => driven.has(t))).toEqual([]);
  });

  it('never lets a non-finite policy action reach env.step', async () => {
    const { env: spy, sent } = spyOn(env);
    const out = await runEpisode(
      spy,
      new ConstantPolicy([Number.NaN, 0, 0, 0, 0, 0, 1]),
      { task: 'goal/press_button', seed: 1 },
      {
        executeSteps: 1,
        ...tabletopIO(),
        policyLabel: 'nan',
        critic: defaultCritic(),
        stepLimit: 20,
      },
    );
    expect(out.infraFailure).toBeNull();
    expect(sent).toHaveLength(20);
    for (const a of sent) expect(a.every((x) => Number.isFinite(x))).toBe(true);
    for (const a of sent) expect(Array.from(a.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('keeps the hand inside the workspace box whatever the policy asks', async () => {
    const { env: spy, sent } = spyOn(env);
    const positions: number[] = [];
    await runEpisode(
      spy,
      new ConstantPolicy([1, 1, 1, 0, 0, 0, -1]),
      { task: 'goal/press_button', seed: 2 },
      {
        executeSteps: 1,
        ...tabletopIO(),
        policyLabel: 'push',
        critic: defaultCritic(),
        stepLimit: 40,
        toPolicyObservation: (obs) => {
          positions.push(obs.state[0]!, obs.state[1]!, obs.state[2]!);
          return { 'observation/state': { __ndarray__: true, dtype: '<f4', shape: [8], data: obs.state } } as never;
        },
      },
    );
    expect(sent.length).toBeGreaterThan(0);
    // Predicted next position of every executed action stays inside the box (the envelope acted
    // before env.step, not the simulator's own clipping afterwards).
    for (let k = 0; k < positions.length / 3 && k < sent.length; k++) {
      for (let i = 0; i < 3; i++) {
        const next = positions[3 * k + i]! + POSITION_SCALE * sent[k]![i]!;
        expect(next).toBeLessThanOrEqual(EEF_BOX.max[i]! + 1e-6);
      }
    }
  });

  it('with no critic executes exactly what the policy proposes and records no critic channel', async () => {
    const task = 'goal/lift_red_cube';
    const script = await expertScript(env, task, 7);
    const { env: spy, sent } = spyOn(env);
    const dir = mkdtempSync(join(tmpdir(), 'zetta-loop-'));
    const out = await runEpisode(
      spy,
      new ReplayPolicy(script),
      { task, seed: 7, perturbation: disturbance },
      {
        executeSteps: 1,
        ...tabletopIO(),
        policyLabel: 'replay',
        recordPath: join(dir, 'ep.mcap'),
      },
    );
    expect(sent.map((a) => Array.from(a))).toEqual(script.slice(0, sent.length).map((a) => Array.from(a)));
    expect(out).toMatchObject({ recoveries: 0, recoveryActions: 0, holdActions: 0, envelopeHits: 0, aborted: false });
    expect(out.policyActions).toBe(out.steps);
    const ep = await readEpisode(join(dir, 'ep.mcap'));
    expect(ep.header.critic).toBe('none');
    expect(ep.steps.every((s) => s.decision === undefined && s.proposals === undefined && s.source === 'policy')).toBe(true);
  });

  // The privileged oracle bundle's programs re-grasp and place on simulator truth: they do the task's
  // work for a policy that cannot react at all. That is what the oracle is for, and why it is never
  // the default (the default only restores; see tests/runtime/governance-synergy.test.ts).
  it('with the privileged oracle bundle, makes an open-loop policy succeed more often when a disturbance knocks the object away (fixed seeds)', async () => {
    const critic = oracleCritic();
    const cases: [string, number][] = [
      ['spatial/left_cube_in_bowl', 5000],
      ['goal/stack_red_on_green', 5000],
      ['long/press_button_then_green_on_plate', 5000],
      ['object/yellow_cube_in_bowl', 5000],
    ];
    const without: EpisodeOutcome[] = [];
    const withCritic: EpisodeOutcome[] = [];
    for (const [task, seed] of cases) {
      const script = await expertScript(env, task, seed);
      const spec = { task, seed, perturbation: disturbance };
      without.push(await runEpisode(env, new ReplayPolicy(script), spec, { executeSteps: 1, ...tabletopIO(), policyLabel: 'replay' }));
      withCritic.push(
        await runEpisode(env, new ReplayPolicy(script), spec, { executeSteps: 1, ...tabletopIO(), policyLabel: 'replay', critic }),
      );
    }
    const wins = (xs: EpisodeOutcome[]) => xs.filter((o) => o.success).length;
    expect(wins(withCritic)).toBeGreaterThan(wins(without));
    expect(wins(withCritic)).toBeGreaterThanOrEqual(3);
    // The policy still does most of the work.
    const policy = withCritic.reduce((n, o) => n + o.policyActions, 0);
    const recovery = withCritic.reduce((n, o) => n + o.recoveryActions, 0);
    expect(policy / (policy + recovery)).toBeGreaterThan(0.5);
  });
});
