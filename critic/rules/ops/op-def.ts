// What one condition op of the rule language is, in every place the language is read: its JSON
// shape (zod), its compilation for both engines (the closures of condition.ts and the rule table of
// table.ts), how far back it looks (the chunk-boundary check of bundles/lag-condition.ts), its words
// (describe.ts) and its reference evaluation (the benchmark's naive interpreter). A file per op, or
// per family of one shape, implements an OpDef; ops/index.ts collects them in one table keyed by op,
// so an op missing from the table, or a part missing from an op, is a type error instead of a
// `default:` branch that lets a new op through unnoticed.
//
// An op never reaches another op or an engine directly: what it needs of its sub-conditions and of
// the engine at hand comes in a kit from the caller. So an op file imports neither the table (no
// import cycle) nor zod at run time, nor anything node-only: the console's browser bundle imports
// the table for its words alone.
import type { z } from 'zod';
import type { TemporalNode } from '../temporal.js';
import type { CompiledNode, Leaf } from '../truth.js';

/** Any condition as an op sees its sub-conditions: values it hands back to its kit. */
export interface AnyCondition {
  readonly op: string;
}

/** One option of the conditions' discriminated union: an object whose `op` is a literal or enum. */
export type OpSchema<C> = z.ZodType<C> & z.core.$ZodTypeDiscriminable;

/** zod itself and the pieces the ops share (schema.ts builds the union from them). */
export interface SchemaKit<Sub> {
  readonly z: typeof z;
  readonly feature: z.ZodString;
  /** A window in steps, 1 to MAX_WINDOW. */
  readonly window: z.ZodNumber;
  /** Any condition, for an op with sub-conditions. */
  readonly condition: z.ZodType<Sub>;
}

/** The closure engine (condition.ts), for the condition being compiled. */
export interface CompileKit<Sub> {
  /** The margin register every closure of the set writes. */
  readonly reg: Float64Array;
  /** A feature's slot; an unknown or unauthorized feature is a load error naming its path. */
  feature(name: string): number;
  /** A sub-condition compiled, at `at` under this condition's path (its resets join this one's). */
  child(sub: Sub, ...at: (string | number)[]): CompiledNode;
  /** A comparison as data, which parents evaluate inline. */
  leaf(l: Leaf): CompiledNode;
  /** A node that keeps history: its reset joins the condition's resets. */
  temporal(node: TemporalNode): CompiledNode;
}

/** Whether the rule table evaluates a condition: without any temporal node inside, or with. */
export type TableShape = 'pure' | 'temporal';

/** An operand of the rule table (table.ts): its index, and whether a temporal node is behind it. */
export interface Operand {
  readonly o: number;
  readonly temporal: boolean;
}

/** For reading a condition as a single comparison of the table. */
export interface ComparisonKit<Sub> {
  slotOf(feature: string): number;
  comparison(sub: Sub): Leaf | null;
}

/** The table's plan (table/plan.ts) while it builds one rule's nodes, children first. */
export interface PlanKit<Sub> {
  slotOf(feature: string): number;
  operand(sub: Sub): Operand;
  /** The operand of one of the set's comparisons. */
  comparison(l: Leaf): Operand;
  stagnant(feature: string, window: number, eps: number): Operand;
  trend(feature: string, window: number, by: number, rising: boolean): Operand;
  window(sub: Operand, window: number, always: boolean): Operand;
  logic(op: 'and' | 'or' | 'not', args: readonly Operand[]): Operand;
}

/** How the rule table takes an op (its node kinds are its own: see table.ts). */
export interface TableDef<C, Sub> {
  /** `c` as one comparison (not(x < t) is x ≥ t; and/or of one part is that part), or null. */
  comparison(c: C, k: ComparisonKit<Sub>): Leaf | null;
  /** What the table makes of `c`; null when it cannot (the rule then runs through its closures). */
  shape(c: C, shapeOf: (sub: Sub) => TableShape | null): TableShape | null;
  /** Adds `c`'s nodes to the plan; its output operand. Comparisons are planned before this is asked. */
  plan(c: C, k: PlanKit<Sub>): Operand;
}

export interface DescribeKit<Sub> {
  /** A sub-condition in words. */
  text(sub: Sub): string;
}

/** A condition's verdict in the reference interpreter, with its margin (truth.ts's convention). */
export interface NaiveVerdict {
  readonly state: 'false' | 'true' | 'unknown';
  readonly margin: number;
}

/** The reference interpreter (bench/naive-interpreter.ts), for one rule on one step. */
export interface NaiveKit<Sub> {
  /** A feature's value this step, looked up by name. */
  value(feature: string): number;
  /** Appends `x` to `node`'s history (kept across steps, cleared with the rule's windows), keeps the last `max`; oldest first. */
  recent<T>(node: object, x: T, max: number): readonly T[];
  /** A sub-condition's verdict this step. */
  check(sub: Sub): NaiveVerdict;
}

/** One op (or family of ops of one shape) of the rule language; see the header. */
export interface OpDef<C extends AnyCondition, Sub extends AnyCondition = never> {
  schema(k: SchemaKit<Sub>): OpSchema<C>;
  children(c: C): readonly Sub[];
  compile(c: C, k: CompileKit<Sub>): CompiledNode;
  readonly table: TableDef<C, Sub>;
  /**
   * null for an op that reads only the current frame; otherwise how many steps before the current
   * one its window reaches (sub-conditions not counted): 0 for a one-step window, which is still an
   * operator with history.
   */
  lookBack(c: C): number | null;
  describe(c: C, k: DescribeKit<Sub>): string;
  naive(c: C, k: NaiveKit<Sub>): NaiveVerdict;
}
