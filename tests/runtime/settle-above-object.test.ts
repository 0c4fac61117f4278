// The default bundle's `settle_above_object` rule in the real simulator with the frozen embedded
// policy: with the objects shifted, a re-centre leaves the open hand right above the object, and the
// policy drifts back towards where it learned the object stands, then closes beside it. For a few
// steps after a recovery, while the hand is still above the object, the rule damps the policy's
// horizontal motion (a clamp on dx, dy only): the policy's own descent and grasp happen there. Three
// arms at the same seeds, and the same bundle without the rule as the control that shows the test
// can fail. Seeded: counts are fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBundleWithout } from '../support/default-bundle.js';
import { armsFiring, expectRuleHelps } from '../support/rule-arms.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-settle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULE = 'settle_above_object';
const TASKS = ['long/both_cubes_in_bowl', 'object/blue_cylinder_in_bowl'];

describe('a hand re-centred above the object, with the default (observable) bundle', () => {
  it('is held above it while the policy descends: more successes than without the rule, no task work, the critic alone under its cap', async () => {
    const withRule = await armsFiring(RULE, 'default', 'position-shift', TASKS);
    const without = await armsFiring(RULE, defaultBundleWithout(dir, RULE), 'position-shift', TASKS, ['null:closed']);
    expectRuleHelps(withRule, without);
    expect(without.firedInBoth).toBe(0);
    const both = withRule.result.arms.both;
    // a clamp drives nothing: every milestone is reached by the policy's own (damped) motion
    expect(both.attribution.milestonesDuringRecovery).toBe(0);
    expect(both.attribution.unmodifiedPolicyShareInSuccesses).toBeGreaterThanOrEqual(0.6);
  }, 600_000);
});
