// First-fit allocation of slices of the rule tables' process-wide arenas (their buffers live in
// table/storage.ts; see there for why). Offsets only: the caller zeroes or fills what it gets. A
// lease's slices are freed together when its owner is collected.
export const ARENA_F64 = 1 << 18; // entries: 2 MiB
export const ARENA_I32 = 1 << 18; // 1 MiB
export const ARENA_U8 = 1 << 18; // 256 KiB

class FreeList {
  /** Free [start, end) ranges, sorted by start, non-adjacent. */
  private readonly free: [number, number][];

  constructor(cap: number) {
    this.free = [[0, cap]];
  }

  alloc(size: number): number {
    if (size === 0) return 0;
    for (let k = 0; k < this.free.length; k++) {
      const r = this.free[k]!;
      if (r[1] - r[0] < size) continue;
      const at = r[0];
      r[0] += size;
      if (r[0] === r[1]) this.free.splice(k, 1);
      return at;
    }
    return -1;
  }

  release(at: number, size: number): void {
    if (size === 0) return;
    const f = this.free;
    let k = 0;
    while (k < f.length && f[k]![0] < at) k++;
    f.splice(k, 0, [at, at + size]);
    // Merge with the neighbours.
    if (k + 1 < f.length && f[k]![1] === f[k + 1]![0]) f.splice(k, 2, [f[k]![0], f[k + 1]![1]]);
    if (k > 0 && f[k - 1]![1] === f[k]![0]) f.splice(k - 1, 2, [f[k - 1]![0], f[k]![1]]);
  }
}

const lists = { f64: new FreeList(ARENA_F64), i32: new FreeList(ARENA_I32), u8: new FreeList(ARENA_U8) };
type Kind = keyof typeof lists;

/** The slices one table holds: freed together, when the table is collected. */
export interface ArenaLease {
  readonly slices: [Kind, number, number][];
  /** Owners not yet collected. */
  owners: number;
}

const registry = new FinalizationRegistry<ArenaLease>((l) => {
  if (--l.owners === 0) releaseAll(l);
});

export function lease(): ArenaLease {
  return { slices: [], owners: 0 };
}

/** The lease's slices are freed once every object bound to it has been garbage-collected. */
export function bindLease(owner: object, l: ArenaLease): void {
  l.owners++;
  registry.register(owner, l);
}

/** Allocates `size` entries of `kind`; the start offset, or −1 if the arena is full. */
export function alloc(l: ArenaLease, kind: Kind, size: number): number {
  const at = lists[kind].alloc(size);
  if (at < 0) return -1;
  l.slices.push([kind, at, size]);
  return at;
}

/** Frees every slice of a lease (a table that could not be completed, or a collected one). */
export function releaseAll(l: ArenaLease): void {
  for (const [kind, at, size] of l.slices) lists[kind].release(at, size);
  l.slices.length = 0;
}
