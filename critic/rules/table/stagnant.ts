// Phase 4, `stagnant`: max − min of a feature over the last `window` steps is below eps (temporal.ts
// `stagnant`). Margin: max − min − eps; +Infinity while the window fills; UNKNOWN while it holds a
// NaN. Small windows scan a ring (ring.ts), longer ones keep a max and a min deque (deque.ts).
import { dqClear, dqExpire, dqMax, dqPush, layDeques } from './deque.js';
import { SCAN_MAX, mark, ringMax, wrap } from './ring.js';
import { F64_BUFFER, I32_BUFFER, U8_BUFFER, type Slices } from './storage.js';
import type { Registers } from './types.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

const FALSE = 0,
  TRUE = 1,
  UNKNOWN = 2; // truth.ts's, local: see storage.ts

/** stagnant(feature slot, window, eps) of rule `rule`, written to operand `out`. */
export interface StagnantNode {
  slot: number;
  win: number;
  eps: number;
  out: number;
  rule: number;
}

/** Loop a node runs in: small windows first. */
export const stagnantGroup = (x: StagnantNode): number => (x.win <= SCAN_MAX ? 0 : 1);

// Header: node count; per node its slot, window, eps, output operand and rule; state: (large) a
// ring of NaN flags, head, count, NaN count (small: NaN bit mask), max and min deques; (small)
// the doubled value ring, the number of small nodes, max(x) and max(−x) and their ring positions + 1
// (0: rescan); then the registers.
const H_NST = 0,
  H_SSL = 1,
  H_SW = 2,
  H_SE = 3,
  H_SO = 4,
  H_SR = 5,
  H_SB = 6,
  H_SH = 7,
  H_SC = 8,
  H_SN = 9,
  H_SHI = 10,
  H_SLO = 11;
const H_SV = 12,
  H_NSS = 13,
  H_SMX = 14,
  H_SMP = 15,
  H_GV = 16,
  H_TV = 17,
  H_MG = 18;
const H_SIZE = 19;

/** Lays the nodes (grouped by stagnantGroup) out in the arenas; the offset of their header. */
export function layStagnant(s: Slices, reg: Registers, nodes: readonly StagnantNode[]): number {
  const n = nodes.length,
    small = nodes.map((x) => x.win <= SCAN_MAX);
  /** A deque per long window (its record offset), −1 for a small one. */
  const deques = () => {
    const recs = layDeques(
      s,
      nodes.filter((_, k) => !small[k]).map((x) => x.win + 1),
    );
    let d = 0;
    return small.map((isSmall) => (isSmall ? -1 : recs[d++]!));
  };
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_NST] = n;
  hv[H_SSL] = s.i32(nodes.map((x) => x.slot));
  hv[H_SW] = s.i32(nodes.map((x) => x.win));
  hv[H_SE] = s.f64(nodes.map((x) => x.eps));
  hv[H_SO] = s.i32(nodes.map((x) => x.out));
  hv[H_SR] = s.i32(nodes.map((x) => x.rule));
  hv[H_SB] = s.i32(
    s.pool(
      'u8',
      nodes.map((x, k) => (small[k] ? 0 : x.win)),
    ),
  );
  hv[H_SH] = s.i32(n);
  hv[H_SC] = s.i32(n);
  hv[H_SN] = s.i32(n);
  hv[H_SHI] = s.i32(deques());
  hv[H_SLO] = s.i32(deques());
  hv[H_SV] = s.i32(
    s.pool(
      'f64',
      nodes.map((x, k) => (small[k] ? 2 * x.win : 0)),
    ),
  );
  hv[H_NSS] = small.filter(Boolean).length;
  hv[H_SMX] = s.f64(2 * n);
  hv[H_SMP] = s.i32(2 * n);
  hv[H_GV] = reg.gv;
  hv[H_TV] = reg.tv;
  hv[H_MG] = reg.mg;
  return s.i32(hv);
}

/** Every stagnant node of an active rule advances one step. */
export function evalStagnant(h: number, v: Float64Array, seq: number): void {
  evalSmall(h, v);
  evalLarge(h, v, seq);
}

/** Small windows: the values in a doubled ring, NaN positions as a bit mask (SN), and max(x),
 * max(−x) with their positions, kept while the window is NaN-free (see ring.ts). */
