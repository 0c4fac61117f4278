// Where a rule table's arrays live: slices of three process-wide arenas, addressed by integer
// offsets. Each table file that reads them makes its own views of these buffers, as module-local
// `const`s that it does not export, and reads them from module-level functions.
//
// Why: V8 compiles an access to a typed array it knows as a constant (a module-local `const`, read
// by a module-level function) as one load, while an access to a typed array held in a variable or
// field re-checks its map and reloads its base, offset and length after every store in a loop
// (measured on Node 20: ~5× slower for these loops). An imported or exported binding lives in a
// module cell, loaded at every use: ~2× slower in such a loop, for a typed array or a number
// constant alike. Hence each hot file's own views, truth values and header layout, none exported.
//
// Slices go back to the free lists (arena.ts) when their table is garbage-collected; a table that
// does not fit evaluates every rule through its closures instead (closures.ts).
import { ARENA_F64, ARENA_I32, ARENA_U8, alloc, type ArenaLease } from '../arena.js';

export const F64_BUFFER = new ArrayBuffer(ARENA_F64 * Float64Array.BYTES_PER_ELEMENT);
export const I32_BUFFER = new ArrayBuffer(ARENA_I32 * Int32Array.BYTES_PER_ELEMENT);
export const U8_BUFFER = new ArrayBuffer(ARENA_U8);

const F64 = new Float64Array(F64_BUFFER);
const I32 = new Int32Array(I32_BUFFER);
const U8 = new Uint8Array(U8_BUFFER);

type Kind = 'f64' | 'i32' | 'u8';

/**
 * Allocates one table's slices under one lease, each holding `init` (or that many zeros), and
 * returns their start offsets. A slice that does not fit clears `fits` and reads as offset 0; the
 * caller then releases the lease and falls back to the closures.
 */
export class Slices {
  fits = true;

  constructor(readonly lease: ArenaLease) {}

  f64(init: ArrayLike<number> | number): number {
    return this.put('f64', init);
  }

  i32(init: ArrayLike<number> | number): number {
    return this.put('i32', init);
  }

  u8(init: ArrayLike<number> | number): number {
    return this.put('u8', init);
  }

  /** One slice for every node's `sizes[k]` entries; each node's absolute start offset. */
  pool(kind: Kind, sizes: readonly number[]): number[] {
    let total = 0;
    const starts = sizes.map((s) => ((total += s), total - s));
    const at = this.put(kind, total);
    return starts.map((s) => at + s);
  }

  private put(kind: Kind, init: ArrayLike<number> | number): number {
    const size = typeof init === 'number' ? init : init.length;
    const at = alloc(this.lease, kind, size);
    if (at < 0) return ((this.fits = false), 0);
    const arr = kind === 'f64' ? F64 : kind === 'i32' ? I32 : U8;
    if (typeof init === 'number') arr.fill(0, at, at + size);
    else arr.set(init, at);
    return at;
  }
}

/** The result arrays of a table, as views of its slices (a caller may keep them; see assemble.ts). */
export function resultViews(
  status: number,
  margins: number,
  nanRules: number,
  n: number,
): { status: Uint8Array; margins: Float64Array; nanRules: Int32Array } {
  return {
    status: U8.subarray(status, status + n),
    margins: F64.subarray(margins, margins + n),
    nanRules: I32.subarray(nanRules, nanRules + n),
  };
}

/** Running sums from 0: the start of each of `sizes`' ranges, then the end of the last. */
export function prefix(sizes: readonly number[]): number[] {
  let acc = 0;
  return [0, ...sizes.map((x) => (acc += x))];
}
