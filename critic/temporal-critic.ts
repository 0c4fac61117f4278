// The TemporalCritic evaluates every compiled rule on a frame, once per control step, and reports
// what the rules propose. It never acts: the governor decides, the envelope limits, the env steps.
//
// Hot path: no allocation, no await. The result object and its arrays are allocated once and
// overwritten by every `evaluate`; copy what you need before the next call.
import type { FeatureFrame } from './features/frame.js';
import { RULE_CLEAR, RULE_INACTIVE } from './rules/compiled-rule.js';
import type { RuleSet } from './rules/compile.js';
import type { Proposal } from './rules/proposal.js';

export interface CriticResult {
  /** `proposals[0 .. count)` fired this step, in rule order. Entries past `count` are stale. */
  readonly proposals: Proposal[];
  count: number;
  /** Per rule: RULE_INACTIVE | RULE_CLEAR | RULE_HOLDING | RULE_FIRED | RULE_COOLDOWN | RULE_UNKNOWN. */
  readonly status: Uint8Array;
  /** Per rule: robustness margin of its condition (NaN when inactive or unknown). */
  readonly margins: Float64Array;
  /** `nanRules[0 .. nanCount)`: indices of rules that read NaN and could not decide (not fired). */
  readonly nanRules: Int32Array;
  nanCount: number;
  /** Steps evaluated since the last reset (the first evaluate sets it to 1). */
  steps: number;
}

export class TemporalCritic {
  readonly result: CriticResult;

  constructor(readonly ruleSet: RuleSet) {
    this.result = {
      // Filled with real proposals so the array stays packed (no holes, one element kind).
      proposals: ruleSet.rules.map((r) => r.proposal),
      count: 0,
      // The table's own arrays (views of its storage), written in place by every evaluate.
      status: ruleSet.table.status,
      margins: ruleSet.table.margins,
      nanRules: ruleSet.table.nanRules,
      nanCount: 0,
      steps: 0,
    };
  }

  /** Evaluates all rules on this step's frame (or its values, e.g. a recorded frame). */
  evaluate(frame: FeatureFrame | Float64Array): CriticResult {
    const v = frame instanceof Float64Array ? frame : frame.values;
    const r = this.result;
    this.ruleSet.table.evaluate(v, r); // status, margins, proposals and NaN list, in rule order
    r.steps++;
    return r;
  }

  /**
   * The re-entry contract's "failure evidence is cleared": on the last evaluated step, rule
   * `ruleIndex` was inactive (a guard false) or its condition was definitely false. Unknown is not
   * clear, and neither is holding or cooling down.
   */
  isClear(ruleIndex: number): boolean {
    const s = this.result.status[ruleIndex];
    return s === RULE_INACTIVE || s === RULE_CLEAR;
  }

  /** Start of an episode: clears every rule's windows (its guards' included), dwell and cooldown. */
  reset(): void {
    this.ruleSet.table.reset();
    const r = this.result;
    r.count = r.nanCount = r.steps = 0;
    r.status.fill(RULE_INACTIVE);
    r.margins.fill(Number.NaN);
  }
}
