// The rule table: a whole rule set evaluated as data, one tight loop per kind of node, instead of
// one closure call per rule and per node. Rules stay data (typed arrays of op codes, feature slots,
// thresholds and windows); nothing is generated as source text.
//
// Why: a closure call per node goes through call sites shared by every rule, which V8 cannot inline
// (they see dozens of different closures), and each call spills registers and passes the margin
// through memory. Here every loop has one shape and reads struct-of-arrays state, so it stays
// monomorphic and its branches follow a pattern that repeats every step.
//
// Every condition value is an *operand*: a slot in a register file of (truth, margin) pairs.
// One step runs these phases, in order (each in table/):
//   1. comparisons.ts: every distinct comparison of the set (deduplicated), one loop per op;
//   2. guards.ts: rules whose guards are comparisons read their operands; a rule whose guard is not
//      TRUE is inactive and its windows are reset (as CompiledRule does);
//   3. logic.ts: and/or/not nodes over comparisons only, for active rules;
//   4. temporal nodes of active rules, each kind in its own loop with its ring buffers in shared
//      typed arrays: stagnant.ts, trend.ts (rising/falling), windows.ts (always/eventually over a
//      pure operand);
//   5. logic.ts: and/or/not nodes that read temporal nodes;
//   6. rule-status.ts: dwell, cooldown, status, margin; proposals and NaN list in rule order.
// A rule whose shape is outside this (shape.ts: a temporal guard, a window over a temporal
// condition) runs through its CompiledRule closures in phase 6, with the same semantics.
//
// Semantics are exactly CompiledRule's: Kleene truth, margins, guard reset, dwell, cooldown. Rules
// are independent of each other, so evaluating them node kind by node kind instead of rule by rule
// changes nothing but the order of independent work; within a rule, guards still come before the
// condition and every temporal node of an active rule advances once per step.
//
// plan.ts turns a rule file into nodes, assemble.ts lays them out in the arenas (storage.ts) and
// runs the phases.
import type { FeatureLayout } from '../features/layout.js';
import type { CompiledRule } from './compiled-rule.js';
import type { RuleFile } from './schema.js';
import { assemble } from './table/assemble.js';
import { planTable } from './table/plan.js';
import type { RuleTable } from './table/types.js';

export type { RuleTable, TableResult } from './table/types.js';

/**
 * Compiles a validated rule file to a table; `rules` are the same rules compiled to closures, with
 * feature slots from the same layout.
 */
export function compileTable(file: RuleFile, rules: readonly CompiledRule[], layout: FeatureLayout): RuleTable {
  return assemble(planTable(file, layout), rules);
}
