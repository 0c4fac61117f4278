// The fallback when a rule set does not fit the arenas: every rule through its CompiledRule
// closures, with the same results, in ordinary arrays.
import { RULE_FIRED, RULE_UNKNOWN, type CompiledRule } from '../compiled-rule.js';
import type { RuleTable, TableResult } from './types.js';

export function closuresOnly(rules: readonly CompiledRule[]): RuleTable {
  const status = new Uint8Array(rules.length),
    margins = new Float64Array(rules.length).fill(Number.NaN);
  const nanRules = new Int32Array(rules.length);
  return {
    size: rules.length,
    status,
    margins,
    nanRules,
    tableRules: 0,
    evaluate(v: Float64Array, r: TableResult): void {
      let count = 0,
        nan = 0;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        const s = rule.step(v);
        status[i] = s;
        margins[i] = rule.margin;
        if (s === RULE_FIRED) r.proposals[count++] = rule.proposal;
        else if (s === RULE_UNKNOWN) nanRules[nan++] = i;
      }
      r.count = count;
      r.nanCount = nan;
    },
    reset(): void {
      for (const rule of rules) rule.reset();
    },
  };
}
