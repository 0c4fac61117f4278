// The closures of and / or / not over compiled parts, in Kleene logic (truth.ts). Every part is
// evaluated on every step, never short-circuited: a temporal part must advance. Comparison parts
// are evaluated inline from (op, slot, threshold), the others through their closure.
import { FALSE, TRUE, UNKNOWN, compare, type CompiledNode, type CondFn } from './truth.js';

/** Parts as parallel arrays: `fns[k]` null for a comparison, read from `ops`, `slots`, `ts`. */
function unpack(parts: readonly CompiledNode[]) {
  return {
    n: parts.length,
    fns: parts.map((p) => (p.leaf ? null : p.fn)),
    ops: Int32Array.from(parts.map((p) => p.leaf?.op ?? 0)),
    slots: Int32Array.from(parts.map((p) => p.leaf?.slot ?? 0)),
    ts: Float64Array.from(parts.map((p) => p.leaf?.t ?? 0)),
  };
}

/** Kleene and. Margin: max of the known parts. */
export function and(parts: readonly CompiledNode[], reg: Float64Array): CondFn {
  const { n, fns, ops, slots, ts } = unpack(parts);
  return (v) => {
    let anyFalse = false,
      anyUnknown = false,
      m = -Infinity;
    for (let k = 0; k < n; k++) {
      const f = fns[k]!;
      const s = f === null ? compare(ops[k]!, v[slots[k]!]!, ts[k]!, reg) : f(v);
      if (s === UNKNOWN) {
        anyUnknown = true;
        continue;
      }
      if (s === FALSE) anyFalse = true;
      if (reg[0]! > m) m = reg[0]!;
    }
    if (!anyFalse && anyUnknown) {
      reg[0] = Number.NaN;
      return UNKNOWN;
    }
    reg[0] = m;
    return anyFalse ? FALSE : TRUE;
  };
}

/** Kleene or. Margin: min of the known parts. */
export function or(parts: readonly CompiledNode[], reg: Float64Array): CondFn {
  const { n, fns, ops, slots, ts } = unpack(parts);
  return (v) => {
    let anyTrue = false,
      anyUnknown = false,
      m = Infinity;
    for (let k = 0; k < n; k++) {
      const f = fns[k]!;
      const s = f === null ? compare(ops[k]!, v[slots[k]!]!, ts[k]!, reg) : f(v);
      if (s === UNKNOWN) {
        anyUnknown = true;
        continue;
      }
      if (s === TRUE) anyTrue = true;
      if (reg[0]! < m) m = reg[0]!;
    }
    if (!anyTrue && anyUnknown) {
      reg[0] = Number.NaN;
      return UNKNOWN;
    }
    reg[0] = m;
    return anyTrue ? TRUE : FALSE;
  };
}

/** Kleene not. Margin: negated. */
export function not(part: CondFn, reg: Float64Array): CondFn {
  return (v) => {
    const s = part(v);
    if (s === UNKNOWN) return UNKNOWN; // reg[0] is already NaN
    reg[0] = -reg[0]!;
    return s === TRUE ? FALSE : TRUE;
  };
}
