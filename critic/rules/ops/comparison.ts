// The six comparisons of a feature with a threshold (lt le gt ge eq ne): one shape, so one file, with
// a row per op for its code in the engines (truth.ts) and its symbol, and the reference test and
// margin per op. Both engines evaluate comparisons inline from (code, slot, threshold).
import { OP_EQ, OP_GE, OP_GT, OP_LE, OP_LT, OP_NE, type Leaf } from '../truth.js';
import type { NaiveVerdict, OpDef } from './op-def.js';

export const COMPARISON_OPS = ['lt', 'le', 'gt', 'ge', 'eq', 'ne'] as const;
export type ComparisonOp = (typeof COMPARISON_OPS)[number];

/** feature (op) value; eq/ne are exact, meant for booleans (0/1) and counters. */
export interface ComparisonCondition {
  readonly op: ComparisonOp;
  readonly feature: string;
  readonly value: number;
}

interface ComparisonRow {
  /** Op code of truth.ts. */
  readonly code: number;
  readonly symbol: string;
}

const ROWS: { readonly [K in ComparisonOp]: ComparisonRow } = {
  lt: { code: OP_LT, symbol: '<' },
  le: { code: OP_LE, symbol: '≤' },
  gt: { code: OP_GT, symbol: '>' },
  ge: { code: OP_GE, symbol: '≥' },
  eq: { code: OP_EQ, symbol: '=' },
  ne: { code: OP_NE, symbol: '≠' },
};

/** The reference test and margin (truth.ts: ≤ 0 holding), written out as a first implementation would. */
function naiveCompare(op: ComparisonOp, x: number, t: number): NaiveVerdict {
  switch (op) {
    case 'lt':
      return { state: x < t ? 'true' : 'false', margin: x - t };
    case 'le':
      return { state: x <= t ? 'true' : 'false', margin: x - t };
    case 'gt':
      return { state: x > t ? 'true' : 'false', margin: t - x };
    case 'ge':
      return { state: x >= t ? 'true' : 'false', margin: t - x };
    case 'eq':
      return { state: x === t ? 'true' : 'false', margin: Math.abs(x - t) };
    case 'ne':
      return { state: x !== t ? 'true' : 'false', margin: -Math.abs(x - t) };
  }
}

function asLeaf(c: ComparisonCondition, slotOf: (feature: string) => number): Leaf {
  return { op: ROWS[c.op].code, slot: slotOf(c.feature), t: c.value };
}

export const comparisonOp: OpDef<ComparisonCondition> = {
  schema: (k) => k.z.strictObject({ op: k.z.enum(COMPARISON_OPS), feature: k.feature, value: k.z.number() }),
  children: () => [],
  compile: (c, k) => k.leaf(asLeaf(c, (name) => k.feature(name))),
  table: {
    comparison: (c, k) => asLeaf(c, (name) => k.slotOf(name)),
    shape: () => 'pure',
    plan: (c, k) => k.comparison(asLeaf(c, (name) => k.slotOf(name))),
  },
  lookBack: () => null,
  describe: (c) => `${c.feature} ${ROWS[c.op].symbol} ${String(c.value)}`,
  naive: (c, k) => {
    const x = k.value(c.feature);
    return Number.isNaN(x) ? { state: 'unknown', margin: NaN } : naiveCompare(c.op, x, c.value);
  },
};
