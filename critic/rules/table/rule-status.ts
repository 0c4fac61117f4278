// Phase 6: every rule's status and margin from its guard verdict and its condition's operand, with
// dwell and cooldown as CompiledRule keeps them; then, in rule order, the proposals of the rules
// that fired and the list of those that could not decide (NaN). A plain rule (dwell 1, no
// cooldown) fires whenever it holds, so its counters stay 0 and it skips their arithmetic.
import type { CompiledRule } from '../compiled-rule.js';
import type { Proposal } from '../proposal.js';
import { F64_BUFFER, I32_BUFFER, U8_BUFFER, resultViews, type Slices } from './storage.js';
import type { Registers, TableResult } from './types.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

const FALSE = 0,
  TRUE = 1; // truth.ts's, local: see storage.ts
// compiled-rule.ts's RULE_*, local for the same reason.
const S_INACTIVE = 0,
  S_CLEAR = 1,
  S_HOLDING = 2,
  S_FIRED = 3,
  S_COOLDOWN = 4,
  S_UNKNOWN = 5;

/** Status of an active counted rule by (truth << 2 | dwell reached << 1 | cooling down); from
 * ST_PLAIN on, by truth alone, for a plain rule. */
const STATUS = Uint8Array.of(
  S_CLEAR,
  S_CLEAR,
  S_CLEAR,
  S_CLEAR, // FALSE
  S_HOLDING,
  S_HOLDING,
  S_FIRED,
  S_COOLDOWN, // TRUE
  S_UNKNOWN,
  S_UNKNOWN,
  S_UNKNOWN,
  S_UNKNOWN, // UNKNOWN
  S_CLEAR,
  S_FIRED,
  S_UNKNOWN, // plain: FALSE, TRUE, UNKNOWN
);
const ST_PLAIN = 12;

/** Per rule: its condition's operand (−1: run by its closures), dwell and cooldown. */
export interface RuleRow {
  root: number;
  dwell: number;
  cooldown: number;
}

/** How a rule is run: with dwell and cooldown bookkeeping, without (plain), or by its closures. */
const R_COUNTED = 0,
  R_GENERIC = 1,
  R_PLAIN = 2;

// Header: rules; per rule how it is run, its root operand, dwell, cooldown, dwell count, cooldown
// left; the status table; the results: status, margins, NaN list, fired list; then the registers.
const H_N = 0,
  H_RG = 1,
  H_RT = 2,
  H_RD = 3,
  H_RC = 4,
  H_DC = 5,
  H_CL = 6,
  H_ST = 7;
const H_OS = 8,
  H_OM = 9,
  H_ON = 10,
  H_OF = 11,
  H_GV = 12,
  H_TV = 13,
  H_MG = 14;
const H_SIZE = 15;

/** Lays the rules out; the offset of their header. */
export function layRules(s: Slices, reg: Registers, rows: readonly RuleRow[]): number {
  const n = rows.length;
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_N] = n;
  hv[H_RG] = s.u8(rows.map((r) => (r.root < 0 ? R_GENERIC : r.dwell === 1 && r.cooldown === 0 ? R_PLAIN : R_COUNTED)));
  hv[H_RT] = s.i32(rows.map((r) => Math.max(r.root, 0)));
  hv[H_RD] = s.i32(rows.map((r) => r.dwell));
  hv[H_RC] = s.i32(rows.map((r) => r.cooldown));
  hv[H_DC] = s.i32(n);
  hv[H_CL] = s.i32(n);
  hv[H_ST] = s.u8(STATUS);
  hv[H_OS] = s.u8(n);
  hv[H_OM] = s.f64(new Float64Array(n).fill(Number.NaN));
  hv[H_ON] = s.i32(n);
  hv[H_OF] = s.i32(n); // indices of the rules that fired, in order
  hv[H_GV] = reg.gv;
  hv[H_TV] = reg.tv;
  hv[H_MG] = reg.mg;
  return s.i32(hv);
}

