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
// One step runs these phases, in order:
//   1. leaves: every distinct comparison of the set (deduplicated), grouped by op, one loop per op;
//   2. guards: rules whose guards are comparisons read their operands; a rule whose guard is not
//      TRUE is inactive and its windows are reset (as CompiledRule does);
//   3. pure and/or/not nodes (over comparisons only), for active rules;
//   4. temporal nodes of active rules: stagnant, rising/falling, always/eventually over a pure
//      operand, each kind in its own loop with its ring buffers in shared typed arrays;
//   5. and/or/not nodes that read temporal nodes;
//   6. rules in order: dwell, cooldown, status, margin, proposals, NaN list.
// A rule whose shape is outside this (a temporal guard, a window over a temporal condition) runs
// through its CompiledRule closures in phase 6, in its place, with the same semantics.
//
// Semantics are exactly CompiledRule's: Kleene truth, margins, guard reset, dwell, cooldown. Rules
// are independent of each other, so evaluating them node kind by node kind instead of rule by rule
// changes nothing but the order of independent work; within a rule, guards still come before the
// condition and every temporal node of an active rule advances once per step.
import { featureIndex } from '../features/registry.js';
import type { CompiledRule } from './compiled-rule.js';
import type { Proposal } from './proposal.js';
import { ARENA_F64, ARENA_I32, ARENA_U8, alloc, bindLease, lease, releaseAll } from './arena.js';
import type { Condition, RuleFile } from './schema.js';
import { NEGATED_OP, OP_EQ, OP_GE, OP_GT, OP_LE, OP_LT, OP_NE } from './truth.js';

// Truth values and status codes, the same as truth.ts and compiled-rule.ts: declared here because
// V8 reads an imported binding through its module cell (a load and a check) at every use, and
// folds a module-local `const` into the code.
const FALSE = 0, TRUE = 1, UNKNOWN = 2;
const S_INACTIVE = 0, S_CLEAR = 1, S_HOLDING = 2, S_FIRED = 3, S_COOLDOWN = 4, S_UNKNOWN = 5;

const B_AND = 0, B_OR = 1, B_NOT = 2;

/** Status of an active rule by (truth << 2 | dwell reached << 1 | cooling down); from ST_PLAIN on,
 * by truth alone, for a rule without dwell or cooldown. */
const STATUS = Uint8Array.of(
  S_CLEAR, S_CLEAR, S_CLEAR, S_CLEAR, // FALSE
  S_HOLDING, S_HOLDING, S_FIRED, S_COOLDOWN, // TRUE
  S_UNKNOWN, S_UNKNOWN, S_UNKNOWN, S_UNKNOWN, // UNKNOWN
  S_CLEAR, S_FIRED, S_UNKNOWN, // plain: FALSE, TRUE, UNKNOWN
);
const ST_PLAIN = 12;

/** How evalRules treats a rule (H_RG): dwell and cooldown bookkeeping, none (dwell 1, no cooldown:
 * fires whenever it holds, so its counters stay 0), or its closures. */
const R_COUNTED = 0, R_GENERIC = 1, R_PLAIN = 2;

/** What `evaluate` writes: the critic's result (see temporal-critic.ts). */
export interface TableResult {
  readonly proposals: Proposal[];
  count: number;
  nanCount: number;
}

const OPS: Record<string, number> = { lt: OP_LT, le: OP_LE, gt: OP_GT, ge: OP_GE, eq: OP_EQ, ne: OP_NE };

interface LeafSpec {
  op: number;
  slot: number;
  t: number;
}

/** A comparison, with `not` folded in (not(x < t) is x ≥ t); null if the condition is not one. */
function asLeaf(c: Condition): LeafSpec | null {
  if (c.op === 'not') {
    const l = asLeaf(c.arg);
    return l && { op: NEGATED_OP[l.op]!, slot: l.slot, t: l.t };
  }
  if (c.op === 'and' || c.op === 'or') return c.args.length === 1 ? asLeaf(c.args[0]!) : null;
  const op = OPS[c.op];
  return op === undefined || !('value' in c) ? null : { op, slot: featureIndex(c.feature), t: c.value };
}

/** Shape check: can the table evaluate this condition? `pure`: no temporal node inside. */
function shape(c: Condition): 'pure' | 'temporal' | null {
  if (asLeaf(c)) return 'pure';
  switch (c.op) {
    case 'stagnant':
    case 'rising':
    case 'falling':
      return 'temporal';
    case 'always':
    case 'eventually':
      return shape(c.cond) === 'pure' ? 'temporal' : null;
    case 'not':
      return shape(c.arg);
    case 'and':
    case 'or': {
      let out: 'pure' | 'temporal' = 'pure';
      for (const a of c.args) {
        const s = shape(a);
        if (s === null) return null;
        if (s === 'temporal') out = 'temporal';
      }
      return out;
    }
    default:
      return null;
  }
}

/** A rule set compiled to tables; see the top of this file. */
export interface RuleTable {
  /** Rules in the set. */
  readonly size: number;
  /** Per rule, written by `evaluate`: pass these as the critic result's arrays (they may be views). */
  readonly status: Uint8Array;
  readonly margins: Float64Array;
  readonly nanRules: Int32Array;
  /** Rules evaluated by the table (the others run their CompiledRule closures, in place). */
  readonly tableRules: number;
  /** Evaluates every rule on one frame's values and writes `r`: status, margins, proposals, NaN list. */
  evaluate(v: Float64Array, r: TableResult): void;
  /** Start of an episode: every window, dwell and cooldown starts over. */
  reset(): void;
}

