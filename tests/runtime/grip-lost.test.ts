// The default bundle's `grip_lost` rule in the real simulator with the frozen embedded policy: under
// the disturbance perturbation the object is often knocked out of a closed hand just after the
// grasp, and the policy carries on with an empty gripper. Re-centring above the object hands the
// grasp back to the policy. Three arms at the same seeds, and the same bundle without the rule as
// the control that shows the test can fail. Both bundles leave out `hand_closed_empty`, which
// re-centres any empty closed hand on such tasks after 5 steps (grip_lost after 2, and only after a
// grasp): with it in both, the control already recovers most of these grips (synergy 0.50 against
// 0.56 with grip_lost), and the test would measure the two rules' overlap, not this one's repair.
// Seeded: counts are fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runGovernanceArms } from '../../measure/governance-arms.js';
import { embeddedArmsPlan } from '../support/arms-plan.js';
import { defaultBundleWithout } from '../support/default-bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-grip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plan = (critic: string) =>
  embeddedArmsPlan({
    critic,
    perturbation: 'disturbance',
    tasks: ['object/green_cube_in_bowl', 'spatial/right_cube_on_plate'],
    episodesPerTask: 8,
  });

describe('a grip lost to a disturbance, with the default (observable) bundle', () => {
  it('is handed back to the policy: policy + critic beats both arms alone, and beats the bundle without the rule', async () => {
    const arms = await runGovernanceArms(plan(defaultBundleWithout(dir, 'hand_closed_empty')), { workers: 1, resamples: 200 });
    const without = await runGovernanceArms(plan(defaultBundleWithout(dir, 'hand_closed_empty', 'grip_lost')), {
      workers: 1,
      resamples: 200,
    });
    expect(arms.macro.critic.value).toBeLessThanOrEqual(0.1);
    for (const task of arms.tasks) {
      const t = arms.perTask[task]!;
      expect(t.both.value, task).toBeGreaterThan(Math.max(t.policy.value, t.critic.value));
    }
    expect(arms.macro.synergy.value).toBeGreaterThan(without.macro.synergy.value + 0.15);
    expect(arms.arms.both.attribution.unmodifiedPolicyShareInSuccesses).toBeGreaterThanOrEqual(0.6);
  }, 300_000); // six arms of 16 simulated episodes: minutes when both cores are busy
});
