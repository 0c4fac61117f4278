// From a rule file to the table's nodes, still as plain objects: the set's distinct comparisons,
// each rule's guards, its condition's nodes built children first, and per rule its root operand.
// Operands are numbered as they are made: the comparisons first, then every node's output. Each
// op adds its own nodes (its definition's `table.plan`, ops/) through the kit the builder lends it.
import type { FeatureLayout } from '../../features/layout.js';
import { opOf, type Condition, type Operand, type PlanKit } from '../ops/index.js';
import type { RuleFile, RuleSpec } from '../schema.js';
import type { GuardList } from './guards.js';
import type { LogicNode } from './logic.js';
import type { RuleNode } from './rule-nodes.js';
import type { RuleRow } from './rule-status.js';
import { asComparison, comparisonKey, tableEligible, type Comparison, type SlotOf } from './shape.js';
import { stagnantGroup, type StagnantNode } from './stagnant.js';
import type { TrendNode } from './trend.js';
import { windowGroup, type WindowNode } from './windows.js';

export interface TablePlan {
  /** Every distinct comparison, sorted by op (stable): comparison k is operand k. */
  readonly comparisons: readonly Comparison[];
  readonly guards: readonly GuardList[];
  /** and / or / not: those over comparisons only first (`nPureLogic` of them), then the rest. */
  readonly logic: readonly LogicNode[];
  readonly nPureLogic: number;
  /** Temporal nodes, grouped by the loop that runs them (stagnantGroup, windowGroup). */
  readonly stagnant: readonly StagnantNode[];
  readonly trend: readonly TrendNode[];
  readonly windows: readonly WindowNode[];
  /** Per rule, its temporal nodes (ids after grouping). */
  readonly nodesOf: readonly (readonly RuleNode[])[];
  /** Per rule: root operand (−1 when its closures run it), dwell, cooldown. */
  readonly rows: readonly RuleRow[];
  readonly nOperands: number;
}

/** The nodes of a validated rule file's rules, those the table takes (shape.ts). */
export function planTable(file: RuleFile, layout: FeatureLayout): TablePlan {
  const specs = file.rules;
  const eligible = specs.map(tableEligible);
  const slotOf: SlotOf = (name) => layout.index(name);
  const b = new NodeBuilder(collectComparisons(specs, eligible, slotOf), specs.length, slotOf);
  const roots = specs.map((s, i) => (eligible[i] ? b.operand(s.when, i).o : -1));
  const guards = specs.flatMap((s, i) =>
    eligible[i] && s.guards.length > 0 ? [{ rule: i, args: s.guards.map((g) => b.comparison(g)) }] : [],
  );
  const stagnant = grouped(b.stagnant, stagnantGroup),
    windows = grouped(b.windows, windowGroup);
  for (const nodes of b.nodesOf) {
    // Renumbered: ids index the kind's nodes in their grouped order.
    for (const x of nodes) x.id = x.kind === 'stagnant' ? stagnant.id[x.id]! : x.kind === 'window' ? windows.id[x.id]! : x.id;
  }
  return {
    comparisons: b.comparisons,
    guards,
    logic: [...b.pure, ...b.mixed],
    nPureLogic: b.pure.length,
    stagnant: stagnant.sorted,
    trend: b.trend,
    windows: windows.sorted,
    nodesOf: b.nodesOf,
    rows: specs.map((s, i) => ({ root: roots[i]!, dwell: s.dwell, cooldown: s.cooldown })),
    nOperands: b.nextOperand,
  };
}

/** The distinct comparisons of the table's rules (guards, then condition, rule by rule), by op. */
function collectComparisons(specs: readonly RuleSpec[], eligible: readonly boolean[], slotOf: SlotOf): Comparison[] {
  const found = new Map<string, Comparison>();
  const collect = (c: Condition): void => {
    const l = asComparison(c, slotOf);
    if (l) void (found.has(comparisonKey(l)) || found.set(comparisonKey(l), l));
    else opOf(c).children(c).forEach(collect);
  };
  specs.forEach((s, i) => {
    if (!eligible[i]) return;
    s.guards.forEach(collect);
    collect(s.when);
  });
  return [...found.values()].sort((a, b) => a.op - b.op);
}

/** Nodes sorted by group (stable), and each node's new index by its old one. */
function grouped<T>(xs: readonly T[], group: (x: T) => number): { sorted: T[]; id: Int32Array } {
  const perm = xs.map((_, i) => i).sort((a, b) => group(xs[a]!) - group(xs[b]!) || a - b);
  const id = new Int32Array(xs.length);
  perm.forEach((old, at) => (id[old] = at));
  return { sorted: perm.map((i) => xs[i]!), id };
}

/** Builds a condition's nodes, children first, numbering their output operands. */
class NodeBuilder {
  readonly pure: LogicNode[] = [];
  readonly mixed: LogicNode[] = [];
  readonly stagnant: StagnantNode[] = [];
  readonly trend: TrendNode[] = [];
  readonly windows: WindowNode[] = [];
  readonly nodesOf: RuleNode[][];
  nextOperand: number;
  private readonly index: Map<string, number>;

  constructor(
    readonly comparisons: readonly Comparison[],
    nRules: number,
    private readonly slotOf: SlotOf,
  ) {
    this.index = new Map(comparisons.map((l, k) => [comparisonKey(l), k]));
    this.nextOperand = comparisons.length;
    this.nodesOf = Array.from({ length: nRules }, () => []);
  }

  /** Operand of a comparison condition. */
  comparison(c: Condition): number {
    return this.index.get(comparisonKey(asComparison(c, this.slotOf)!))!;
  }

  /** Operand of a condition of rule `rule`, and whether it reads a temporal node (its op plans it: ops/). */
  operand(c: Condition, rule: number): Operand {
    if (asComparison(c)) return { o: this.comparison(c), temporal: false };
    return opOf(c).table.plan(c, this.kit(rule));
  }

  /** What an op's plan adds its nodes through, for rule `rule`. */
  private kit(rule: number): PlanKit<Condition> {
    return {
      slotOf: this.slotOf,
      operand: (sub) => this.operand(sub, rule),
      comparison: (l) => ({ o: this.index.get(comparisonKey(l))!, temporal: false }),
      stagnant: (feature, win, eps) =>
        this.temporal(rule, 'stagnant', this.stagnant.push({ slot: this.slotOf(feature), win, eps, out: this.nextOperand, rule })),
      trend: (feature, win, by, rising) =>
        this.temporal(
          rule,
          'trend',
          this.trend.push({ slot: this.slotOf(feature), win, by, sign: rising ? 1 : -1, out: this.nextOperand, rule }),
        ),
      window: (sub, win, always) =>
        this.temporal(rule, 'window', this.windows.push({ sub: sub.o, win, always, out: this.nextOperand, rule })),
      logic: (op, args) => this.logic(op, args, rule),
    };
  }

  /** A temporal node just pushed (its kind's `count`-th): its operand. */
  private temporal(rule: number, kind: RuleNode['kind'], count: number): Operand {
    this.nodesOf[rule]!.push({ kind, id: count - 1 });
    return { o: this.nextOperand++, temporal: true };
  }

  /** An and / or / not node over operands already made: after the temporal phases if one of them is temporal. */
  private logic(op: LogicNode['op'], parts: readonly Operand[], rule: number): Operand {
    const temporal = parts.some((p) => p.temporal);
    (temporal ? this.mixed : this.pure).push({ op, rule, out: this.nextOperand, args: parts.map((p) => p.o) });
    return { o: this.nextOperand++, temporal };
  }
}
