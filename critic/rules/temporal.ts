// Temporal operators over a window of steps, each with its own buffers allocated once at compile
// time; a step is O(1) (counts and sliding extrema, see mono-deque.ts) and allocates nothing. Every
// operator is advanced on every evaluation, so a parent `and`/`or` never short-circuits (that would
// leave holes in the history).
import { SlidingMax } from './mono-deque.js';
import { FALSE, TRUE, UNKNOWN, compare, type CondFn, type Leaf, type Truth } from './truth.js';

export interface TemporalNode {
  readonly fn: CondFn;
  readonly reset: () => void;
}

/** max − min of a feature over the last `window` steps below `eps`. Margin: (max − min) − eps. */
export function stagnant(slot: number, window: number, eps: number, reg: Float64Array): TemporalNode {
  const hi = new SlidingMax(window + 1);
  const lo = new SlidingMax(window + 1); // of −x
  const nanAt = new Uint8Array(window); // ring: was the value at this position NaN
  const w = { head: 0, count: 0, nans: 0, seq: 0 };
  const fn: CondFn = (v) => {
    const x = v[slot]!;
    const seq = ++w.seq;
    if (w.count === window) w.nans -= nanAt[w.head]!;
    else w.count++;
    const nan = x !== x ? 1 : 0;
    nanAt[w.head] = nan;
    w.nans += nan;
    w.head = w.head + 1 === window ? 0 : w.head + 1;
    hi.expire(seq - window + 1);
    lo.expire(seq - window + 1);
    if (!nan) {
      hi.push(seq, x);
      lo.push(seq, -x);
    }
    if (w.nans > 0) {
      reg[0] = Number.NaN;
      return UNKNOWN;
    }
    if (w.count < window) {
      reg[0] = Infinity;
      return FALSE;
    }
    const m = hi.max() + lo.max() - eps; // max − min − eps
    reg[0] = m;
    return m < 0 ? TRUE : FALSE;
  };
  const reset = (): void => {
    w.head = w.count = w.nans = 0;
    hi.clear();
    lo.clear();
  };
  return { fn, reset };
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
 * Counts of FALSE / TRUE / UNKNOWN and a sliding extremum keep each step O(1).
 */
export function windowed(sub: CondFn, leaf: Leaf | null, window: number, always: boolean, reg: Float64Array): TemporalNode {
  // Mutable state in one object rather than captured `let`s: V8 reads and writes object fields of
  // a stable shape faster than mutated context slots.
  const w = { head: 0, count: 0, seq: 0, nFalse: 0, nTrue: 0, nUnknown: 0 };
  const states = new Uint8Array(window);
  const ext = new SlidingMax(window + 1); // max of margins (always) or of −margins (eventually)
  const sign = always ? 1 : -1;
  // A comparison sub-condition is evaluated inline (no call).
  const op = leaf?.op ?? 0,
    slot = leaf?.slot ?? 0,
    t = leaf?.t ?? 0,
    inline = leaf !== null;
  const fn: CondFn = (v) => {
    const s = inline ? compare(op, v[slot]!, t, reg) : sub(v);
    const m = reg[0]!;
    const seq = ++w.seq;
    if (w.count === window) {
      const old = states[w.head]!;
      if (old === FALSE) w.nFalse--;
      else if (old === TRUE) w.nTrue--;
      else w.nUnknown--;
    } else w.count++;
    states[w.head] = s;
    w.head = w.head + 1 === window ? 0 : w.head + 1;
    if (s === FALSE) w.nFalse++;
    else if (s === TRUE) w.nTrue++;
    else w.nUnknown++;
    ext.expire(seq - window + 1);
    if (s !== UNKNOWN) ext.push(seq, sign * m);
    return always ? alwaysOf(w.nFalse, w.nUnknown, w.count < window, ext.max(), reg) : eventuallyOf(w.nTrue, w.nUnknown, -ext.max(), reg);
  };
  const reset = (): void => {
    w.head = w.count = w.nFalse = w.nTrue = w.nUnknown = 0;
    ext.clear();
  };
  return { fn, reset };
}

function alwaysOf(nFalse: number, nUnknown: number, short: boolean, maxMargin: number, reg: Float64Array): Truth {
  if (nFalse > 0) {
    reg[0] = maxMargin;
    return FALSE;
  }
  if (nUnknown > 0) {
    reg[0] = Number.NaN;
    return UNKNOWN;
  }
  reg[0] = short ? Infinity : maxMargin;
  return short ? FALSE : TRUE;
}

function eventuallyOf(nTrue: number, nUnknown: number, minMargin: number, reg: Float64Array): Truth {
  if (nTrue > 0) {
    reg[0] = minMargin;
    return TRUE;
  }
  if (nUnknown > 0) {
    reg[0] = Number.NaN;
    return UNKNOWN;
  }
  reg[0] = minMargin;
  return FALSE;
}
