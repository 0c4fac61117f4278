// The control loop's step observers: the order the loop calls them in, what each hook sees (the
// observation before env.step, the same step object every step), and the two the loop keeps itself,
// the recording and the tally, agreeing with each other and with the outcome.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TabletopEnv, resolvePerturbation } from '../../../sim/tabletop/index.js';
import type { StepResult } from '../../../sim/env.js';
import { f32, type Observation } from '../../../protocol/ndarray.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../../zinfra/policy/policy.js';
import type { EpisodeSummary } from '../../../zinfra/recording/episode-record.js';
import { readEpisode } from '../../../zinfra/recording/episode-reader.js';
import { EMPTY_ACTION, type Chosen } from '../../../zinfra/runtime/choose-action.js';
import { EpisodeTally } from '../../../zinfra/runtime/episode-tally.js';
import { openCritic, resolveCriticSpec } from '../../../zinfra/runtime/open-critic.js';
import { runEpisode } from '../../../zinfra/runtime/run-episode.js';
import type { EpisodeStart, LoopStep, StepObserver } from '../../../zinfra/runtime/step-observer.js';
import { ReplayPolicy, expertScript } from '../../runtime/loop-policies.js';
import { TABLETOP_WORLD, tabletopIO } from '../../support/tabletop.js';

/** Writes down every call it gets, with copies of what it was shown. */
class Probe implements StepObserver {
  readonly events: string[] = [];
  readonly steps = new Set<LoopStep>();
  readonly indices: number[] = [];
  readonly statesBefore: number[][] = [];
  readonly statesAfter: number[][] = [];
  readonly sources: string[] = [];
  start: EpisodeStart | undefined;
  summary: EpisodeSummary | undefined;

  onStart(start: EpisodeStart): void {
    this.events.push('start');
    this.start = start;
  }
  onAction(step: LoopStep): void {
    this.events.push('action');
    this.steps.add(step);
    this.statesBefore.push(Array.from(step.observation.state));
  }
  onStep(step: LoopStep, result: StepResult): void {
    this.events.push('step');
    this.steps.add(step);
    this.indices.push(step.index);
    this.sources.push(step.chosen.source);
    this.statesAfter.push(Array.from(result.obs.state));
  }
  onEnd(summary: EpisodeSummary): void {
    this.events.push('end');
    this.summary = summary;
  }
  onAbandon(): void {
    this.events.push('abandon');
  }
}

/** A policy that answers `calls` times, then throws an error no failure class covers (a bug). */
class FailingPolicy implements Policy {
  private left: number;
  constructor(calls: number) {
    this.left = calls;
  }
  async metadata(): Promise<PolicyMetadata> {
    return { policyId: 'failing', modelVersion: '1', actionHorizon: 1, actionDim: 7, observationKeys: [] };
  }
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    if (this.left-- <= 0) throw new Error('observation key missing');
    return batch.map(() => ({ actions: f32([1, 7], Float32Array.from([0, 0, 0.5, 0, 0, 0, -1])), policyTiming: {} }));
  }
  async close(): Promise<void> {}
}

