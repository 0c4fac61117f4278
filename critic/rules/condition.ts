// Compiles a condition (data, already validated by zod) into a closure over feature slots. Feature
// names are resolved here, once; an unknown or unauthorized feature is an error naming its path.
// Rules, guards and recovery stop conditions all compile through this one function.
import { CriticLoadError, type JsonPath } from '../errors.js';
import { featureIndex, isPrivileged } from '../features/registry.js';
import type { ComparisonOp, Condition } from './schema.js';
import { stagnant, trend, windowed } from './temporal.js';
import { FALSE, TRUE, UNKNOWN, type CompiledCondition, type CondContext, type CondFn } from './truth.js';

/** Slot of a feature a condition or tool reads; throws a CriticLoadError naming `path`. */
export function resolveFeature(name: string, path: JsonPath, ctx: { readonly privileged: boolean }, file?: string): number {
  const slot = featureIndex(name);
  if (slot < 0) throw new CriticLoadError(path, `unknown feature "${name}"`, file);
  if (isPrivileged(name) && !ctx.privileged) {
    throw new CriticLoadError(path, `privileged feature "${name}" is not authorized for this run`, file);
  }
  return slot;
}

export function compileCondition(cond: Condition, path: JsonPath, ctx: CondContext, file?: string): CompiledCondition {
  const resets: (() => void)[] = [];
  const fn = compileNode(cond, path, ctx, resets, file);
  return { fn, resets };
}

function compileNode(c: Condition, path: JsonPath, ctx: CondContext, resets: (() => void)[], file?: string): CondFn {
  const reg = ctx.reg;
  switch (c.op) {
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge':
    case 'eq':
    case 'ne':
      return comparison(c.op, resolveFeature(c.feature, [...path, 'feature'], ctx, file), c.value, reg);
    case 'stagnant':
      return track(resets, stagnant(resolveFeature(c.feature, [...path, 'feature'], ctx, file), c.window, c.eps, reg));
    case 'rising':
    case 'falling': {
      const slot = resolveFeature(c.feature, [...path, 'feature'], ctx, file);
      return track(resets, trend(slot, c.window, c.by ?? 0, c.op === 'rising', reg));
    }
    case 'always':
    case 'eventually': {
      const sub = compileNode(c.cond, [...path, 'cond'], ctx, resets, file);
      return track(resets, windowed(sub, c.window, c.op === 'always', reg));
    }
    case 'and':
    case 'or': {
      const parts = c.args.map((a, i) => compileNode(a, [...path, 'args', i], ctx, resets, file));
      return c.op === 'and' ? and(parts, reg) : or(parts, reg);
    }
    case 'not':
      return not(compileNode(c.arg, [...path, 'arg'], ctx, resets, file), reg);
  }
}

function track(resets: (() => void)[], node: { fn: CondFn; reset: () => void }): CondFn {
  resets.push(node.reset);
  return node.fn;
}

/** One closure per operator, so the hot path has no switch; NaN (x !== x) is UNKNOWN. */
function comparison(op: ComparisonOp, slot: number, t: number, reg: Float64Array): CondFn {
  const unknown = (): typeof UNKNOWN => {
    reg[0] = Number.NaN;
    return UNKNOWN;
  };
  switch (op) {
    case 'lt':
      return (v) => { const x = v[slot]!; if (x !== x) return unknown(); reg[0] = x - t; return x < t ? TRUE : FALSE; };
    case 'le':
      return (v) => { const x = v[slot]!; if (x !== x) return unknown(); reg[0] = x - t; return x <= t ? TRUE : FALSE; };
    case 'gt':
      return (v) => { const x = v[slot]!; if (x !== x) return unknown(); reg[0] = t - x; return x > t ? TRUE : FALSE; };
    case 'ge':
      return (v) => { const x = v[slot]!; if (x !== x) return unknown(); reg[0] = t - x; return x >= t ? TRUE : FALSE; };
    case 'eq':
      return (v) => { const x = v[slot]!; if (x !== x) return unknown(); reg[0] = Math.abs(x - t); return x === t ? TRUE : FALSE; };
    case 'ne':
      return (v) => { const x = v[slot]!; if (x !== x) return unknown(); reg[0] = -Math.abs(x - t); return x !== t ? TRUE : FALSE; };
  }
}

/** Kleene and; every part is evaluated (temporal parts must advance). Margin: max of known parts. */
function and(parts: readonly CondFn[], reg: Float64Array): CondFn {
  const n = parts.length;
  return (v) => {
    let anyFalse = false, anyUnknown = false, m = -Infinity;
    for (let k = 0; k < n; k++) {
      const s = parts[k]!(v);
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

/** Kleene or; every part is evaluated. Margin: min of known parts. */
function or(parts: readonly CondFn[], reg: Float64Array): CondFn {
  const n = parts.length;
  return (v) => {
    let anyTrue = false, anyUnknown = false, m = Infinity;
    for (let k = 0; k < n; k++) {
      const s = parts[k]!(v);
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

function not(part: CondFn, reg: Float64Array): CondFn {
  return (v) => {
    const s = part(v);
    if (s === UNKNOWN) return UNKNOWN; // reg[0] is already NaN
    reg[0] = -reg[0]!;
    return s === TRUE ? FALSE : TRUE;
  };
}
