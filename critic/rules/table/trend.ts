// Phase 4, `rising` / `falling`: the net change x_t − x_{t−window} is above `by` (rising) or below
// −by (falling) (temporal.ts `trend`). Margin: by − sign · change; +Infinity until the ring holds
// window + 1 values; UNKNOWN when either end is NaN.
import { wrap } from './ring.js';
import { F64_BUFFER, I32_BUFFER, U8_BUFFER, type Slices } from './storage.js';
import type { Registers } from './types.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

const FALSE = 0,
  TRUE = 1,
  UNKNOWN = 2; // truth.ts's, local: see storage.ts

/** rising (sign 1) / falling (sign −1) of a feature slot over `win` steps by `by`, of rule `rule`,
 * written to operand `out`. */
export interface TrendNode {
  slot: number;
  win: number;
  by: number;
  sign: number;
  out: number;
  rule: number;
}

// Header: node count; per node its slot, ring size (window + 1), by, sign, output operand, rule;
// state: its ring of values (F64), head and count; then the registers.
const H_NTR = 0,
  H_TSL = 1,
  H_TSZ = 2,
  H_TBY = 3,
  H_TSG = 4,
  H_TO = 5,
  H_TRL = 6,
  H_TB = 7,
  H_TH = 8,
  H_TC = 9,
  H_GV = 10,
  H_TV = 11,
  H_MG = 12;
const H_SIZE = 13;

/** Lays the nodes out in the arenas; the offset of their header. */
export function layTrend(s: Slices, reg: Registers, nodes: readonly TrendNode[]): number {
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_NTR] = nodes.length;
  hv[H_TSL] = s.i32(nodes.map((x) => x.slot));
  hv[H_TSZ] = s.i32(nodes.map((x) => x.win + 1));
  hv[H_TBY] = s.f64(nodes.map((x) => x.by));
  hv[H_TSG] = s.f64(nodes.map((x) => x.sign));
  hv[H_TO] = s.i32(nodes.map((x) => x.out));
  hv[H_TRL] = s.i32(nodes.map((x) => x.rule));
  hv[H_TB] = s.i32(
    s.pool(
      'f64',
      nodes.map((x) => x.win + 1),
    ),
  );
  hv[H_TH] = s.i32(nodes.length);
  hv[H_TC] = s.i32(nodes.length);
  hv[H_GV] = reg.gv;
  hv[H_TV] = reg.tv;
  hv[H_MG] = reg.mg;
  return s.i32(hv);
}

/** Every trend node of an active rule advances one step. */
export function evalTrend(h: number, v: Float64Array): void {
  const NTR = I32[h + H_NTR]!,
    TRL = I32[h + H_TRL]!,
    TSL = I32[h + H_TSL]!,
    TSZ = I32[h + H_TSZ]!,
    TB = I32[h + H_TB]!,
    TH = I32[h + H_TH]!,
    TC = I32[h + H_TC]!,
    TO = I32[h + H_TO]!,
    TBY = I32[h + H_TBY]!,
    TSG = I32[h + H_TSG]!,
    GV = I32[h + H_GV]!,
    TV = I32[h + H_TV]!,
    MG = I32[h + H_MG]!;
  for (let k = 0; k < NTR; k++) {
    if (U8[GV + I32[TRL + k]!] !== TRUE) continue;
    const x = v[I32[TSL + k]!]!,
      size = I32[TSZ + k]!,
      base = I32[TB + k]!;
    let head = I32[TH + k]!,
      count = I32[TC + k]!;
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

/** Node `k` starts over (its rule's guard stopped holding, or an episode starts). */
export function clearTrend(h: number, k: number): void {
  const TH = I32[h + H_TH]!,
    TC = I32[h + H_TC]!;
  I32[TH + k] = I32[TC + k] = 0;
}