/** Compiles a validated rule file to a table; `rules` are the same rules compiled to closures. */
export function compileTable(file: RuleFile, rules: readonly CompiledRule[]): RuleTable {
  const specs = file.rules;
  const n = specs.length;
  const eligible = specs.map((s) => s.guards.every((g) => asLeaf(g) !== null) && shape(s.when) !== null);

  // Leaves: collect, deduplicate, sort by op. (−0 is kept apart from 0: margins keep its sign.)
  const leafKey = (l: LeafSpec) => `${l.op}|${l.slot}|${Object.is(l.t, -0) ? '-0' : l.t}`;
  const leafMap = new Map<string, LeafSpec>();
  const collect = (c: Condition): void => {
    const l = asLeaf(c);
    if (l) void (leafMap.has(leafKey(l)) || leafMap.set(leafKey(l), l));
    else if (c.op === 'always' || c.op === 'eventually') collect(c.cond);
    else if (c.op === 'not') collect(c.arg);
    else if (c.op === 'and' || c.op === 'or') c.args.forEach(collect);
  };
  specs.forEach((s, i) => {
    if (!eligible[i]) return;
    s.guards.forEach(collect);
    collect(s.when);
  });
  const leaves = [...leafMap.values()].sort((a, b) => a.op - b.op);
  const leafIndex = new Map(leaves.map((l, k) => [leafKey(l), k]));

  // Nodes, built children first. Operands past the leaves are numbered as they are made.
  let nextOperand = leaves.length;
  type BoolSpec = { kind: number; rule: number; out: number; args: number[] };
  const pure: BoolSpec[] = [];
  const mixed: BoolSpec[] = [];
  const st: { slot: number; win: number; eps: number; out: number; rule: number }[] = [];
  const tr: { slot: number; win: number; by: number; sign: number; out: number; rule: number }[] = [];
  const win: { sub: number; win: number; always: boolean; out: number; rule: number }[] = [];
  const nodesOf: { kind: number; id: number }[][] = specs.map(() => []);
  /** Operand of a condition, and whether it reads a temporal node. */
  const build = (c: Condition, rule: number): { o: number; temporal: boolean } => {
    const l = asLeaf(c);
    if (l) return { o: leafIndex.get(leafKey(l))!, temporal: false };
    switch (c.op) {
      case 'stagnant':
        st.push({ slot: featureIndex(c.feature), win: c.window, eps: c.eps, out: nextOperand, rule });
        nodesOf[rule]!.push({ kind: 0, id: st.length - 1 });
        return { o: nextOperand++, temporal: true };
      case 'rising':
      case 'falling':
        tr.push({ slot: featureIndex(c.feature), win: c.window, by: c.by ?? 0, sign: c.op === 'rising' ? 1 : -1, out: nextOperand, rule });
        nodesOf[rule]!.push({ kind: 1, id: tr.length - 1 });
        return { o: nextOperand++, temporal: true };
      case 'always':
      case 'eventually': {
        const sub = build(c.cond, rule);
        win.push({ sub: sub.o, win: c.window, always: c.op === 'always', out: nextOperand, rule });
        nodesOf[rule]!.push({ kind: 2, id: win.length - 1 });
        return { o: nextOperand++, temporal: true };
      }
      case 'not': {
        const a = build(c.arg, rule);
        (a.temporal ? mixed : pure).push({ kind: B_NOT, rule, out: nextOperand, args: [a.o] });
        return { o: nextOperand++, temporal: a.temporal };
      }
      case 'and':
      case 'or': {
        const parts = c.args.map((a) => build(a, rule));
        if (parts.length === 1) return parts[0]!;
        const temporal = parts.some((p) => p.temporal);
        (temporal ? mixed : pure).push({ kind: c.op === 'and' ? B_AND : B_OR, rule, out: nextOperand, args: parts.map((p) => p.o) });
        return { o: nextOperand++, temporal };
      }
      default:
        throw new Error(`rule table: unexpected condition op "${c.op}"`); // excluded by shape()
    }
  };
  const roots = specs.map((s, i) => (eligible[i] ? build(s.when, i).o : 0));
  const guardedRules = specs.map((_, i) => i).filter((i) => eligible[i] && specs[i]!.guards.length > 0);

  // Windows of up to SCAN_MAX steps (small) keep their values in a ring and scan it on the steps
  // that need an extremum; longer ones keep a sliding-extremum deque. Nodes are renumbered so each
  // kind's small nodes come first (windows: small always, small eventually, then the rest), and
  // each group is one loop of one shape.
  const small = (w: number) => w <= SCAN_MAX;
  const order = <T>(xs: T[], key: (x: T) => number): { sorted: T[]; id: Int32Array } => {
    const perm = xs.map((_, i) => i).sort((a, b) => key(xs[a]!) - key(xs[b]!) || a - b);
    const id = new Int32Array(xs.length);
    perm.forEach((old, at) => (id[old] = at));
    return { sorted: perm.map((i) => xs[i]!), id };
  };
  const stO = order(st, (x) => (small(x.win) ? 0 : 1));
  const winO = order(win, (x) => (small(x.win) ? (x.always ? 0 : 1) : 2));
  for (const nodes of nodesOf) for (const x of nodes) x.id = x.kind === 0 ? stO.id[x.id]! : x.kind === 2 ? winO.id[x.id]! : x.id;
  const stS = stO.sorted, winS = winO.sorted;

  // Ring buffers and deques: one pool each, nodes own [base, base + size). A small window's value
  // ring is doubled (each value written at p and p + window) so a scan never wraps.
  const caps: number[] = [];
  const deque = (w: number) => (small(w) ? -1 : caps.push(w + 1) - 1);

  return makeTable({
    n,
    nOperands: nextOperand,
    leafSlot: Int32Array.from(leaves, (l) => l.slot),
    leafT: Float64Array.from(leaves, (l) => l.t),
    opStart: Int32Array.from({ length: 7 }, (_, op) => leaves.filter((l) => l.op < op).length),
    guarded: Int32Array.from(guardedRules),
    guardStart: Int32Array.from([0, ...guardedRules.map((i) => specs[i]!.guards.length)].map(((acc) => (x: number) => (acc += x))(0))),
    guardArgs: Int32Array.from(guardedRules.flatMap((i) => specs[i]!.guards.map((g) => leafIndex.get(leafKey(asLeaf(g)!))!))),
    nPure: pure.length,
    bools: [...pure, ...mixed],
    st: stS,
    nStSmall: stS.filter((x) => small(x.win)).length,
    stRing: bases(stS.map((s) => (small(s.win) ? 0 : s.win))),
    stVals: bases(stS.map((s) => (small(s.win) ? 2 * s.win : 0))),
    stHi: Int32Array.from(stS, (s) => deque(s.win)),
    stLo: Int32Array.from(stS, (s) => deque(s.win)),
    tr,
    trRing: bases(tr.map((s) => s.win + 1)),
    win: winS,
    nWinAlways: winS.filter((x) => small(x.win) && x.always).length,
    nWinSmall: winS.filter((x) => small(x.win)).length,
    wRing: bases(winS.map((s) => (small(s.win) ? 0 : s.win))),
    wVals: bases(winS.map((s) => (small(s.win) ? 2 * s.win : 0))),
    wExt: Int32Array.from(winS, (s) => deque(s.win)),
    caps,
    generic: rules.map((r, i) => (eligible[i] ? null : r)),
    roots: Int32Array.from(roots),
    dwell: Int32Array.from(specs, (s) => s.dwell),
    cooldown: Int32Array.from(specs, (s) => s.cooldown),
    proposal: rules.map((r) => r.proposal),
    allRules: rules,
    nodesOf,
  });
}

