// Compiles a condition (data, already validated by zod) into a closure over feature slots. Feature
// names are resolved here, once; an unknown or unauthorized feature is an error naming its path.
// Rules, guards and recovery stop conditions all compile through this one function.
import { CriticLoadError, type JsonPath } from '../errors.js';
import type { FeatureLayout } from '../features/layout.js';
import type { ComparisonOp, Condition } from './schema.js';
import { stagnant, trend, windowed } from './temporal.js';
import {
  FALSE,
  NEGATED_OP,
  OP_EQ,
  OP_GE,
  OP_GT,
  OP_LE,
  OP_LT,
  OP_NE,
  TRUE,
  UNKNOWN,
  compare,
  type CompiledCondition,
  type CondContext,
  type CondFn,
  type Leaf,
} from './truth.js';

export interface FeatureContext {
  readonly layout: FeatureLayout;
  readonly privileged: boolean;
}

/** Slot of a feature a condition or tool reads; throws a CriticLoadError naming `path`. */
export function resolveFeature(name: string, path: JsonPath, ctx: FeatureContext, file?: string): number {
  const layout = ctx.layout;
  const slot = layout.index(name);
  if (slot < 0) {
    throw new CriticLoadError(path, `unknown feature "${name}": the world "${layout.worldName}" has no such feature (nearest: ${layout.nearest(name).join(', ')})`, file);
  }
  if (layout.isPrivileged(name) && !ctx.privileged) {
    throw new CriticLoadError(path, `privileged feature "${name}" (simulator ground truth of "${layout.worldName}") needs a bundle that declares "privileged": true and a run that authorizes it`, file);
  }
  return slot;
}

export function compileCondition(cond: Condition, path: JsonPath, ctx: CondContext, file?: string): CompiledCondition {
  const resets: (() => void)[] = [];
  const node = compileNode(cond, path, ctx, resets, file);
  return { fn: node.fn, leaf: node.leaf, resets };
}

/** A compiled node: its closure, and its comparison as data when it is one. */
interface Node {
  readonly fn: CondFn;
  readonly leaf: Leaf | null;
}

const OP_CODES: Record<ComparisonOp, number> = { lt: OP_LT, le: OP_LE, gt: OP_GT, ge: OP_GE, eq: OP_EQ, ne: OP_NE };

function compileNode(c: Condition, path: JsonPath, ctx: CondContext, resets: (() => void)[], file?: string): Node {
  const reg = ctx.reg;
  const feature = (name: string) => resolveFeature(name, [...path, 'feature'], ctx, file);
  switch (c.op) {
    case 'lt':
    case 'le':
    case 'gt':
    case 'ge':
    case 'eq':
    case 'ne':
      return leafNode({ op: OP_CODES[c.op], slot: feature(c.feature), t: c.value }, reg);
    case 'stagnant':
      return track(resets, stagnant(feature(c.feature), c.window, c.eps, reg));
    case 'rising':
    case 'falling':
      return track(resets, trend(feature(c.feature), c.window, c.by ?? 0, c.op === 'rising', reg));
    case 'always':
    case 'eventually': {
      const sub = compileNode(c.cond, [...path, 'cond'], ctx, resets, file);
      return track(resets, windowed(sub.fn, sub.leaf, c.window, c.op === 'always', reg));
    }
    case 'and':
    case 'or': {
      const parts = c.args.map((a, i) => compileNode(a, [...path, 'args', i], ctx, resets, file));
      if (parts.length === 1) return parts[0]!;
      return { fn: c.op === 'and' ? and(parts, reg) : or(parts, reg), leaf: null };
    }
    case 'not': {
      const part = compileNode(c.arg, [...path, 'arg'], ctx, resets, file);
      // not(x < t) is x >= t, with the margin negated: no node needed at all.
      if (part.leaf) return leafNode({ ...part.leaf, op: NEGATED_OP[part.leaf.op]! }, reg);
      return { fn: not(part.fn, reg), leaf: null };
    }
  }
}

function leafNode(leaf: Leaf, reg: Float64Array): Node {
  const { op, slot, t } = leaf;
  return { fn: (v) => compare(op, v[slot]!, t, reg), leaf };
}

function track(resets: (() => void)[], node: { fn: CondFn; reset: () => void }): Node {
  resets.push(node.reset);
  return { fn: node.fn, leaf: null };
}

/**
 * Parts as parallel arrays: leaves are evaluated inline from (op, slot, t), other parts through
 * their closure (`fns[k]` null for a leaf).
 */
function unpack(parts: readonly Node[]) {
  return {
    n: parts.length,
    fns: parts.map((p) => (p.leaf ? null : p.fn)),
    ops: Int32Array.from(parts.map((p) => p.leaf?.op ?? 0)),
    slots: Int32Array.from(parts.map((p) => p.leaf?.slot ?? 0)),
    ts: Float64Array.from(parts.map((p) => p.leaf?.t ?? 0)),
  };
}

/** Kleene and; every part is evaluated (temporal parts must advance). Margin: max of known parts. */
function and(parts: readonly Node[], reg: Float64Array): CondFn {
  const { n, fns, ops, slots, ts } = unpack(parts);
  return (v) => {
    let anyFalse = false, anyUnknown = false, m = -Infinity;
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

/** Kleene or; every part is evaluated. Margin: min of known parts. */
function or(parts: readonly Node[], reg: Float64Array): CondFn {
  const { n, fns, ops, slots, ts } = unpack(parts);
  return (v) => {
    let anyTrue = false, anyUnknown = false, m = Infinity;
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

function not(part: CondFn, reg: Float64Array): CondFn {
  return (v) => {
    const s = part(v);
    if (s === UNKNOWN) return UNKNOWN; // reg[0] is already NaN
    reg[0] = -reg[0]!;
    return s === TRUE ? FALSE : TRUE;
  };
}
