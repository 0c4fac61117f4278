// Phase 1: every distinct comparison of the set, grouped by op, one loop per op. Their results are
// the first operands of the register file.
import type { Comparison } from './shape.js';
import { F64_BUFFER, I32_BUFFER, U8_BUFFER, type Slices } from './storage.js';
import type { Registers } from './types.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

// Header: truth and margin registers, feature slots, thresholds, then where each op's run starts
// (op codes of truth.ts: lt, le, gt, ge, eq, ne) and where the last ends.
const H_TV = 0,
  H_MG = 1,
  H_LS = 2,
  H_LT = 3,
  H_LT0 = 4,
  H_LE0 = 5,
  H_GT0 = 6,
  H_GE0 = 7,
  H_EQ0 = 8,
  H_NE0 = 9,
  H_END0 = 10;
const H_SIZE = 11;

/** Lays the comparisons (sorted by op: operand k is comparison k) out; the offset of their header. */
export function layComparisons(s: Slices, reg: Registers, leaves: readonly Comparison[]): number {
  const hv: number[] = new Array(H_SIZE).fill(0);
  hv[H_TV] = reg.tv;
  hv[H_MG] = reg.mg;
  hv[H_LS] = s.i32(leaves.map((l) => l.slot));
  hv[H_LT] = s.f64(leaves.map((l) => l.t));
  for (let op = 0; op <= 6; op++) hv[H_LT0 + op] = leaves.filter((l) => l.op < op).length;
  return s.i32(hv);
}

/** Every comparison. Truth without a branch: (holds) | (NaN) << 1, so TRUE 1, FALSE 0, UNKNOWN 2
 * (NaN makes every comparison false and every margin NaN). Leaves flip with the data, and a branch
 * per leaf would be mispredicted as often as they do. */
export function evalComparisons(h: number, v: Float64Array): void {
  const LS = I32[h + H_LS]!,
    LT = I32[h + H_LT]!,
    MG = I32[h + H_MG]!,
    TV = I32[h + H_TV]!,
    LT0 = I32[h + H_LT0]!,
    LE0 = I32[h + H_LE0]!,
    GT0 = I32[h + H_GT0]!,
    GE0 = I32[h + H_GE0]!,
    EQ0 = I32[h + H_EQ0]!,
    NE0 = I32[h + H_NE0]!,
    END0 = I32[h + H_END0]!;
  for (let k = LT0; k < LE0; k++) {
    const x = v[I32[LS + k]!]!,
      th = F64[LT + k]!;
    F64[MG + k] = x - th;
    U8[TV + k] = +(x < th) | (+(x !== x) << 1);
  }
  for (let k = LE0; k < GT0; k++) {
    const x = v[I32[LS + k]!]!,
      th = F64[LT + k]!;
    F64[MG + k] = x - th;
    U8[TV + k] = +(x <= th) | (+(x !== x) << 1);
  }
  for (let k = GT0; k < GE0; k++) {
    const x = v[I32[LS + k]!]!,
      th = F64[LT + k]!;
    F64[MG + k] = th - x;
    U8[TV + k] = +(x > th) | (+(x !== x) << 1);
  }
  for (let k = GE0; k < EQ0; k++) {
    const x = v[I32[LS + k]!]!,
      th = F64[LT + k]!;
    F64[MG + k] = th - x;
    U8[TV + k] = +(x >= th) | (+(x !== x) << 1);
  }
  for (let k = EQ0; k < NE0; k++) {
    const x = v[I32[LS + k]!]!,
      th = F64[LT + k]!;
    F64[MG + k] = Math.abs(x - th);
    U8[TV + k] = +(x === th) | (+(x !== x) << 1);
  }
  for (let k = NE0; k < END0; k++) {
    const x = v[I32[LS + k]!]!,
      th = F64[LT + k]!;
    const nan = +(x !== x);
    F64[MG + k] = -Math.abs(x - th);
    U8[TV + k] = (+(x !== th) & (nan ^ 1)) | (nan << 1); // NaN !== th holds: masked off
  }
}
