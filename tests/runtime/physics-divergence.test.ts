import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimPhysicsError, SimUnavailable, TabletopEnv, type Env } from '../../sim/tabletop/index.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import { summarize } from '../../measure/evaluation.js';
import { classifyFailure, runEpisode } from '../../zinfra/runtime/run-episode.js';
import { ReplayPolicy, expertScript } from './loop-policies.js';
import { tabletopIO } from '../support/tabletop.js';

/** Test double: the real env, except that step `at` throws `error` (as a diverging simulation would). */
function failingAt(env: TabletopEnv, at: number, error: () => Error): Env {
  let steps = 0;
  return {
    spec: () => env.spec(),
    reset: (o) => {
      steps = 0;
      return env.reset(o);
    },
    step: (a) => (steps++ === at ? Promise.reject(error()) : env.step(a)),
    observe: () => env.observe(),
    features: () => env.features(),
    close: () => env.close(),
  };
}

describe('a physics divergence is a failure of the arm, not of the infrastructure', () => {
  const task = 'goal/lift_red_cube';
  let env: TabletopEnv;
  let script: Float32Array[];
  beforeAll(async () => {
    env = await TabletopEnv.create();
    script = await expertScript(env, task, 7);
  });
  afterAll(async () => {
    await env.close();
  });

  it('classifies SimPhysicsError as physics and a dead simulator as infra', () => {
    expect(classifyFailure(new SimPhysicsError('NaN state'))).toBe('physics');
    expect(classifyFailure(new SimUnavailable('gone'))).toBe('infra');
  });

  it('with a test double env whose step throws SimPhysicsError: a failed episode, counted in the denominator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-physics-'));
    const diverged = await runEpisode(
      failingAt(env, 12, () => new SimPhysicsError('physics diverged at step 12')),
      new ReplayPolicy(script),
      { task, seed: 7 },
      {
        executeSteps: 1,
        ...tabletopIO(),
        policyLabel: 'replay',
        recordPath: join(dir, 'ep.mcap'),
      },
    );
    expect(diverged).toMatchObject({ success: false, physicsDivergence: true, infraFailure: null, steps: 12 });
    expect((await readEpisode(join(dir, 'ep.mcap'))).summary).toMatchObject({
      success: false,
      physicsDivergence: true,
      infraFailure: null,
    });
    const clean = await runEpisode(
      env,
      new ReplayPolicy(script),
      { task, seed: 7 },
      { executeSteps: 1, ...tabletopIO(), policyLabel: 'replay' },
    );
    expect(clean).toMatchObject({ success: true, physicsDivergence: false });
    const plan = { tasks: [task], episodesPerTask: 2, firstSeed: 7, policy: 'replay', executeSteps: 1 };
    const r = summarize(plan, [diverged, clean], 1);
    expect(r.tasks[task]).toMatchObject({ successes: 1, episodes: 2, rate: 0.5, physicsDivergences: 1, infraFailures: 0 });
    expect(r).toMatchObject({ physicsDivergences: 1, infraFailures: 0, macroSuccess: 0.5 });
  });

  it('with a test double env whose simulator dies: an infrastructure failure, left out of the denominator', async () => {
    const dead = await runEpisode(
      failingAt(env, 6, () => new SimUnavailable('the simulator process exited')),
      new ReplayPolicy(script),
      { task, seed: 7 },
      {
        executeSteps: 1,
        ...tabletopIO(),
        policyLabel: 'replay',
      },
    );
    expect(dead).toMatchObject({ success: false, physicsDivergence: false, steps: 6 });
    expect(dead.infraFailure).toMatch(/SimUnavailable/);
    const r = summarize({ tasks: [task], episodesPerTask: 1, firstSeed: 7, policy: 'replay', executeSteps: 1 }, [dead], 1);
    expect(r.tasks[task]).toMatchObject({ episodes: 0, infraFailures: 1, physicsDivergences: 0 });
    expect(r.attribution.executedSteps).toBe(6); // its steps still count in the honest share
  });
});
