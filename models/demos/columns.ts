// Growable columns for demonstration arrays: rows are appended step by step, and an episode that
// is discarded is cut off again, so nothing is copied twice.

export class FloatColumn {
  private data: Float32Array;
  private rows = 0;

  constructor(
    readonly width: number,
    initialRows = 1024,
  ) {
    this.data = new Float32Array(width * initialRows);
  }

  get length(): number {
    return this.rows;
  }

  push(row: ArrayLike<number>): void {
    if (row.length !== this.width) throw new RangeError(`row of ${row.length} values in a column of width ${this.width}`);
    this.reserve(this.rows + 1);
    const o = this.rows * this.width;
    for (let i = 0; i < this.width; i++) this.data[o + i] = row[i]!;
    this.rows++;
  }

  truncate(rows: number): void {
    this.rows = Math.min(this.rows, rows);
  }

  /** The filled rows, exactly (a view: do not append afterwards). */
  values(): Float32Array {
    return this.data.subarray(0, this.rows * this.width);
  }

  private reserve(rows: number): void {
    if (rows * this.width <= this.data.length) return;
    const grown = new Float32Array(Math.max(rows, (this.data.length / this.width) * 2) * this.width);
    grown.set(this.data);
    this.data = grown;
  }
}

/** Integers (ids, steps, seeds), stored as int64 because that is numpy's default integer. */
export class IntColumn {
  private readonly items: number[] = [];

  get length(): number {
    return this.items.length;
  }

  push(v: number): void {
    this.items.push(v);
  }

  truncate(rows: number): void {
    this.items.length = Math.min(this.items.length, rows);
  }

  values(): BigInt64Array {
    return BigInt64Array.from(this.items, (v) => BigInt(v));
  }
}
