// Which rules the table evaluates. A rule qualifies when every guard is a comparison and its
// condition is built from comparisons, and/or/not, stagnant, rising/falling, and always/eventually
// over a condition without temporal nodes. Anything else (a temporal guard, a window over a
// temporal condition) keeps running through its CompiledRule closures.
import type { Condition, RuleSpec } from '../schema.js';
import { NEGATED_OP, OP_EQ, OP_GE, OP_GT, OP_LE, OP_LT, OP_NE } from '../truth.js';

/** One comparison of a feature slot with a threshold (op codes of truth.ts). */
export interface Comparison {
  op: number;
  slot: number;
  t: number;
}

const OPS: Record<string, number> = { lt: OP_LT, le: OP_LE, gt: OP_GT, ge: OP_GE, eq: OP_EQ, ne: OP_NE };

/** A feature's slot in the frame layout the rules were compiled against. */
export type SlotOf = (feature: string) => number;
/** For shape checks, where the slot does not matter. */
const NO_SLOT: SlotOf = () => -1;

/** A comparison, with `not` folded in (not(x < t) is x ≥ t); null if the condition is not one. */
export function asComparison(c: Condition, slotOf: SlotOf = NO_SLOT): Comparison | null {
  if (c.op === 'not') {
    const l = asComparison(c.arg, slotOf);
    return l && { op: NEGATED_OP[l.op]!, slot: l.slot, t: l.t };
  }
  if (c.op === 'and' || c.op === 'or') return c.args.length === 1 ? asComparison(c.args[0]!, slotOf) : null;
  const op = OPS[c.op];
  return op === undefined || !('value' in c) ? null : { op, slot: slotOf(c.feature), t: c.value };
}

/** Identity of a comparison, for deduplication. (−0 is kept apart from 0: margins keep its sign.) */
export function comparisonKey(l: Comparison): string {
  return `${l.op}|${l.slot}|${Object.is(l.t, -0) ? '-0' : l.t}`;
}

/** Can the table evaluate this condition? `pure`: no temporal node inside. */
function shape(c: Condition): 'pure' | 'temporal' | null {
  if (asComparison(c)) return 'pure';
  switch (c.op) {
    case 'stagnant':
    case 'rising':
    case 'falling':
      return 'temporal';
    case 'always':
    case 'eventually':
      return shape(c.cond) === 'pure' ? 'temporal' : null;
    case 'not':
      return shape(c.arg);
    case 'and':
    case 'or': {
      let out: 'pure' | 'temporal' = 'pure';
      for (const a of c.args) {
        const s = shape(a);
        if (s === null) return null;
        if (s === 'temporal') out = 'temporal';
      }
      return out;
    }
    default:
      return null;
  }
}

/** Whether the table evaluates this rule (else its closures run, in its place). */
export function tableEligible(s: RuleSpec): boolean {
  return s.guards.every((g) => asComparison(g) !== null) && shape(s.when) !== null;
}