interface TableSpec {
  n: number;
  nOperands: number;
  leafSlot: Int32Array;
  leafT: Float64Array;
  opStart: Int32Array;
  guarded: Int32Array;
  guardStart: Int32Array;
  guardArgs: Int32Array;
  nPure: number;
  bools: { kind: number; rule: number; out: number; args: number[] }[];
  st: { slot: number; win: number; eps: number; out: number; rule: number }[];
  nStSmall: number;
  stRing: { base: Int32Array; total: number };
  stVals: { base: Int32Array; total: number };
  stHi: Int32Array;
  stLo: Int32Array;
  tr: { slot: number; win: number; by: number; sign: number; out: number; rule: number }[];
  trRing: { base: Int32Array; total: number };
  win: { sub: number; win: number; always: boolean; out: number; rule: number }[];
  nWinAlways: number;
  nWinSmall: number;
  wRing: { base: Int32Array; total: number };
  wVals: { base: Int32Array; total: number };
  wExt: Int32Array;
  caps: number[];
  generic: (CompiledRule | null)[];
  roots: Int32Array;
  dwell: Int32Array;
  cooldown: Int32Array;
  proposal: Proposal[];
  allRules: readonly CompiledRule[];
  nodesOf: { kind: number; id: number }[][];
}

// Every table's arrays are slices of these process-wide arenas, addressed by integer offsets that
// the table keeps in a header (also in I32). Why: V8 compiles an access to a typed array it knows
// as a constant (a module-level `const`, read by a module-level function) as one load, while an
// access to a typed array held in a variable or field re-checks its map and reloads its base,
// offset and length after every store in a loop (measured on Node 20: ~5× slower for these loops).
// Slices go back to the free lists (arena.ts) when their table is garbage-collected; a table that
// does not fit evaluates every rule through its closures instead.
const F64 = new Float64Array(ARENA_F64);
const I32 = new Int32Array(ARENA_I32);
const U8 = new Uint8Array(ARENA_U8);

// Header fields: offsets (absolute, into the arenas) and counts.
const H_TV = 0;
const H_MG = 1;
const H_LS = 2;
const H_LT = 3;
const H_LT0 = 4;
const H_LE0 = 5;
const H_GT0 = 6;
const H_GE0 = 7;
const H_EQ0 = 8;
const H_NE0 = 9;
const H_END0 = 10;
const H_NG = 11;
const H_GD = 12;
const H_GS = 13;
const H_GA = 14;
const H_BK = 15;
const H_BR = 16;
const H_BO = 17;
const H_BS = 18;
const H_BA = 19;
const H_NST = 20;
const H_SSL = 21;
const H_SW = 22;
const H_SE = 23;
const H_SO = 24;
const H_SR = 25;
const H_SB = 26;
const H_SH = 27;
const H_SC = 28;
const H_SN = 29;
const H_SHI = 30;
const H_SLO = 31;
const H_NTR = 32;
const H_TSL = 33;
const H_TSZ = 34;
const H_TBY = 35;
const H_TSG = 36;
const H_TO = 37;
const H_TRL = 38;
const H_TB = 39;
const H_TH = 40;
const H_TC = 41;
const H_NW = 42;
const H_WSU = 43;
const H_WW = 44;
const H_WA = 45;
const H_WO = 46;
const H_WR = 47;
const H_WB = 48;
const H_WX = 49;
const H_WH = 50;
const H_WC = 51;
const H_WK = 52;
const H_N = 53;
const H_RG = 54;
const H_RT = 55;
const H_RD = 56;
const H_RC = 57;
const H_DC = 58;
const H_CL = 59;
const H_GV = 60;
const H_AC = 61;
const H_NS = 62;
const H_NK = 63;
const H_NI = 64;
const H_ST = 65;
const H_OS = 66;
const H_OM = 67;
const H_ON = 68;
const H_OF = 69;
const H_SV = 70;
const H_WV = 71;
const H_NSS = 72;
const H_NWA = 73;
const H_NWS = 74;
const H_SMX = 75;
const H_SMP = 76;
const H_WMX = 77;
const H_WMP = 78;
const H_SIZE = 79;

/** Windows up to this many steps scan a ring for their extremum (masks of 32 bits hold a window). */
const SCAN_MAX = 16;

/** Deque records in I32: values at (F64), steps at (F64), capacity, head, size. */
const D_VALS = 0, D_SEQS = 1, D_CAP = 2, D_HEAD = 3, D_SIZE = 4, D_REC = 5;