describe('step observers of the control loop', () => {
  let env: TabletopEnv;
  beforeAll(async () => {
    env = await TabletopEnv.create();
  });
  afterAll(async () => {
    await env.close();
  });

  it('are called start, then action and step for every executed step, then end, and agree with the recording and the outcome', async () => {
    const task = 'spatial/left_cube_in_bowl';
    const script = await expertScript(env, task, 5000);
    const dir = mkdtempSync(join(tmpdir(), 'zetta-observers-'));
    const critic = openCritic(resolveCriticSpec('default'), TABLETOP_WORLD)!;
    const probe = new Probe();
    const out = await runEpisode(
      env,
      new ReplayPolicy(script, env, 10),
      { task, seed: 5000, perturbation: resolvePerturbation('disturbance') },
      {
        executeSteps: 5,
        ...tabletopIO(),
        policyLabel: 'replay',
        critic,
        criticLabel: 'default',
        recordPath: join(dir, 'ep.mcap'),
        observers: [probe],
      },
    );
    expect(out.recoveryActions).toBeGreaterThan(0); // the scenario exercises every source the tally counts
    expect(probe.events).toEqual(['start', ...Array.from({ length: out.steps }, () => ['action', 'step']).flat(), 'end']);
    expect(probe.steps.size).toBe(1); // one step object for the whole episode
    expect(probe.indices).toEqual(Array.from({ length: out.steps }, (_, i) => i));
    expect(probe.start?.critic).toBe(critic);
    expect(probe.start?.reset.info.resetDigest).toBe(out.resetDigest);
    expect(probe.summary).toMatchObject({
      steps: out.steps,
      success: out.success,
      policyActions: out.policyActions,
      recoveryActions: out.recoveryActions,
    });

    const count = (source: string) => probe.sources.filter((s) => s === source).length;
    expect([count('policy'), count('recovery'), count('hold')]).toEqual([out.policyActions, out.recoveryActions, out.holdActions]);
    const ep = await readEpisode(join(dir, 'ep.mcap'));
    expect(ep.summary?.steps).toBe(out.steps);
    expect(ep.steps.map((s) => s.source)).toEqual(probe.sources);
    // The recording keeps the state the action was chosen from, not the one env.step left behind.
    ep.steps.forEach((s, i) => expect(Array.from(s.state)).toEqual(probe.statesBefore[i]!.map((x) => Math.round(x * 1e6) / 1e6)));
    expect(probe.statesBefore.slice(1)).toEqual(probe.statesAfter.slice(0, -1));
    expect(probe.statesBefore[5]).not.toEqual(probe.statesAfter[5]);
  });

  it('on a bug, are abandoned instead of ended: the recording stays a .partial and the error is rethrown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-observers-'));
    const probe = new Probe();
    const path = join(dir, 'ep.mcap');
    const run = runEpisode(
      env,
      new FailingPolicy(3),
      { task: 'goal/press_button', seed: 1 },
      {
        executeSteps: 1,
        ...tabletopIO(),
        policyLabel: 'failing',
        recordPath: path,
        observers: [probe],
      },
    );
    await expect(run).rejects.toThrow('observation key missing');
    expect(probe.events).toEqual(['start', 'action', 'step', 'action', 'step', 'action', 'step', 'abandon']);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.partial`)).toBe(true);
  });
});

describe('EpisodeTally as a step observer', () => {
  it('counts what the step executed and the milestones env.step reported, as count() does', () => {
    const a = Float32Array.from([0.1, 0, 0, 0, 0, 0, 1]);
    const clamped = Float32Array.from([0.05, 0, 0, 0, 0, 0, 1]);
    const chosen: Chosen = { action: EMPTY_ACTION, source: 'policy', proposed: null, fromChunk: false, reentered: false };
    const step: LoopStep = {
      index: 0,
      observation: { state: new Float32Array(8), objects: new Float32Array(0), t: 0, prompt: '' },
      chosen,
    };
    const result = (milestones: string[]): StepResult => ({
      obs: step.observation,
      reward: 0,
      done: false,
      info: { success: false, milestones },
    });
    const observed = new EpisodeTally();
    const counted = new EpisodeTally();
    const executed: [Chosen['source'], Float32Array, Float32Array | null, boolean, string[]][] = [
      ['policy', a, a.slice(), true, []],
      ['policy', clamped, a, true, ['reached']],
      ['recovery', clamped, null, false, ['reached', 'grasped']],
      ['hold', clamped, a, false, ['reached', 'grasped', 'lifted']],
    ];
    for (const [source, action, proposed, fromChunk, milestones] of executed) {
      Object.assign(chosen, { source, action, proposed, fromChunk });
      observed.onStep(step, result(milestones));
      counted.count(source, action, proposed, fromChunk, milestones);
    }
    expect(observed).toMatchObject({
      policyActions: 2,
      unmodifiedPolicyActions: 1,
      recoveryActions: 1,
      holds: 1,
      milestonesDuringRecovery: 1,
    });
    expect({ ...observed }).toEqual({ ...counted });
  });
});
