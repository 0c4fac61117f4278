// The default bundle's `releasing_off_target` rule in the real simulator with the frozen embedded
// policy: under sensor noise and actuation delay the policy sometimes opens its hand on the object
// it carries well away from where the object goes. The rule keeps the gripper closed, lifts the
// object clear and hands back; the policy carries it on and releases it itself. Three arms at the
// same seeds, and the same bundle without the rule as the control that shows the test can fail.
// Both leave out `hand_closed_empty`: its re-centring under noise sometimes comes within the
// `reached` milestone's 3 cm, and those milestones, not this rule's, would make the two arms'
// counts of task work differ. Both leave out `settle_above_object` too: holding the hand above the
// object after a re-centre, it recovers on these two tasks what this rule does (9 of 20 with or
// without this rule). Seeded: counts are fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBundleWithout } from '../support/default-bundle.js';
import { armsFiring } from '../support/rule-arms.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULE = 'releasing_off_target';

const arms = (critic: string, controls?: readonly string[]) =>
  armsFiring(RULE, critic, 'sensor-noise-delay', ['goal/red_cube_in_bowl', 'object/yellow_cube_in_bowl'], controls);

describe('an object released off its target, with the default (observable) bundle', () => {
  it('is kept in hand and handed back: more successes than the bundle without the rule, no task work, the critic alone under its cap', async () => {
    const withRule = await arms(defaultBundleWithout(dir, 'hand_closed_empty', 'settle_above_object'));
    // the control bundle's both arm is what is compared; one trivial control is enough for it
    const without = await arms(defaultBundleWithout(dir, 'hand_closed_empty', 'settle_above_object', RULE), ['null:closed']);
    expect(withRule.firedInBoth).toBeGreaterThan(0);
    expect(withRule.result.macro.critic.value).toBeLessThanOrEqual(0.1);
    const both = withRule.result.arms.both;
    expect(both.macroSuccess).toBeGreaterThan(without.result.arms.both.macroSuccess);
    expect(withRule.result.macro.synergy.value).toBeGreaterThan(0);
    // lifting a held object reaches no milestone of its own: the policy transports and places it
    expect(both.attribution.milestonesDuringRecovery).toBeLessThanOrEqual(without.result.arms.both.attribution.milestonesDuringRecovery);
    expect(both.attribution.unmodifiedPolicyShareInSuccesses).toBeGreaterThanOrEqual(0.6);
  }, 300_000);
});
