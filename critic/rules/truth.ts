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

export const FALSE = 0;
export const TRUE = 1;
export const UNKNOWN = 2;
export type Truth = typeof FALSE | typeof TRUE | typeof UNKNOWN;

export type CondFn = (values: Float64Array) => Truth;

/** Per-compile shared state: the margin register and the reset hooks of temporal nodes. */
export interface CondContext {
  /** `reg[0]`: the margin of the condition evaluated last. */
  readonly reg: Float64Array;
  /** Whether privileged features may be read (the run authorizes them). */
  readonly privileged: boolean;
}

/** A compiled condition plus the hooks that clear its temporal state (ring buffers). */
export interface CompiledCondition {
  readonly fn: CondFn;
  readonly resets: readonly (() => void)[];
}