function makeTable(t: TableSpec): RuleTable {
  const n = t.n;
  const l = lease();
  let fits = true;
  /** A slice of an arena holding `init` (or that many zeros); its start offset. */
  const put = (kind: 'f64' | 'i32' | 'u8', init: ArrayLike<number> | number): number => {
    const size = typeof init === 'number' ? init : init.length;
    const at = alloc(l, kind, size);
    if (at < 0) return ((fits = false), 0);
    const arr = kind === 'f64' ? F64 : kind === 'i32' ? I32 : U8;
    if (typeof init === 'number') arr.fill(0, at, at + size);
    else arr.set(init, at);
    return at;
  };
  const prefix = (sizes: readonly number[]) => [0, ...sizes].map(((acc) => (x: number) => (acc += x))(0));
  const plus = (at: number, xs: ArrayLike<number>) => Array.from(xs, (x) => at + x);
  const hv: number[] = new Array(H_SIZE).fill(0);

  hv[H_N] = n;
  hv[H_TV] = put('u8', t.nOperands);
  hv[H_MG] = put('f64', t.nOperands);
  hv[H_LS] = put('i32', t.leafSlot);
  hv[H_LT] = put('f64', t.leafT);
  [hv[H_LT0], hv[H_LE0], hv[H_GT0], hv[H_GE0], hv[H_EQ0], hv[H_NE0], hv[H_END0]] = t.opStart;
  hv[H_NG] = t.guarded.length;
  hv[H_GD] = put('i32', t.guarded);
  hv[H_GS] = put('i32', t.guardStart);
  hv[H_GA] = put('i32', t.guardArgs);
  hv[H_BK] = put('u8', t.bools.map((b) => b.kind));
  hv[H_BR] = put('i32', t.bools.map((b) => b.rule));
  hv[H_BO] = put('i32', t.bools.map((b) => b.out));
  hv[H_BS] = put('i32', prefix(t.bools.map((b) => b.args.length)));
  hv[H_BA] = put('i32', t.bools.flatMap((b) => b.args));

  // Deques: one record each; values and steps in F64.
  const dqPool = bases(t.caps);
  const DV = put('f64', dqPool.total), DS = put('f64', dqPool.total), REC = put('i32', D_REC * t.caps.length);
  t.caps.forEach((cap, d) => {
    const rec = REC + D_REC * d, base = dqPool.base[d]!;
    if (!fits) return;
    I32[rec + D_VALS] = DV + base;
    I32[rec + D_SEQS] = DS + base;
    I32[rec + D_CAP] = cap;
  });
  const recs = (ids: Int32Array) => Array.from(ids, (d) => (d < 0 ? -1 : REC + D_REC * d));

  hv[H_NST] = t.st.length;
  hv[H_SSL] = put('i32', t.st.map((x) => x.slot));
  hv[H_SW] = put('i32', t.st.map((x) => x.win));
  hv[H_SE] = put('f64', t.st.map((x) => x.eps));
  hv[H_SO] = put('i32', t.st.map((x) => x.out));
  hv[H_SR] = put('i32', t.st.map((x) => x.rule));
  hv[H_SB] = put('i32', plus(put('u8', t.stRing.total), t.stRing.base));
  hv[H_SH] = put('i32', t.st.length);
  hv[H_SC] = put('i32', t.st.length);
  hv[H_SN] = put('i32', t.st.length);
  hv[H_SHI] = put('i32', recs(t.stHi));
  hv[H_SLO] = put('i32', recs(t.stLo));
  hv[H_SV] = put('i32', plus(put('f64', t.stVals.total), t.stVals.base));
  hv[H_NSS] = t.nStSmall;
  hv[H_SMX] = put('f64', 2 * t.st.length); // small: max of x, max of −x
  hv[H_SMP] = put('i32', 2 * t.st.length); // their ring positions + 1 (0: rescan)

  hv[H_NTR] = t.tr.length;
  hv[H_TSL] = put('i32', t.tr.map((x) => x.slot));
  hv[H_TSZ] = put('i32', t.tr.map((x) => x.win + 1));
  hv[H_TBY] = put('f64', t.tr.map((x) => x.by));
  hv[H_TSG] = put('f64', t.tr.map((x) => x.sign));
  hv[H_TO] = put('i32', t.tr.map((x) => x.out));
  hv[H_TRL] = put('i32', t.tr.map((x) => x.rule));
  hv[H_TB] = put('i32', plus(put('f64', t.trRing.total), t.trRing.base));
  hv[H_TH] = put('i32', t.tr.length);
  hv[H_TC] = put('i32', t.tr.length);

  hv[H_NW] = t.win.length;
  hv[H_WSU] = put('i32', t.win.map((x) => x.sub));
  hv[H_WW] = put('i32', t.win.map((x) => x.win));
  hv[H_WA] = put('u8', t.win.map((x) => (x.always ? 1 : 0)));
  hv[H_WO] = put('i32', t.win.map((x) => x.out));
  hv[H_WR] = put('i32', t.win.map((x) => x.rule));
  hv[H_WB] = put('i32', plus(put('u8', t.wRing.total), t.wRing.base));
  hv[H_WX] = put('i32', recs(t.wExt));
  hv[H_WV] = put('i32', plus(put('f64', t.wVals.total), t.wVals.base));
  hv[H_NWA] = t.nWinAlways;
  hv[H_NWS] = t.nWinSmall;
  hv[H_WMX] = put('f64', t.win.length); // small: max of the ring
  hv[H_WMP] = put('i32', t.win.length); // its ring position + 1 (0: rescan)
  hv[H_WH] = put('i32', t.win.length);
  hv[H_WC] = put('i32', t.win.length);
  hv[H_WK] = put('i32', 4 * t.win.length); // large: counts of FALSE, TRUE, UNKNOWN; small: masks (see evalWindows)

  const generic = t.generic, proposal = t.proposal;
  const isGeneric = generic.map((g) => (g === null ? 0 : 1));
  hv[H_RG] = put('u8', isGeneric.map((g, i) => (g ? R_GENERIC : t.dwell[i] === 1 && t.cooldown[i] === 0 ? R_PLAIN : R_COUNTED)));
  hv[H_RT] = put('i32', t.roots);
  hv[H_RD] = put('i32', t.dwell);
  hv[H_RC] = put('i32', t.cooldown);
  hv[H_DC] = put('i32', n);
  hv[H_CL] = put('i32', n);
  hv[H_GV] = put('u8', new Uint8Array(n).fill(TRUE)); // this step's guard verdict; TRUE if unguarded
  hv[H_AC] = put('u8', n);
  hv[H_NS] = put('i32', prefix(t.nodesOf.map((x) => x.length)));
  hv[H_NK] = put('u8', t.nodesOf.flat().map((x) => x.kind));
  hv[H_NI] = put('i32', t.nodesOf.flat().map((x) => x.id));
  hv[H_ST] = put('u8', STATUS);
  // The result arrays: written in place, handed out as views.
  hv[H_OS] = put('u8', n);
  hv[H_OM] = put('f64', new Float64Array(n).fill(Number.NaN));
  hv[H_ON] = put('i32', n);
  hv[H_OF] = put('i32', n); // indices of the rules that fired, in order
  const h = put('i32', hv);

  if (!fits) {
    releaseAll(l);
    return closuresOnly(generic.map((g, i) => g ?? t.allRules[i]!));
  }
  let seq = 0;
  const nSt = t.st.length, nTr = t.tr.length, nW = t.win.length, nPure = t.nPure, nBools = t.bools.length;
  const nGuarded = t.guarded.length;
  const status = U8.subarray(hv[H_OS]!, hv[H_OS]! + n);
  const margins = F64.subarray(hv[H_OM]!, hv[H_OM]! + n);
  const nanRules = I32.subarray(hv[H_ON]!, hv[H_ON]! + n);
  const table: RuleTable = {
    size: n,
    status,
    margins,
    nanRules,
    tableRules: n - isGeneric.reduce((acc: number, g) => acc + g, 0),
    evaluate(v: Float64Array, r: TableResult): void {
      seq++;
      evalLeaves(h, v);
      if (nGuarded > 0) evalGuards(h);
      if (nPure > 0) evalBools(h, 0, nPure);
      if (nSt > 0) evalStagnant(h, v, seq);
      if (nTr > 0) evalTrend(h, v);
      if (nW > 0) evalWindows(h, seq);
      if (nBools > nPure) evalBools(h, nPure, nBools);
      evalRules(h, v, r, generic, proposal);
    },
    reset(): void {
      I32.fill(0, hv[H_DC]!, hv[H_DC]! + n);
      I32.fill(0, hv[H_CL]!, hv[H_CL]! + n);
      U8.fill(0, hv[H_AC]!, hv[H_AC]! + n);
      U8.fill(TRUE, hv[H_GV]!, hv[H_GV]! + n);
      for (let i = 0; i < n; i++) {
        resetNodes(h, i);
        generic[i]?.reset();
      }
    },
  };
  // Freed when the table and every view of it are gone (a caller may keep a result array).
  for (const owner of [table, status, margins, nanRules]) bindLease(owner, l);
  return table;
}

