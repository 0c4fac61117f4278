// Which rules the table evaluates. A rule qualifies when every guard is a comparison and its
// condition is built from comparisons, and/or/not, stagnant, rising/falling, and always/eventually
// over a condition without temporal nodes. Anything else (a temporal guard, a window over a
// temporal condition) keeps running through its CompiledRule closures. Each op says which it is
// (its definition's `table`, ops/).
import { opOf, type Condition, type TableShape } from '../ops/index.js';
import type { RuleSpec } from '../schema.js';

/** One comparison of a feature slot with a threshold (op codes of truth.ts). */
export interface Comparison {
  op: number;
  slot: number;
  t: number;
}

/** A feature's slot in the frame layout the rules were compiled against. */
export type SlotOf = (feature: string) => number;
/** For shape checks, where the slot does not matter. */
const NO_SLOT: SlotOf = () => -1;

/** A comparison, with `not` folded in (not(x < t) is x ≥ t); null if the condition is not one. */
export function asComparison(c: Condition, slotOf: SlotOf = NO_SLOT): Comparison | null {
  return opOf(c).table.comparison(c, { slotOf, comparison: (sub) => asComparison(sub, slotOf) });
}

/** Identity of a comparison, for deduplication. (−0 is kept apart from 0: margins keep its sign.) */
export function comparisonKey(l: Comparison): string {
  return `${l.op}|${l.slot}|${Object.is(l.t, -0) ? '-0' : l.t}`;
}

/** Can the table evaluate this condition? `pure`: no temporal node inside; null: it cannot. */
function shape(c: Condition): TableShape | null {
  return asComparison(c) ? 'pure' : opOf(c).table.shape(c, shape);
}

/** Whether the table evaluates this rule (else its closures run, in its place). */
export function tableEligible(s: RuleSpec): boolean {
  return s.guards.every((g) => asComparison(g) !== null) && shape(s.when) !== null;
}
