// One compiled rule: guards, condition, dwell, cooldown and a fixed proposal object. `step` is the
// per-step hot path: it evaluates closures over feature slots and updates two counters.
import type { Proposal } from './proposal.js';
import { FALSE, UNKNOWN, compare, type CompiledCondition, type CondFn } from './truth.js';

/** What a rule did on a step (`TemporalCritic.result.status[i]`). */
export const RULE_INACTIVE = 0; // a guard is false: temporal state was reset
export const RULE_CLEAR = 1; // active, condition false
export const RULE_HOLDING = 2; // condition true, dwell not yet reached
export const RULE_FIRED = 3; // proposed this step
export const RULE_COOLDOWN = 4; // would have fired, but is cooling down
export const RULE_UNKNOWN = 5; // a guard or the condition read NaN: reported, never fired
export type RuleStatus = 0 | 1 | 2 | 3 | 4 | 5;

export const RULE_STATUS_NAMES = ['inactive', 'clear', 'holding', 'fired', 'cooldown', 'unknown'] as const;

export class CompiledRule {
  /** Margin of the condition on the last step (NaN when inactive or unknown); see truth.ts. */
  margin = Number.NaN;
  private dwellCount = 0;
  private cooldownLeft = 0;
  private active = false;
  // Guards as parallel arrays: comparisons inline from data, anything else through its closure.
  private readonly guardFns: readonly (CondFn | null)[];
  private readonly guardOps: Int32Array;
  private readonly guardSlots: Int32Array;
  private readonly guardTs: Float64Array;
  private readonly whenFn: CondFn;
  /** The condition is one comparison: evaluated inline (op, slot, threshold), no call. */
  private readonly whenLeaf: boolean;
  private readonly whenOp: number;
  private readonly whenSlot: number;
  private readonly whenT: number;
  private readonly resets: readonly (() => void)[];
  /** Windows inside the guards: kept while the rule is inactive (they decide when it activates again), cleared only at an episode start. */
  private readonly guardResets: readonly (() => void)[];

  constructor(
    readonly index: number,
    readonly id: string,
    readonly proposal: Proposal,
    readonly dwell: number,
    readonly cooldown: number,
    guards: readonly CompiledCondition[],
    when: CompiledCondition,
    private readonly reg: Float64Array,
  ) {
    this.guardFns = guards.map((g) => (g.leaf ? null : g.fn));
    this.guardOps = Int32Array.from(guards.map((g) => g.leaf?.op ?? 0));
    this.guardSlots = Int32Array.from(guards.map((g) => g.leaf?.slot ?? 0));
    this.guardTs = Float64Array.from(guards.map((g) => g.leaf?.t ?? 0));
    this.whenFn = when.fn;
    this.whenLeaf = when.leaf !== null;
    this.whenOp = when.leaf?.op ?? 0;
    this.whenSlot = when.leaf?.slot ?? 0;
    this.whenT = when.leaf?.t ?? 0;
    this.resets = when.resets;
    this.guardResets = guards.flatMap((g) => g.resets);
  }

  /** Evaluates the rule on one frame's values. */
  step(v: Float64Array): RuleStatus {
    const cooling = this.cooldownLeft > 0;
    if (cooling) this.cooldownLeft--;
    // Every guard is evaluated (a temporal guard must advance); a definite FALSE deactivates even
    // if another guard is unknown.
    let guard = 1;
    const fns = this.guardFns;
    for (let k = 0; k < fns.length; k++) {
      const f = fns[k]!;
      const s = f === null ? compare(this.guardOps[k]!, v[this.guardSlots[k]!]!, this.guardTs[k]!, this.reg) : f(v);
      if (s === FALSE) guard = FALSE;
      else if (s === UNKNOWN && guard !== FALSE) guard = UNKNOWN;
    }
    if (guard !== 1) {
      this.deactivate();
      return guard === FALSE ? RULE_INACTIVE : RULE_UNKNOWN;
    }
    this.active = true;
    const s = this.whenLeaf ? compare(this.whenOp, v[this.whenSlot]!, this.whenT, this.reg) : this.whenFn(v);
    this.margin = this.reg[0]!;
    if (s !== 1) {
      this.dwellCount = 0; // an unknown step breaks the run of consecutive holds, like a false one
      return s === FALSE ? RULE_CLEAR : RULE_UNKNOWN;
    }
    this.dwellCount++;
    if (this.dwellCount < this.dwell) return RULE_HOLDING;
    if (cooling) return RULE_COOLDOWN;
    this.dwellCount = 0;
    this.cooldownLeft = this.cooldown;
    return RULE_FIRED;
  }

  /** Start of an episode: every window (the guards' too), dwell and cooldown starts over. */
  reset(): void {
    this.active = true; // force the resets to run
    this.deactivate();
    this.cooldownLeft = 0;
    for (let k = 0; k < this.guardResets.length; k++) this.guardResets[k]!();
  }

  /** A false guard: temporal windows and dwell start over (cooldown does not: it rate-limits). */
  private deactivate(): void {
    this.margin = Number.NaN;
    this.dwellCount = 0;
    if (!this.active) return;
    this.active = false;
    for (let k = 0; k < this.resets.length; k++) this.resets[k]!();
  }
}