/** Clears the temporal state of rule i's nodes (its guard is no longer true, or an episode starts).
 * These are the condition's nodes only: a rule with a temporal guard runs through its closures,
 * whose `reset()` also clears the guards' windows at an episode start. */
function resetNodes(h: number, i: number): void {
  const SMP = I32[h + H_SMP]!, WMP = I32[h + H_WMP]!, NS = I32[h + H_NS]!, NI = I32[h + H_NI]!, NK = I32[h + H_NK]!, SH = I32[h + H_SH]!, SC = I32[h + H_SC]!, SN = I32[h + H_SN]!, SHI = I32[h + H_SHI]!, SLO = I32[h + H_SLO]!, TH = I32[h + H_TH]!, TC = I32[h + H_TC]!, WH = I32[h + H_WH]!, WC = I32[h + H_WC]!, WK = I32[h + H_WK]!, WX = I32[h + H_WX]!;
  for (let j = I32[NS + i]!, e = I32[NS + i + 1]!; j < e; j++) {
    const id = I32[NI + j]!;
    const kind = U8[NK + j]!;
    if (kind === 0) {
      I32[SH + id] = I32[SC + id] = I32[SN + id] = I32[SMP + 2 * id] = I32[SMP + 2 * id + 1] = 0;
      const hi = I32[SHI + id]!, lo = I32[SLO + id]!;
      if (hi >= 0) I32[hi + D_HEAD] = I32[hi + D_SIZE] = I32[lo + D_HEAD] = I32[lo + D_SIZE] = 0;
    } else if (kind === 1) {
      I32[TH + id] = I32[TC + id] = 0;
    } else {
      I32[WH + id] = I32[WC + id] = I32[WMP + id] = 0;
      I32[WK + 4 * id] = I32[WK + 4 * id + 1] = I32[WK + 4 * id + 2] = I32[WK + 4 * id + 3] = 0;
      const d = I32[WX + id]!;
      if (d >= 0) I32[d + D_HEAD] = I32[d + D_SIZE] = 0;
    }
  }
}

/** `i` if below `size`, else 0 (i ≤ size): a ring index step without a branch. */
function wrap(i: number, size: number): number {
  return i & -+(i !== size);
}

/** Deque `rec`: drops values observed before step `minSeq`. */
function dqExpire(rec: number, minSeq: number): void {
  const seqs = I32[rec + D_SEQS]!, cap = I32[rec + D_CAP]!;
  let head = I32[rec + D_HEAD]!, size = I32[rec + D_SIZE]!;
  while (size > 0 && F64[seqs + head]! < minSeq) {
    head = head + 1 === cap ? 0 : head + 1;
    size--;
  }
  I32[rec + D_HEAD] = head;
  I32[rec + D_SIZE] = size;
}

/** Deque `rec`: adds `x` observed at step `seq`, dropping values not above it (never the max again). */
function dqPush(rec: number, seq: number, x: number): void {
  const vals = I32[rec + D_VALS]!, cap = I32[rec + D_CAP]!, head = I32[rec + D_HEAD]!;
  let size = I32[rec + D_SIZE]!;
  while (size > 0) {
    let last = head + size - 1;
    if (last >= cap) last -= cap;
    if (F64[vals + last]! > x) break;
    size--;
  }
  let at = head + size;
  if (at >= cap) at -= cap;
  F64[vals + at] = x;
  F64[I32[rec + D_SEQS]! + at] = seq;
  I32[rec + D_SIZE] = size + 1;
}

// Small windows stand in for a deque with a ring and its current maximum. The deque's front is the
// newest value unless an older one is strictly greater than every newer one (ties go to the newest,
// ±0 included), and a NaN pushed evicts every older value and is evicted by the next push. Without
// NaN that is: a newcomer `>=` the maximum replaces it; when the maximum leaves the ring, a scan
// newest → oldest with a strict `>` finds the next (scanTop). A window holding a NaN it must account
// for is scanned exactly every step (scanExact) and its maximum rebuilt once the NaN has left.

/** Ring position + 1 of scanTop's result (0: nothing above −Infinity). */
let scanAt = 0;

/** Max of `sign` · value over the `count` newest values of a doubled ring, the newest at ring
 * position `head`; NaN values are never picked. Leaves the position + 1 in scanAt. */
function scanTop(vals: number, head: number, count: number, window: number, sign: number): number {
  const top = vals + head + window;
  let best = -Infinity, at = -1;
  for (let j = 0; j < count; j++) {
    const x = sign * F64[top - j]!;
    if (x > best) {
      best = x;
      at = j;
    }
  }
  scanAt = at < 0 ? 0 : (head - at >= 0 ? head - at : head - at + window) + 1;
  return best;
}

/** The deque's front when some known value is NaN: skips unknown positions (mask `um`, bit = ring
 * position), starts from the newest known value, and stops at an older NaN. `rel`: top's index in
 * the doubled ring. */
function scanExact(top: number, count: number, rel: number, window: number, um: number): number {
  let best = -Infinity, found = false;
  for (let j = 0; j < count; j++) {
    const p = rel - j >= window ? rel - j - window : rel - j;
    if ((um >>> p) & 1) continue;
    const x = F64[top - j]!;
    if (!found) {
      best = x;
      found = true;
    } else if (x !== x) break;
    else if (x > best) best = x;
  }
  return best;
}

/** Deque `rec`: the maximum in the window, or −Infinity when empty. */
function dqMax(rec: number): number {
  return I32[rec + D_SIZE]! > 0 ? F64[I32[rec + D_VALS]! + I32[rec + D_HEAD]!]! : -Infinity;
}

/** 1. Every comparison. Truth without a branch: (holds) | (NaN) << 1, so TRUE 1, FALSE 0, UNKNOWN 2
 * (NaN makes every comparison false and every margin NaN). Leaves flip with the data, and a branch
 * per leaf would be mispredicted as often as they do. */
