import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedExpert, TabletopEnv } from '../../sim/tabletop/index.js';
import { PolicyUnavailable } from '../../zinfra/policy/errors.js';
import { randomMlp, writeMlpOnnx } from '../../models/build/mlp-onnx.js';
import { OnnxPolicy } from '../../zinfra/policy/onnx/onnx-policy.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../zinfra/policy/policy.js';
import { f32, type Observation } from '../../protocol/ndarray.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import { runEpisode } from '../../zinfra/runtime/run-episode.js';
import { wilson } from '../../measure/success-rate.js';
import { tabletopIO } from '../support/tabletop.js';

/** Test double: the scripted expert behind the Policy interface (it peeks at the simulator). */
class ExpertAsPolicy implements Policy {
  calls = 0;
  failAfter = Number.POSITIVE_INFINITY;
  private expert: ScriptedExpert | undefined;
  private episode: unknown;
  constructor(private readonly env: TabletopEnv) {}
  async metadata(): Promise<PolicyMetadata> {
    return { policyId: 'expert', modelVersion: '1', actionHorizon: 1, actionDim: 7, observationKeys: [] };
  }
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    if (++this.calls > this.failAfter) throw new PolicyUnavailable('the policy server went away');
    if (this.env.current !== this.episode) {
      this.episode = this.env.current; // a new episode object per reset
      this.expert = ScriptedExpert.forEpisode(this.env.current);
    }
    return batch.map(() => ({ actions: f32([1, 7], Float32Array.from(this.expert!.act())), policyTiming: {} }));
  }
  async close(): Promise<void> {}
}

describe('runEpisode', () => {
  let env: TabletopEnv;
  beforeAll(async () => {
    env = await TabletopEnv.create();
  });
  afterAll(async () => {
    await env.close();
  });

  it('succeeds with a policy that solves the task, and records every step as MCAP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-run-'));
    const policy = new ExpertAsPolicy(env);
    const out = await runEpisode(
      env,
      policy,
      { task: 'goal/press_button', seed: 3 },
      { executeSteps: 1, ...tabletopIO(), policyLabel: 'expert', recordPath: join(dir, 'ep.mcap') },
    );
    expect(out.success).toBe(true);
    expect(out.infraFailure).toBeNull();
    expect(out.policyCalls).toBe(out.steps); // k = 1 of a 1-action chunk: one call per step
    const ep = await readEpisode(join(dir, 'ep.mcap'));
    expect(ep.summary?.success).toBe(true);
    expect(ep.steps).toHaveLength(out.steps);
    expect(ep.header.resetDigest).toBe(out.resetDigest);
    expect(ep.header.featureNames.length).toBe(ep.steps[0]!.features!.length);
  });

  it('fails, without an infrastructure failure, with a policy that does not know the task', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-run-'));
    const model = join(dir, 'random.onnx');
    writeMlpOnnx(model, randomMlp({ inputDim: 8, hidden: [16], horizon: 10, actionDim: 7, seed: 9 }), { inputName: 'observation/state' });
    const policy = await OnnxPolicy.load(model);
    const out = await runEpisode(
      env,
      policy,
      { task: 'goal/open_drawer', seed: 1 },
      { executeSteps: 5, ...tabletopIO(), policyLabel: 'random' },
    );
    expect(out.success).toBe(false);
    expect(out.infraFailure).toBeNull();
    expect(out.steps).toBe(env.spec().maxSteps);
    expect(out.policyCalls).toBe(Math.ceil(out.steps / 5)); // k = 5 of each 10-action chunk
    await policy.close();
  });

  it('classifies a lost policy server as an infrastructure failure, never a task failure', async () => {
    const policy = new ExpertAsPolicy(env);
    policy.failAfter = 3;
    const out = await runEpisode(
      env,
      policy,
      { task: 'goal/lift_red_cube', seed: 2 },
      { executeSteps: 1, ...tabletopIO(), policyLabel: 'expert' },
    );
    expect(out.infraFailure).toMatch(/PolicyUnavailable/);
    expect(out.success).toBe(false);
    expect(out.steps).toBe(3);
  });
});

describe('wilson', () => {
  it('matches the textbook interval and stays inside [0, 1] at the extremes', () => {
    const half = wilson(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 3);
    expect(half.high).toBeCloseTo(0.7634, 3);
    expect(wilson(0, 10)).toMatchObject({ rate: 0, low: 0 });
    expect(wilson(0, 10).high).toBeCloseTo(0.2775, 3);
    // the interval holds the rate itself, exactly, at n/n too (a rate of 1 is inside its own interval)
    expect(wilson(10, 10).high).toBe(1);
    for (const [s, n] of [
      [10, 10],
      [0, 10],
      [7, 7],
      [0, 3],
      [1, 3],
    ] as const) {
      const r = wilson(s, n);
      expect(r.low).toBeLessThanOrEqual(r.rate);
      expect(r.high).toBeGreaterThanOrEqual(r.rate);
    }
    expect(wilson(10, 10).low).toBeCloseTo(0.7225, 3);
  });
});
