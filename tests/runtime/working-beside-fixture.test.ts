// The default bundle's `working_beside_fixture` rule in the real simulator with the frozen embedded
// policy: with the objects of the scene swapped, the policy sometimes presses the table a few
// centimetres from the button and keeps at it. The rule lifts the hand back above the button, where
// the policy's approach starts, and the policy presses it itself. Three arms at the same seeds, the
// same bundle without the rule as the control that shows the test can fail, and a nominal drawer
// opening, whose pull drags the hand along the handle, on which the rule must stay silent. Seeded:
// counts are fixed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultBundleWithout } from '../support/default-bundle.js';
import { armsFiring, expectRuleHelps } from '../support/rule-arms.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-beside-fixture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RULE = 'working_beside_fixture';

const arms = (critic: string, perturbation: string, tasks: readonly string[], controls?: readonly string[]) =>
  armsFiring(RULE, critic, perturbation, tasks, controls);

describe('a hand working beside the fixture the goal names, with the default (observable) bundle', () => {
  it('is brought back above the button: more presses than without the rule or alone, the critic alone under its cap', async () => {
    const tasks = ['goal/press_button'];
    const withRule = await arms('default', 'position-swap', tasks);
    const without = await arms(defaultBundleWithout(dir, RULE), 'position-swap', tasks, ['null:closed']);
    expectRuleHelps(withRule, without);
    // The recovery stops above the reach of `button.reached`: the press, and the reach, are the policy's.
    expect(withRule.result.arms.both.attribution.milestonesDuringRecovery).toBe(0);
  }, 400_000);

  it('stays silent while the policy pulls a drawer open by its handle', async () => {
    const { result, firedInBoth } = await arms('default', 'nominal', ['goal/open_drawer'], ['null:closed']);
    expect(firedInBoth).toBe(0);
    expect(result.arms.both.macroSuccess).toBe(result.arms.policy.macroSuccess);
  }, 300_000);
});