function evalLeaves(h: number, v: Float64Array): void {
  const LS = I32[h + H_LS]!, LT = I32[h + H_LT]!, MG = I32[h + H_MG]!, TV = I32[h + H_TV]!, LT0 = I32[h + H_LT0]!, LE0 = I32[h + H_LE0]!, GT0 = I32[h + H_GT0]!, GE0 = I32[h + H_GE0]!, EQ0 = I32[h + H_EQ0]!, NE0 = I32[h + H_NE0]!, END0 = I32[h + H_END0]!;
  for (let k = LT0; k < LE0; k++) {
    const x = v[I32[LS + k]!]!, th = F64[LT + k]!;
    F64[MG + k] = x - th;
    U8[TV + k] = +(x < th) | (+(x !== x) << 1);
  }
  for (let k = LE0; k < GT0; k++) {
    const x = v[I32[LS + k]!]!, th = F64[LT + k]!;
    F64[MG + k] = x - th;
    U8[TV + k] = +(x <= th) | (+(x !== x) << 1);
  }
  for (let k = GT0; k < GE0; k++) {
    const x = v[I32[LS + k]!]!, th = F64[LT + k]!;
    F64[MG + k] = th - x;
    U8[TV + k] = +(x > th) | (+(x !== x) << 1);
  }
  for (let k = GE0; k < EQ0; k++) {
    const x = v[I32[LS + k]!]!, th = F64[LT + k]!;
    F64[MG + k] = th - x;
    U8[TV + k] = +(x >= th) | (+(x !== x) << 1);
  }
  for (let k = EQ0; k < NE0; k++) {
    const x = v[I32[LS + k]!]!, th = F64[LT + k]!;
    F64[MG + k] = Math.abs(x - th);
    U8[TV + k] = +(x === th) | (+(x !== x) << 1);
  }
  for (let k = NE0; k < END0; k++) {
    const x = v[I32[LS + k]!]!, th = F64[LT + k]!;
    const nan = +(x !== x);
    F64[MG + k] = -Math.abs(x - th);
    U8[TV + k] = (+(x !== th) & (nan ^ 1)) | (nan << 1); // NaN !== th holds: masked off
  }
}

/** 2. Guard verdicts; a rule that stops being active has its windows reset (CompiledRule.deactivate). */
function evalGuards(h: number): void {
  const NG = I32[h + H_NG]!, GS = I32[h + H_GS]!, GA = I32[h + H_GA]!, GD = I32[h + H_GD]!, TV = I32[h + H_TV]!, GV = I32[h + H_GV]!, AC = I32[h + H_AC]!;
  for (let k = 0; k < NG; k++) {
    let g: number = TRUE;
    for (let j = I32[GS + k]!, e = I32[GS + k + 1]!; j < e; j++) {
      const s = U8[TV + I32[GA + j]!]!;
      if (s === FALSE) g = FALSE;
      else if (s === UNKNOWN && g !== FALSE) g = UNKNOWN;
    }
    const i = I32[GD + k]!;
    U8[GV + i] = g;
    if (g === TRUE) U8[AC + i] = 1;
    else if (U8[AC + i] === 1) {
      U8[AC + i] = 0;
      resetNodes(h, i);
    }
  }
}

/** 3, 5. and / or / not nodes [from, to) of active rules: Kleene; margins max / min / negated.
 * An unknown part has a NaN margin, which no comparison picks (as CompiledRule's `reg[0] > m`). */
function evalBools(h: number, from: number, to: number): void {
  const BR = I32[h + H_BR]!, BO = I32[h + H_BO]!, BK = I32[h + H_BK]!, BS = I32[h + H_BS]!, BA = I32[h + H_BA]!, GV = I32[h + H_GV]!, TV = I32[h + H_TV]!, MG = I32[h + H_MG]!;
  for (let k = from; k < to; k++) {
    if (U8[GV + I32[BR + k]!] !== TRUE) continue;
    const o = I32[BO + k]!, kind = U8[BK + k]!, e = I32[BS + k + 1]!;
    let j = I32[BS + k]!;
    if (kind === B_NOT) {
      const a = I32[BA + j]!, s = U8[TV + a]!;
      U8[TV + o] = s === UNKNOWN ? UNKNOWN : s ^ 1;
      F64[MG + o] = -F64[MG + a]!; // NaN stays NaN
      continue;
    }
    let nDecisive = 0, nUnknown = 0;
    if (kind === B_AND) {
      let m = -Infinity;
      for (; j < e; j++) {
        const a = I32[BA + j]!, s = U8[TV + a]!, x = F64[MG + a]!;
        nUnknown += s >> 1;
        nDecisive += +(s === FALSE);
        m = x > m ? x : m;
      }
      F64[MG + o] = m;
      U8[TV + o] = +(nDecisive === 0);
    } else {
      let m = Infinity;
      for (; j < e; j++) {
        const a = I32[BA + j]!, s = U8[TV + a]!, x = F64[MG + a]!;
        nUnknown += s >> 1;
        nDecisive += s & 1;
        m = x < m ? x : m;
      }
      F64[MG + o] = m;
      U8[TV + o] = +(nDecisive > 0);
    }
    if (nDecisive === 0 && nUnknown > 0) {
      U8[TV + o] = UNKNOWN;
      F64[MG + o] = Number.NaN;
    }
  }
}

