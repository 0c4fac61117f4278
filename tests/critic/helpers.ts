// Shared test helpers: frames from a few named values, and rule sets from a few rules.
import { FeatureFrame } from '../../critic/features/frame.js';
import { loadRules, type RuleSet } from '../../critic/rules/compile.js';
import type { Condition, RuleInput } from '../../critic/rules/schema.js';
import { TemporalCritic } from '../../critic/temporal-critic.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

export const RECOVERIES = ['regrasp', 'lift_clear', 'reopen'];

/** A frame whose named features have these values; every other feature is NaN. */
export function frameOf(values: Record<string, number | boolean>): FeatureFrame {
  const f = new FeatureFrame(TABLETOP_LAYOUT);
  for (const [k, v] of Object.entries(values)) f.set(k, v);
  return f;
}

export function ruleSet(rules: RuleInput[], privileged = true): RuleSet {
  return loadRules({ rules }, { layout: TABLETOP_LAYOUT, privileged, knownRecoveries: RECOVERIES });
}

/** A critic with one rule `r` firing `hold` when `when` holds. */
export function oneRule(when: Condition, extra: Partial<RuleInput> = {}): TemporalCritic {
  return new TemporalCritic(ruleSet([{ id: 'r', when, propose: { action: 'hold' }, ...extra }]));
}

/**
 * Runs a one-rule critic over a sequence of values of feature `name` and returns, per step,
 * [status, margin].
 */
export function run(critic: TemporalCritic, name: string, xs: readonly number[], others: Record<string, number> = {}): [number, number][] {
  const frame = frameOf(others);
  return xs.map((x) => {
    frame.set(name, x);
    const r = critic.evaluate(frame);
    return [r.status[0]!, r.margins[0]!];
  });
}
