// Temporal operators over a window of steps, each with its own ring buffer allocated once at compile
// time. Windows are short (tens of steps), so a linear scan per step is cheaper and simpler than a
// monotonic deque, and allocates nothing. Every operator is advanced on every evaluation, so a parent
// `and`/`or` never short-circuits (that would leave holes in the history).
import { FALSE, TRUE, UNKNOWN, type CondFn, type Truth } from './truth.js';

export interface TemporalNode {
  readonly fn: CondFn;
  readonly reset: () => void;
}

/** max − min of a feature over the last `window` steps below `eps`. Margin: (max − min) − eps. */
export function stagnant(slot: number, window: number, eps: number, reg: Float64Array): TemporalNode {
  const ring = new Float64Array(window);
  let head = 0;
  let count = 0;
  const fn: CondFn = (v) => {
    ring[head] = v[slot]!;
    head = head + 1 === window ? 0 : head + 1;
    if (count < window) count++;
    let lo = Infinity, hi = -Infinity, nan = false;
    for (let i = 0; i < count; i++) {
      const x = ring[i]!;
      if (x !== x) nan = true;
      else {
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
    if (nan) {
      reg[0] = Number.NaN;
      return UNKNOWN;
    }
    if (count < window) {
      reg[0] = Infinity;
      return FALSE;
    }
    const m = hi - lo - eps;
    reg[0] = m;
    return m < 0 ? TRUE : FALSE;
  };
  return { fn, reset: () => void (head = count = 0) };
}

/**
 * Net change over the last `window` steps, x_t − x_{t−window}, above `by` (rising) or below −`by`
 * (falling). Only the two ends matter, so a noisy middle does not. Margin: by − change.
 */
export function trend(slot: number, window: number, by: number, rising: boolean, reg: Float64Array): TemporalNode {
  const size = window + 1; // x_t and x_{t−window} both inside
  const ring = new Float64Array(size);
  let head = 0;
  let count = 0;
  const sign = rising ? 1 : -1;
  const fn: CondFn = (v) => {
    const x = v[slot]!;
    ring[head] = x;
    head = head + 1 === size ? 0 : head + 1;
    if (count < size) count++;
    if (x !== x) {
      reg[0] = Number.NaN;
      return UNKNOWN;
    }
    if (count < size) {
      reg[0] = Infinity;
      return FALSE;
    }
    const oldest = ring[head]!; // when full, head points at the oldest entry
    if (oldest !== oldest) {
      reg[0] = Number.NaN;
      return UNKNOWN;
    }
    const m = by - sign * (x - oldest);
    reg[0] = m;
    return m < 0 ? TRUE : FALSE;
  };
  return { fn, reset: () => void (head = count = 0) };
}

/**
 * `always`: the sub-condition held at each of the last `window` steps (FALSE until that much history
 * exists, margin +Infinity); margin = the largest sub-margin in the window.
 * `eventually`: it held at least once in the last `window` steps; margin = the smallest sub-margin.
 */
export function windowed(sub: CondFn, window: number, always: boolean, reg: Float64Array): TemporalNode {
  const states = new Uint8Array(window);
  const margins = new Float64Array(window);
  let head = 0;
  let count = 0;
  const fn: CondFn = (v) => {
    states[head] = sub(v);
    margins[head] = reg[0]!;
    head = head + 1 === window ? 0 : head + 1;
    if (count < window) count++;
    return always ? alwaysOf(states, margins, count, window, reg) : eventuallyOf(states, margins, count, reg);
  };
  return { fn, reset: () => void (head = count = 0) };
}

function alwaysOf(states: Uint8Array, margins: Float64Array, count: number, window: number, reg: Float64Array): Truth {
  let anyFalse = false, anyUnknown = false, m = -Infinity;
  for (let i = 0; i < count; i++) {
    const s = states[i]!;
    if (s === UNKNOWN) {
      anyUnknown = true;
      continue;
    }
    if (s === FALSE) anyFalse = true;
    if (margins[i]! > m) m = margins[i]!;
  }
  if (anyFalse) {
    reg[0] = m;
    return FALSE;
  }
  if (anyUnknown) {
    reg[0] = Number.NaN;
    return UNKNOWN;
  }
  reg[0] = count < window ? Infinity : m;
  return count < window ? FALSE : TRUE;
}

function eventuallyOf(states: Uint8Array, margins: Float64Array, count: number, reg: Float64Array): Truth {
  let anyTrue = false, anyUnknown = false, m = Infinity;
  for (let i = 0; i < count; i++) {
    const s = states[i]!;
    if (s === UNKNOWN) {
      anyUnknown = true;
      continue;
    }
    if (s === TRUE) anyTrue = true;
    if (margins[i]! < m) m = margins[i]!;
  }
  if (anyTrue) {
    reg[0] = m;
    return TRUE;
  }
  if (anyUnknown) {
    reg[0] = Number.NaN;
    return UNKNOWN;
  }
  reg[0] = m;
  return FALSE;
}
