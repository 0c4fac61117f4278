// Three-valued truth for compiled conditions, and the calling convention they share.
//
// A compiled condition is a closure `(values: Float64Array) => Truth`: it reads feature slots by
// index, returns FALSE / TRUE / UNKNOWN, and leaves its robustness margin in `reg[0]` of the register
// its compile context owns (a one-slot Float64Array, so returning two numbers allocates nothing).
//
// Margin convention: signed distance from firing, in the feature's units. Positive = how far the
// condition is from holding; ≤ 0 = holding (with 0 the boundary of strict comparisons). NaN when
// UNKNOWN; +Infinity when a windowed condition has too little history to hold yet.
//
// UNKNOWN comes from NaN features (missing this step). It follows Kleene logic: `and` is FALSE if
// any part is FALSE, `or` is TRUE if any part is TRUE, otherwise UNKNOWN wins; `not UNKNOWN` is
// UNKNOWN. So a NaN can never make a rule fire: only known parts decide.
import type { FeatureLayout } from '../features/layout.js';

export const FALSE = 0;
export const TRUE = 1;
export const UNKNOWN = 2;
export type Truth = typeof FALSE | typeof TRUE | typeof UNKNOWN;

export type CondFn = (values: Float64Array) => Truth;

/** Per-compile shared state: the margin register and the reset hooks of temporal nodes. */
export interface CondContext {
  /** `reg[0]`: the margin of the condition evaluated last. */
  readonly reg: Float64Array;
  /** Where each feature sits in the frame (the critic's and the world's). */
  readonly layout: FeatureLayout;
  /** Whether privileged features may be read (the bundle declares them and the run authorizes them). */
  readonly privileged: boolean;
}

/** A compiled node of a condition: its closure, and its comparison as data when it is one. */
export interface CompiledNode {
  readonly fn: CondFn;
  readonly leaf: Leaf | null;
}

/** A compiled condition plus the hooks that clear its temporal state (ring buffers). */
export interface CompiledCondition {
  readonly fn: CondFn;
  /** Set when the condition is a single comparison, so a parent can evaluate it inline. */
  readonly leaf: Leaf | null;
  readonly resets: readonly (() => void)[];
}

/** Comparison op codes, so a comparison can be evaluated inline from data (see `compare`). */
export const OP_LT = 0;
export const OP_LE = 1;
export const OP_GT = 2;
export const OP_GE = 3;
export const OP_EQ = 4;
export const OP_NE = 5;
/** `not` of a comparison is the opposite comparison (margin negated): lt↔ge, le↔gt, eq↔ne. */
export const NEGATED_OP = [OP_GE, OP_GT, OP_LE, OP_LT, OP_NE, OP_EQ] as const;

/**
 * A comparison as data. Parents (and/or, windows, rule guards) evaluate leaves inline with
 * `compare` instead of calling a closure per leaf: most conditions are mostly comparisons, and a
 * call through a shared call site cannot be inlined.
 */
export interface Leaf {
  readonly op: number;
  readonly slot: number;
  readonly t: number;
}

/** One comparison: NaN is UNKNOWN; the margin is left in reg[0]. Small enough to be inlined. */
export function compare(op: number, x: number, t: number, reg: Float64Array): Truth {
  if (x !== x) {
    reg[0] = Number.NaN;
    return UNKNOWN;
  }
  switch (op) {
    case OP_LT:
      reg[0] = x - t;
      return x < t ? TRUE : FALSE;
    case OP_LE:
      reg[0] = x - t;
      return x <= t ? TRUE : FALSE;
    case OP_GT:
      reg[0] = t - x;
      return x > t ? TRUE : FALSE;
    case OP_GE:
      reg[0] = t - x;
      return x >= t ? TRUE : FALSE;
    case OP_EQ:
      reg[0] = Math.abs(x - t);
      return x === t ? TRUE : FALSE;
    default:
      reg[0] = -Math.abs(x - t);
      return x !== t ? TRUE : FALSE;
  }
}