/** 4. max − min over the window below eps (temporal.ts `stagnant`). */
function evalStagnant(h: number, v: Float64Array, seq: number): void {
  const NSS = I32[h + H_NSS]!, SV = I32[h + H_SV]!, SMX = I32[h + H_SMX]!, SMP = I32[h + H_SMP]!, NST = I32[h + H_NST]!, SR = I32[h + H_SR]!, SSL = I32[h + H_SSL]!, SW = I32[h + H_SW]!, SB = I32[h + H_SB]!, SH = I32[h + H_SH]!, SC = I32[h + H_SC]!, SN = I32[h + H_SN]!, SHI = I32[h + H_SHI]!, SLO = I32[h + H_SLO]!, SO = I32[h + H_SO]!, SE = I32[h + H_SE]!, GV = I32[h + H_GV]!, TV = I32[h + H_TV]!, MG = I32[h + H_MG]!;
  // Small windows: the values in a doubled ring, NaN positions as a bit mask (SN), and max(x),
  // max(−x) with their positions, kept while the window is NaN-free (see scanTop).
  for (let k = 0; k < NSS; k++) {
    if (U8[GV + I32[SR + k]!] !== TRUE) continue;
    const x = v[I32[SSL + k]!]!, window = I32[SW + k]!, vals = I32[SV + k]!, head = I32[SH + k]!, bit = 1 << head;
    const count = I32[SC + k]! + +(I32[SC + k]! < window);
    const nanMask = (I32[SN + k]! & ~bit) | (bit & -+(x !== x));
    F64[vals + head] = x;
    F64[vals + head + window] = x;
    I32[SH + k] = wrap(head + 1, window);
    I32[SC + k] = count;
    I32[SN + k] = nanMask;
    const o = I32[SO + k]!, mx = SMX + 2 * k, mp = SMP + 2 * k;
    if (nanMask !== 0) {
      I32[mp] = I32[mp + 1] = 0;
      U8[TV + o] = UNKNOWN;
      F64[MG + o] = Number.NaN;
      continue;
    }
    const here = head + 1;
    let hp = I32[mp]!, lp = I32[mp + 1]!;
    if (hp === 0 || hp === here) {
      F64[mx] = scanTop(vals, head, count, window, 1);
      hp = scanAt;
    } else if (x >= F64[mx]!) {
      F64[mx] = x;
      hp = here;
    }
    if (lp === 0 || lp === here) {
      F64[mx + 1] = scanTop(vals, head, count, window, -1);
      lp = scanAt;
    } else if (-x >= F64[mx + 1]!) {
      F64[mx + 1] = -x;
      lp = here;
    }
    I32[mp] = hp;
    I32[mp + 1] = lp;
    if (count < window) {
      U8[TV + o] = FALSE;
      F64[MG + o] = Infinity;
    } else {
      const m = F64[mx]! + F64[mx + 1]! - F64[SE + k]!; // max − min − eps
      F64[MG + o] = m;
      U8[TV + o] = +(m < 0);
    }
  }
  for (let k = NSS; k < NST; k++) {
    if (U8[GV + I32[SR + k]!] !== TRUE) continue;
    const x = v[I32[SSL + k]!]!, window = I32[SW + k]!, base = I32[SB + k]!;
    let head = I32[SH + k]!, count = I32[SC + k]!, nans = I32[SN + k]!;
    if (count === window) nans -= U8[base + head]!;
    else count++;
    const nan = +(x !== x);
    U8[base + head] = nan;
    nans += nan;
    head = wrap(head + 1, window);
    I32[SH + k] = head;
    I32[SC + k] = count;
    I32[SN + k] = nans;
    const hi = I32[SHI + k]!, lo = I32[SLO + k]!;
    dqExpire(hi, seq - window + 1);
    dqExpire(lo, seq - window + 1);
    if (nan === 0) {
      dqPush(hi, seq, x);
      dqPush(lo, seq, -x);
    }
    const o = I32[SO + k]!;
    if (nans > 0) {
      U8[TV + o] = UNKNOWN;
      F64[MG + o] = Number.NaN;
    } else if (count < window) {
      U8[TV + o] = FALSE;
      F64[MG + o] = Infinity;
    } else {
      const m = dqMax(hi) + dqMax(lo) - F64[SE + k]!; // max − min − eps
      F64[MG + o] = m;
      U8[TV + o] = +(m < 0);
    }
  }
}

/** 4. x_t − x_{t−window} above by (rising) or below −by (falling) (temporal.ts `trend`). */
function evalTrend(h: number, v: Float64Array): void {
  const NTR = I32[h + H_NTR]!, TRL = I32[h + H_TRL]!, TSL = I32[h + H_TSL]!, TSZ = I32[h + H_TSZ]!, TB = I32[h + H_TB]!, TH = I32[h + H_TH]!, TC = I32[h + H_TC]!, TO = I32[h + H_TO]!, TBY = I32[h + H_TBY]!, TSG = I32[h + H_TSG]!, GV = I32[h + H_GV]!, TV = I32[h + H_TV]!, MG = I32[h + H_MG]!;
  for (let k = 0; k < NTR; k++) {
    if (U8[GV + I32[TRL + k]!] !== TRUE) continue;
    const x = v[I32[TSL + k]!]!, size = I32[TSZ + k]!, base = I32[TB + k]!;
    let head = I32[TH + k]!, count = I32[TC + k]!;
    F64[base + head] = x;
    head = wrap(head + 1, size);
    if (count < size) count++;
    I32[TH + k] = head;
    I32[TC + k] = count;
    const o = I32[TO + k]!;
    const oldest = F64[base + head]!; // when full, head points at the oldest entry
    if (x !== x || (count === size && oldest !== oldest)) {
      U8[TV + o] = UNKNOWN;
      F64[MG + o] = Number.NaN;
    } else if (count < size) {
      U8[TV + o] = FALSE;
      F64[MG + o] = Infinity;
    } else {
      const m = F64[TBY + k]! - F64[TSG + k]! * (x - oldest);
      F64[MG + o] = m;
      U8[TV + o] = +(m < 0);
    }
  }
}

/** 4. always / eventually over a pure operand (temporal.ts `windowed`). */
function evalWindows(h: number, seq: number): void {
  const NWA = I32[h + H_NWA]!, NWS = I32[h + H_NWS]!, WV = I32[h + H_WV]!, WMX = I32[h + H_WMX]!, WMP = I32[h + H_WMP]!, NW = I32[h + H_NW]!, WR = I32[h + H_WR]!, WSU = I32[h + H_WSU]!, WW = I32[h + H_WW]!, WB = I32[h + H_WB]!, WH = I32[h + H_WH]!, WC = I32[h + H_WC]!, WK = I32[h + H_WK]!, WX = I32[h + H_WX]!, WA = I32[h + H_WA]!, WO = I32[h + H_WO]!, GV = I32[h + H_GV]!, TV = I32[h + H_TV]!, MG = I32[h + H_MG]!;
  // Small windows: the signed margins (always: m, eventually: −m) in a doubled ring, bit masks of
  // the positions holding FALSE, TRUE, UNKNOWN and a known step with a NaN margin (WK + 4k ..), and
  // the ring's max with its position (see scanTop) while no known margin is NaN. An unknown step's
  // margin is NaN (every pure operand's is), which `>` and `>=` never pick.
  for (let k = 0; k < NWS; k++) {
    if (U8[GV + I32[WR + k]!] !== TRUE) continue;
    const a = I32[WSU + k]!, s = U8[TV + a]!, window = I32[WW + k]!, vals = I32[WV + k]!, mk = WK + 4 * k;
    const always = k < NWA;
    const x = always ? F64[MG + a]! : -F64[MG + a]!;
    const head = I32[WH + k]!, bit = 1 << head, keep = ~bit;
    const count = I32[WC + k]! + +(I32[WC + k]! < window);
    const fm = (I32[mk]! & keep) | (bit & -+(s === FALSE));
    const tm = (I32[mk + 1]! & keep) | (bit & -+(s === TRUE));
    const um = (I32[mk + 2]! & keep) | (bit & -+(s === UNKNOWN));
    const nm = (I32[mk + 3]! & keep) | (bit & -+(s !== UNKNOWN && x !== x));
    I32[mk] = fm;
    I32[mk + 1] = tm;
    I32[mk + 2] = um;
    I32[mk + 3] = nm;
    F64[vals + head] = x;
    F64[vals + head + window] = x;
    I32[WH + k] = wrap(head + 1, window);
    I32[WC + k] = count;
    const o = I32[WO + k]!, here = head + 1;
    let best: number, at = I32[WMP + k]!;
    if (nm !== 0) {
      best = scanExact(vals + head + window, count, head + window, window, um);
      at = 0;
    } else if (at === 0 || at === here) {
      best = scanTop(vals, head, count, window, 1);
      at = scanAt;
    } else if (x >= F64[WMX + k]!) {
      best = x;
      at = here;
    } else best = F64[WMX + k]!;
    F64[WMX + k] = best;
    I32[WMP + k] = at;
    windowVerdict(TV + o, MG + o, always, fm !== 0, tm !== 0, um !== 0, count === window, best);
  }
  for (let k = NWS; k < NW; k++) {
    if (U8[GV + I32[WR + k]!] !== TRUE) continue;
    const a = I32[WSU + k]!, s = U8[TV + a]!, window = I32[WW + k]!, base = I32[WB + k]!, c3 = WK + 4 * k;
    let head = I32[WH + k]!, count = I32[WC + k]!;
    if (count === window) I32[c3 + U8[base + head]!]!--;
    else count++;
    U8[base + head] = s;
    I32[c3 + s]!++;
    head = wrap(head + 1, window);
    I32[WH + k] = head;
    I32[WC + k] = count;
    const d = I32[WX + k]!, always = U8[WA + k] === 1;
    dqExpire(d, seq - window + 1);
    if (s !== UNKNOWN) dqPush(d, seq, always ? F64[MG + a]! : -F64[MG + a]!);
    const o = I32[WO + k]!;
    windowVerdict(TV + o, MG + o, always, I32[c3 + FALSE]! > 0, I32[c3 + TRUE]! > 0, I32[c3 + UNKNOWN]! > 0, count === window, dqMax(d));
  }
}

