// The default bundle's `hand_closed_empty` rule in the real simulator with the frozen embedded
// policy: under sensor noise and actuation delay the policy sometimes closes its hand early, above
// or beside the object, and carries on with empty closed fingers. On a task whose goal pushes
// nothing, the rule opens the hand and re-centres above the object; the policy grasps again. Three
// arms at the same seeds, the same bundle without the rule as the control that shows the test can
// fail, and a fixture task where the policy closes its hand to push, on which the rule must stay
// silent. Seeded: counts are fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBundleWithout } from '../support/default-bundle.js';
import { armsFiring } from '../support/rule-arms.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-closed-empty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULE = 'hand_closed_empty';
/**
 * Left out of both bundles compared, so the test measures this rule: it damps the policy's motion
 * after each of this rule's re-centres, and its clamps count against the policy's share.
 */
const SETTLE = 'settle_above_object';

const arms = (critic: string, perturbation: string, tasks: readonly string[], controls?: readonly string[]) =>
  armsFiring(RULE, critic, perturbation, tasks, controls);

describe('a hand closed on nothing, with the default (observable) bundle', () => {
  it('is opened above the object on a pick-and-place task: more successes than without the rule, the critic alone under its cap', async () => {
    const tasks = ['object/yellow_cube_in_bowl', 'object/green_cube_in_bowl'];
    const withRule = await arms(defaultBundleWithout(dir, SETTLE), 'sensor-noise-delay', tasks);
    const without = await arms(defaultBundleWithout(dir, SETTLE, RULE), 'sensor-noise-delay', tasks, ['null:closed']);
    expect(withRule.firedInBoth).toBeGreaterThan(0);
    expect(withRule.result.macro.critic.value).toBeLessThanOrEqual(0.1);
    const both = withRule.result.arms.both;
    expect(both.macroSuccess).toBeGreaterThan(without.result.arms.both.macroSuccess);
    expect(withRule.result.macro.synergy.value).toBeGreaterThan(0);
    expect(both.attribution.unmodifiedPolicyShareInSuccesses).toBeGreaterThanOrEqual(0.6);
  }, 400_000);

  it('stays silent where the goal names a drawer: the policy closes its hand to push it', async () => {
    const { firedInBoth } = await arms('default', 'position-shift', ['long/red_cube_in_drawer_and_close'], ['null:closed']);
    expect(firedInBoth).toBe(0);
  }, 300_000);
});
