import { describe, expect, it } from 'vitest';
import { TabletopEnv, resolvePerturbation } from '../../sim/tabletop/index.js';
import { evaluate } from '../../measure/evaluation.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';
import { ReplayPolicy, expertScript } from './loop-policies.js';

describe('evaluate with a critic (in this thread)', () => {
  it('loads the bundle from its path, counts recoveries and the honest policy share (the privileged oracle bundle, whose recoveries act on a replayed policy)', async () => {
    const env = await TabletopEnv.create();
    const task = 'spatial/left_cube_in_bowl';
    const script = await expertScript(env, task, 5000);
    await env.close();
    const plan = {
      tasks: [task],
      episodesPerTask: 1,
      firstSeed: 5000,
      perturbation: resolvePerturbation('disturbance'),
      policy: 'replay',
      executeSteps: 1,
    };
    const without = await evaluate(plan, { workers: 1, hostPolicy: new ReplayPolicy(script) });
    const withCritic = await evaluate(
      { ...plan, critic: resolveCriticSpec('oracle') },
      { workers: 1, hostPolicy: new ReplayPolicy(script) },
    );
    expect(without).toMatchObject({ recoveries: 0, attribution: { unmodifiedPolicyShare: 1 } });
    expect(withCritic.recoveries).toBeGreaterThan(0);
    expect(withCritic.attribution.unmodifiedPolicyShare).toBeGreaterThan(0.5);
    expect(withCritic.attribution.unmodifiedPolicyShare).toBeLessThan(1);
    expect(withCritic.attribution.executedSteps).toBe(withCritic.outcomes.reduce((n, o) => n + o.steps, 0));
    expect(withCritic.macroSuccess).toBeGreaterThan(without.macroSuccess);
  });
});
