// The rule language's condition ops, in one table. `Condition` is the union of the op files'
// variants, and `OPS` must have an entry for every op, each checked against its own variant: a new
// variant without its entry, or an entry without a part of OpDef (op-def.ts), does not type-check.
// Everything that reads conditions goes through here: the schema (schema.ts), both engines
// (condition.ts, table/), the chunk-boundary check (bundles/lag-condition.ts), the words
// (describe.ts) and the benchmark's reference interpreter.
import { andOrOp, type AndOrCondition } from './and-or.js';
import { comparisonOp, type ComparisonCondition } from './comparison.js';
import { notOp, type NotCondition } from './not.js';
import type { OpDef } from './op-def.js';
import { stagnantOp, type StagnantCondition } from './stagnant.js';
import { trendOp, type TrendCondition } from './trend.js';
import { windowedOp, type WindowedCondition } from './windowed.js';

export type Condition =
  | ComparisonCondition
  | StagnantCondition
  | TrendCondition
  | WindowedCondition<Condition>
  | AndOrCondition<Condition>
  | NotCondition<Condition>;

export type Op = Condition['op'];

/** The variant that has op `K` (ops of one family, like rising and falling, share one). */
type VariantOf<K extends Op, V = Condition> = V extends { readonly op: infer O } ? (K extends O ? V : never) : never;

/** A definition for every op, each typed by its own variant. */
export type OpTable = { readonly [K in Op]: OpDef<VariantOf<K>, Condition> };

const windowed = windowedOp<Condition>();
const andOr = andOrOp<Condition>();

export const OPS = {
  lt: comparisonOp,
  le: comparisonOp,
  gt: comparisonOp,
  ge: comparisonOp,
  eq: comparisonOp,
  ne: comparisonOp,
  stagnant: stagnantOp,
  rising: trendOp,
  falling: trendOp,
  always: windowed,
  eventually: windowed,
  and: andOr,
  or: andOr,
  not: notOp<Condition>(),
} satisfies OpTable;

/** The table's entry for `c`'s op, typed for `c` (`satisfies OpTable` checked each entry against its own variant). */
export function opOf<C extends Condition>(c: C): OpDef<C, Condition> {
  return OPS[c.op] as unknown as OpDef<C, Condition>;
}

/** Whether `op` names an op of the language. */
export function isOp(op: unknown): op is Op {
  return typeof op === 'string' && Object.hasOwn(OPS, op);
}

/** Each definition once (a family's ops share one), in table order: the options of the schema's union. */
export const OP_DEFS: readonly OpDef<Condition, Condition>[] = [...new Set<unknown>(Object.values(OPS))] as OpDef<Condition, Condition>[];

export type { ComparisonCondition, ComparisonOp } from './comparison.js';
export { COMPARISON_OPS } from './comparison.js';
export type { AndOrCondition, NotCondition, StagnantCondition, TrendCondition, WindowedCondition };
export type * from './op-def.js';