function evalSmall(h: number, v: Float64Array): void {
  const NSS = I32[h + H_NSS]!,
    SV = I32[h + H_SV]!,
    SMX = I32[h + H_SMX]!,
    SMP = I32[h + H_SMP]!,
    SR = I32[h + H_SR]!,
    SSL = I32[h + H_SSL]!,
    SW = I32[h + H_SW]!,
    SH = I32[h + H_SH]!,
    SC = I32[h + H_SC]!,
    SN = I32[h + H_SN]!,
    SO = I32[h + H_SO]!,
    SE = I32[h + H_SE]!,
    GV = I32[h + H_GV]!,
    TV = I32[h + H_TV]!,
    MG = I32[h + H_MG]!;
  for (let k = 0; k < NSS; k++) {
    if (U8[GV + I32[SR + k]!] !== TRUE) continue;
    const x = v[I32[SSL + k]!]!,
      window = I32[SW + k]!,
      vals = I32[SV + k]!,
      head = I32[SH + k]!;
    const count = I32[SC + k]! + +(I32[SC + k]! < window);
    const nanMask = mark(SN + k, 1 << head, +(x !== x));
    F64[vals + head] = x;
    F64[vals + head + window] = x;
    I32[SH + k] = wrap(head + 1, window);
    I32[SC + k] = count;
    const o = I32[SO + k]!,
      mp = SMP + 2 * k;
    if (nanMask !== 0) {
      I32[mp] = I32[mp + 1] = 0;
      U8[TV + o] = UNKNOWN;
      F64[MG + o] = Number.NaN;
      continue;
    }
    const max = ringMax(SMX + 2 * k, mp, x, vals, head, count, window, 1);
    const negMin = ringMax(SMX + 2 * k + 1, mp + 1, -x, vals, head, count, window, -1);
    verdict(TV + o, MG + o, count < window, max + negMin - F64[SE + k]!);
  }
}

/** Longer windows: a ring of NaN flags with their count, and deques of x and −x. */
function evalLarge(h: number, v: Float64Array, seq: number): void {
  const NSS = I32[h + H_NSS]!,
    NST = I32[h + H_NST]!,
    SR = I32[h + H_SR]!,
    SSL = I32[h + H_SSL]!,
    SW = I32[h + H_SW]!,
    SB = I32[h + H_SB]!,
    SH = I32[h + H_SH]!,
    SC = I32[h + H_SC]!,
    SN = I32[h + H_SN]!,
    SHI = I32[h + H_SHI]!,
    SLO = I32[h + H_SLO]!,
    SO = I32[h + H_SO]!,
    SE = I32[h + H_SE]!,
    GV = I32[h + H_GV]!,
    TV = I32[h + H_TV]!,
    MG = I32[h + H_MG]!;
  for (let k = NSS; k < NST; k++) {
    if (U8[GV + I32[SR + k]!] !== TRUE) continue;
    const x = v[I32[SSL + k]!]!,
      window = I32[SW + k]!,
      base = I32[SB + k]!;
    let head = I32[SH + k]!,
      count = I32[SC + k]!,
      nans = I32[SN + k]!;
    if (count === window) nans -= U8[base + head]!;
    else count++;
    const nan = +(x !== x);
    U8[base + head] = nan;
    nans += nan;
    head = wrap(head + 1, window);
    I32[SH + k] = head;
    I32[SC + k] = count;
    I32[SN + k] = nans;
    const hi = I32[SHI + k]!,
      lo = I32[SLO + k]!;
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
    } else verdict(TV + o, MG + o, count < window, dqMax(hi) + dqMax(lo) - F64[SE + k]!);
  }
}

/** A NaN-free window's verdict: `m` is max − min − eps; a window still filling has no margin yet. */
function verdict(tvAt: number, mgAt: number, filling: boolean, m: number): void {
  if (filling) {
    U8[tvAt] = FALSE;
    F64[mgAt] = Infinity;
  } else {
    F64[mgAt] = m;
    U8[tvAt] = +(m < 0);
  }
}

/** Node `k` starts over (its rule's guard stopped holding, or an episode starts). */
export function clearStagnant(h: number, k: number): void {
  const SH = I32[h + H_SH]!,
    SC = I32[h + H_SC]!,
    SN = I32[h + H_SN]!,
    SMP = I32[h + H_SMP]!,
    SHI = I32[h + H_SHI]!,
    SLO = I32[h + H_SLO]!;
  I32[SH + k] = I32[SC + k] = I32[SN + k] = I32[SMP + 2 * k] = I32[SMP + 2 * k + 1] = 0;
  const hi = I32[SHI + k]!,
    lo = I32[SLO + k]!;
  if (hi >= 0) {
    dqClear(hi);
    dqClear(lo);
  }
}
