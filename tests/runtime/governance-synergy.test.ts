// The claim the default bundle exists for, at fixed seeds in the real simulator with the frozen
// embedded policy: under a position shift, the critic alone (every trivial policy under the same
// bundle) stays under its 10% cap, and policy + critic beats both the policy alone and the critic
// alone. Three arms at the same seeds; the oracle bundle is the control that shows the test can fail.
import { describe, expect, it } from 'vitest';
import { runGovernanceArms } from '../../measure/governance-arms.js';
import { embeddedArmsPlan } from '../support/arms-plan.js';

const plan = (critic: string) =>
  embeddedArmsPlan({
    critic,
    perturbation: 'position-shift',
    tasks: ['spatial/left_cube_in_bowl', 'spatial/front_cube_in_bowl'],
    episodesPerTask: 6,
    privileged: true,
  });

describe('governance with the default (observable) bundle, fixed seeds', () => {
  it('keeps the critic alone under its cap, and policy + critic beats both arms alone', async () => {
    const arms = await runGovernanceArms(plan('default'), { workers: 1, resamples: 500 });
    expect(arms.macro.critic.value).toBeLessThanOrEqual(0.1);
    for (const task of arms.tasks) {
      const t = arms.perTask[task]!;
      expect(t.both.value, task).toBeGreaterThan(Math.max(t.policy.value, t.critic.value));
    }
    expect(arms.macro.synergy.value).toBeGreaterThan(0.2);
    expect(arms.macro.synergy.low).toBeGreaterThan(0);
    // The policy still does the task: its own unmodified actions are most of the successful steps.
    expect(arms.arms.both.attribution.unmodifiedPolicyShareInSuccesses).toBeGreaterThanOrEqual(0.6);
    expect(arms.arms.both.attribution.milestonesDuringRecovery).toBe(0);
  });

  it('fails that test with the privileged oracle bundle, whose recoveries do the task for a policy that does nothing', async () => {
    const arms = await runGovernanceArms(plan('oracle'), { workers: 1, resamples: 200 });
    expect(arms.macro.critic.value).toBeGreaterThan(0.1);
  });
});