/** The result arrays, written in place by every evaluate: status, margins and NaN list. */
export function ruleResults(h: number): { status: Uint8Array; margins: Float64Array; nanRules: Int32Array } {
  return resultViews(I32[h + H_OS]!, I32[h + H_OM]!, I32[h + H_ON]!, I32[h + H_N]!);
}

/** Start of an episode: every dwell and cooldown starts over. */
export function resetRules(h: number): void {
  const n = I32[h + H_N]!,
    DC = I32[h + H_DC]!,
    CL = I32[h + H_CL]!;
  I32.fill(0, DC, DC + n);
  I32.fill(0, CL, CL + n);
}

/** Status, margin and the result lists of every rule, in rule order; `generic` are the rules the
 * table hands back to their closures, in order. */
export function evalRules(
  h: number,
  v: Float64Array,
  r: TableResult,
  generic: readonly CompiledRule[],
  proposal: readonly Proposal[],
): void {
  const N = I32[h + H_N]!,
    RG = I32[h + H_RG]!,
    GV = I32[h + H_GV]!,
    RT = I32[h + H_RT]!,
    TV = I32[h + H_TV]!,
    MG = I32[h + H_MG]!,
    ST = I32[h + H_ST]!;
  const CL = I32[h + H_CL]!,
    DC = I32[h + H_DC]!,
    RD = I32[h + H_RD]!,
    RC = I32[h + H_RC]!;
  const OS = I32[h + H_OS]!,
    OM = I32[h + H_OM]!,
    ON = I32[h + H_ON]!,
    OF = I32[h + H_OF]!;
  let count = 0,
    nan = 0,
    gk = 0;
  for (let i = 0; i < N; i++) {
    const kind = U8[RG + i]!,
      g = U8[GV + i]!;
    let s: number;
    if (kind === R_GENERIC) {
      const rule = generic[gk++]!;
      s = rule.step(v);
      F64[OM + i] = rule.margin;
    } else if (g !== TRUE) {
      const left = I32[CL + i]!;
      I32[CL + i] = left - +(left > 0); // a cooldown runs down while the rule is inactive
      I32[DC + i] = 0;
      F64[OM + i] = Number.NaN;
      s = g === FALSE ? S_INACTIVE : S_UNKNOWN;
    } else {
      const o = I32[RT + i]!,
        tv = U8[TV + o]!;
      F64[OM + i] = F64[MG + o]!;
      s = kind === R_PLAIN ? U8[ST + ST_PLAIN + tv]! : dwellCooldown(i, tv, CL, DC, RD, RC, ST);
    }
    U8[OS + i] = s;
    // Both lists written unconditionally and advanced by 0 or 1: which rules fire changes with the
    // data, and a branch on it would be mispredicted whenever it does.
    I32[OF + count] = i;
    count += +(s === S_FIRED);
    I32[ON + nan] = i;
    nan += +(s === S_UNKNOWN);
  }
  for (let k = 0; k < count; k++) r.proposals[k] = proposal[I32[OF + k]!]!;
  r.count = count;
  r.nanCount = nan;
}

/** An active rule with dwell or cooldown: its status by truth `tv`, and its counters advanced. By
 * arithmetic and a lookup, as whether a rule holds changes with the data. (Small: it is inlined.) */
function dwellCooldown(i: number, tv: number, CL: number, DC: number, RD: number, RC: number, ST: number): number {
  const left = I32[CL + i]!,
    cooling = +(left > 0);
  // Masks rather than products: `x & -b` is x or 0 for b ∈ {0, 1}, with no overflow check.
  const holds = +(tv === TRUE);
  const d = (I32[DC + i]! + 1) & -holds; // an unknown step breaks the run, like a false one
  const reached = +(d >= I32[RD + i]!) & holds;
  const fire = reached & (cooling ^ 1);
  I32[DC + i] = d & (fire - 1);
  I32[CL + i] = left - cooling + (I32[RC + i]! & -fire);
  return U8[ST + ((tv << 2) | (reached << 1) | cooling)]!;
}