/**
 * A window's verdict and margin, whichever store kept its steps. `max` is the largest signed margin
 * in the window (always: m, eventually: −m). always holds once a full window held throughout;
 * eventually holds as soon as one step held; an unknown step decides only when no known step does.
 */
function windowVerdict(tvAt: number, mgAt: number, always: boolean, anyFalse: boolean, anyTrue: boolean, anyUnknown: boolean, full: boolean, max: number): void {
  const settled = always ? anyFalse : anyTrue; // a known step that decides the window on its own
  if (anyUnknown && !settled) {
    U8[tvAt] = UNKNOWN;
    F64[mgAt] = Number.NaN;
  } else if (always) {
    U8[tvAt] = !anyFalse && full ? TRUE : FALSE;
    F64[mgAt] = anyFalse || full ? max : Infinity; // a window still filling has no margin yet
  } else {
    U8[tvAt] = anyTrue ? TRUE : FALSE;
    F64[mgAt] = -max;
  }
}

/** 6. Dwell, cooldown and status of every rule in rule order; proposals and NaN list in that order. */
function evalRules(h: number, v: Float64Array, r: TableResult, generic: readonly (CompiledRule | null)[], proposal: readonly Proposal[]): void {
  const N = I32[h + H_N]!, RG = I32[h + H_RG]!, CL = I32[h + H_CL]!, GV = I32[h + H_GV]!, DC = I32[h + H_DC]!, RT = I32[h + H_RT]!, TV = I32[h + H_TV]!, MG = I32[h + H_MG]!, RD = I32[h + H_RD]!, RC = I32[h + H_RC]!, ST = I32[h + H_ST]!;
  const OS = I32[h + H_OS]!, OM = I32[h + H_OM]!, ON = I32[h + H_ON]!, OF = I32[h + H_OF]!;
  const proposals = r.proposals;
  let count = 0, nan = 0;
  for (let i = 0; i < N; i++) {
    let s: number;
    const kind = U8[RG + i]!;
    if (kind === R_PLAIN) {
      const g = U8[GV + i]!;
      if (g === TRUE) {
        const o = I32[RT + i]!;
        F64[OM + i] = F64[MG + o]!;
        s = U8[ST + ST_PLAIN + U8[TV + o]!]!;
      } else {
        F64[OM + i] = Number.NaN;
        s = g === FALSE ? S_INACTIVE : S_UNKNOWN;
      }
    } else if (kind === R_GENERIC) {
      const rule = generic[i]!;
      s = rule.step(v);
      F64[OM + i] = rule.margin;
    } else {
      const left = I32[CL + i]!;
      const cooling = +(left > 0);
      const g = U8[GV + i]!;
      if (g !== TRUE) {
        I32[CL + i] = left - cooling;
        I32[DC + i] = 0;
        F64[OM + i] = Number.NaN;
        s = g === FALSE ? S_INACTIVE : S_UNKNOWN;
      } else {
        // By arithmetic and a lookup: whether a rule holds changes with the data.
        const o = I32[RT + i]!, tv = U8[TV + o]!;
        F64[OM + i] = F64[MG + o]!;
        // Masks rather than products: `x & -b` is x or 0 for b ∈ {0, 1}, with no overflow check.
        const holds = +(tv === TRUE);
        const d = (I32[DC + i]! + 1) & -holds; // an unknown step breaks the run, like a false one
        const reached = +(d >= I32[RD + i]!) & holds;
        const fire = reached & (cooling ^ 1);
        I32[DC + i] = d & (fire - 1);
        I32[CL + i] = left - cooling + (I32[RC + i]! & -fire);
        s = U8[ST + ((tv << 2) | (reached << 1) | cooling)]!;
      }
    }
    U8[OS + i] = s;
    // Both lists written unconditionally and advanced by 0 or 1: which rules fire changes with the
    // data, and a branch on it would be mispredicted whenever it does.
    I32[OF + count] = i;
    count += +(s === S_FIRED);
    I32[ON + nan] = i;
    nan += +(s === S_UNKNOWN);
  }
  for (let k = 0; k < count; k++) proposals[k] = proposal[I32[OF + k]!]!;
  r.count = count;
  r.nanCount = nan;
}

/** Every rule through its closures (the table did not fit in the arenas). */
function closuresOnly(rules: readonly CompiledRule[]): RuleTable {
  const status = new Uint8Array(rules.length), margins = new Float64Array(rules.length).fill(Number.NaN);
  const nanRules = new Int32Array(rules.length);
  return {
    size: rules.length,
    status,
    margins,
    nanRules,
    tableRules: 0,
    evaluate(v: Float64Array, r: TableResult): void {
      let count = 0, nan = 0;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        const s = rule.step(v);
        status[i] = s;
        margins[i] = rule.margin;
        if (s === S_FIRED) r.proposals[count++] = rule.proposal;
        else if (s === S_UNKNOWN) nanRules[nan++] = i;
      }
      r.count = count;
      r.nanCount = nan;
    },
    reset(): void {
      for (const rule of rules) rule.reset();
    },
  };
}

function bases(sizes: readonly number[]): { base: Int32Array; total: number } {
  let total = 0;
  const base = Int32Array.from(sizes, (s) => ((total += s), total - s));
  return { base, total };
}
