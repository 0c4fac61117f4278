// Sliding-window maxima for windows longer than SCAN_MAX (stagnant.ts, windows.ts): the monotonic
// deque of mono-deque.ts, kept in the arenas. A deque is a record in I32 (its offset names it) over
// a ring of values and the steps they were observed at, both in F64. For a minimum, push −x.
import type { Slices } from './storage.js';
import { F64_BUFFER, I32_BUFFER } from './storage.js';

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);

/** Record fields: values at (F64), steps at (F64), capacity, head, size. */
const D_VALS = 0,
  D_SEQS = 1,
  D_CAP = 2,
  D_HEAD = 3,
  D_SIZE = 4,
  D_REC = 5;

/** Allocates a deque per capacity (window + 1); the record offset of each. */
export function layDeques(s: Slices, caps: readonly number[]): number[] {
  const vals = s.pool('f64', caps),
    seqs = s.pool('f64', caps),
    recs = s.i32(D_REC * caps.length);
  if (!s.fits) return caps.map(() => 0);
  return caps.map((cap, d) => {
    const rec = recs + D_REC * d;
    I32[rec + D_VALS] = vals[d]!;
    I32[rec + D_SEQS] = seqs[d]!;
    I32[rec + D_CAP] = cap;
    return rec;
  });
}

/** Deque `rec`: empty. */
export function dqClear(rec: number): void {
  I32[rec + D_HEAD] = I32[rec + D_SIZE] = 0;
}

/** Deque `rec`: drops values observed before step `minSeq`. */
export function dqExpire(rec: number, minSeq: number): void {
  const seqs = I32[rec + D_SEQS]!,
    cap = I32[rec + D_CAP]!;
  let head = I32[rec + D_HEAD]!,
    size = I32[rec + D_SIZE]!;
  while (size > 0 && F64[seqs + head]! < minSeq) {
    head = head + 1 === cap ? 0 : head + 1;
    size--;
  }
  I32[rec + D_HEAD] = head;
  I32[rec + D_SIZE] = size;
}

/** Deque `rec`: adds `x` observed at step `seq`, dropping values not above it (never the max again). */
export function dqPush(rec: number, seq: number, x: number): void {
  const vals = I32[rec + D_VALS]!,
    cap = I32[rec + D_CAP]!,
    head = I32[rec + D_HEAD]!;
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

/** Deque `rec`: the maximum in the window, or −Infinity when empty. */
export function dqMax(rec: number): number {
  return I32[rec + D_SIZE]! > 0 ? F64[I32[rec + D_VALS]! + I32[rec + D_HEAD]!]! : -Infinity;
}
