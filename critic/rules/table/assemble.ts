// Puts a plan into the arenas, one header per node kind, and runs the phases in order (table.ts).
import { bindLease, lease, releaseAll } from '../arena.js';
import type { CompiledRule } from '../compiled-rule.js';
import { closuresOnly } from './closures.js';
import { evalComparisons, layComparisons } from './comparisons.js';
import { evalGuards, layGuards, resetGuards } from './guards.js';
import { evalLogic, layLogic } from './logic.js';
import type { TablePlan } from './plan.js';
import { clearRuleNodes, layRuleNodes } from './rule-nodes.js';
import { evalRules, layRules, resetRules, ruleResults } from './rule-status.js';
import { evalStagnant, layStagnant } from './stagnant.js';
import { Slices } from './storage.js';
import { evalTrend, layTrend } from './trend.js';
import type { Registers, RuleTable, TableResult } from './types.js';
import { evalWindows, layWindows } from './windows.js';

const TRUE = 1;

/** Each kind's header offset. */
interface Headers {
  comparisons: number;
  logic: number;
  stagnant: number;
  trend: number;
  windows: number;
  ruleNodes: number;
  guards: number;
  rules: number;
}

/** Lays every kind out, each with its own header (kinds that reset others get their headers). */
function layOut(s: Slices, plan: TablePlan): Headers {
  const n = plan.rows.length;
  // The register file; a rule's guard verdict reads TRUE until its guards say otherwise.
  const reg: Registers = { tv: s.u8(plan.nOperands), mg: s.f64(plan.nOperands), gv: s.u8(new Uint8Array(n).fill(TRUE)) };
  const comparisons = layComparisons(s, reg, plan.comparisons);
  const logic = layLogic(s, reg, plan.logic);
  const stagnant = layStagnant(s, reg, plan.stagnant),
    trend = layTrend(s, reg, plan.trend),
    windows = layWindows(s, reg, plan.windows);
  const ruleNodes = layRuleNodes(s, plan.nodesOf, { stagnant, trend, window: windows });
  const guards = layGuards(s, reg, n, plan.guards, ruleNodes);
  return { comparisons, logic, stagnant, trend, windows, ruleNodes, guards, rules: layRules(s, reg, plan.rows) };
}

/** The plan as a table; `rules` are the same rules compiled to closures (for the rules the table
 * does not take, and for a set that does not fit the arenas). */
export function assemble(plan: TablePlan, rules: readonly CompiledRule[]): RuleTable {
  const l = lease(),
    s = new Slices(l);
  const h = layOut(s, plan);
  if (!s.fits) {
    releaseAll(l);
    return closuresOnly(rules);
  }
  const table = phases(h, plan, rules);
  // Freed when the table and every view of it are gone (a caller may keep a result array).
  for (const owner of [table, table.status, table.margins, table.nanRules]) bindLease(owner, l);
  return table;
}

/** The table over its laid-out headers: each step runs the phases in order (see table.ts). */
function phases(h: Headers, plan: TablePlan, rules: readonly CompiledRule[]): RuleTable {
  const n = rules.length,
    generic = rules.filter((_, i) => plan.rows[i]!.root < 0),
    proposal = rules.map((r) => r.proposal);
  const nGuarded = plan.guards.length,
    nPure = plan.nPureLogic,
    nLogic = plan.logic.length;
  const nSt = plan.stagnant.length,
    nTr = plan.trend.length,
    nW = plan.windows.length;
  const { status, margins, nanRules } = ruleResults(h.rules);
  let seq = 0;
  return {
    size: n,
    status,
    margins,
    nanRules,
    tableRules: n - generic.length,
    evaluate(v: Float64Array, r: TableResult): void {
      seq++;
      evalComparisons(h.comparisons, v);
      if (nGuarded > 0) evalGuards(h.guards);
      if (nPure > 0) evalLogic(h.logic, 0, nPure);
      if (nSt > 0) evalStagnant(h.stagnant, v, seq);
      if (nTr > 0) evalTrend(h.trend, v);
      if (nW > 0) evalWindows(h.windows, seq);
      if (nLogic > nPure) evalLogic(h.logic, nPure, nLogic);
      evalRules(h.rules, v, r, generic, proposal);
    },
    reset(): void {
      resetRules(h.rules);
      resetGuards(h.guards);
      for (let i = 0; i < n; i++) clearRuleNodes(h.ruleNodes, i);
      for (const rule of generic) rule.reset();
    },
  };
}
