// Copies a world's features into their frame slots each step. Privileged ones are copied only when
// the run authorizes them (NaN otherwise); a feature the world's frame lacks this step reads NaN; a
// name the schema does not declare (the world's own bookkeeping, its success flag) is ignored.
//
// Two input shapes, because worlds differ: a names/values frame (the embedded suite's `features()`,
// a remote env's message) or a plain record `{ "observed.object_x": 0.4, … }`. Names are resolved
// once per names array (compared by identity, so a world that reuses its array costs nothing).
import type { FeatureValues } from '../../protocol/feature-schema.js';
import type { FeatureLayout } from './layout.js';

export type FeatureRecord = Readonly<Record<string, number | boolean>>;
export type WorldFeatureInput = FeatureValues | FeatureRecord;

export class WorldFeatureReader {
  /** The slots this reader fills (privileged ones only when authorized). */
  private readonly slots: Int32Array;
  private readonly keys: readonly string[];
  private readonly byKey: ReadonlyMap<string, number>;
  private names: readonly string[] | null = null;
  private map = new Int32Array(0);

  constructor(layout: FeatureLayout, authorized: boolean) {
    const read = layout.world.filter((w) => authorized || !w.privileged);
    this.slots = Int32Array.from(read.map((w) => w.slot));
    this.keys = read.map((w) => w.key);
    this.byKey = new Map(read.map((w) => [w.key, w.slot]));
    // Unauthorized privileged slots are never written: they stay NaN from the frame's own clear.
  }

  /** All of this reader's slots NaN (no features this step). */
  clear(v: Float64Array): void {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) v[slots[i]!] = Number.NaN;
  }

  read(v: Float64Array, input: WorldFeatureInput | null | undefined): void {
    if (!input) this.clear(v);
    else if (isValues(input)) this.readValues(v, input);
    else this.readRecord(v, input);
  }

  private readRecord(v: Float64Array, input: FeatureRecord): void {
    const slots = this.slots;
    const keys = this.keys;
    for (let i = 0; i < slots.length; i++) {
      const x = input[keys[i]!];
      v[slots[i]!] = typeof x === 'number' ? x : typeof x === 'boolean' ? (x ? 1 : 0) : Number.NaN;
    }
  }

  private readValues(v: Float64Array, input: FeatureValues): void {
    if (input.names !== this.names) this.resolve(input.names);
    this.clear(v);
    const map = this.map;
    const values = input.values;
    for (let i = 0; i < map.length; i++) if (map[i]! >= 0) v[map[i]!] = values[i]!;
  }

  /** Index in the world's names → frame slot (−1: not read). Runs when the names array changes. */
  private resolve(names: readonly string[]): void {
    this.names = names;
    this.map = Int32Array.from(names.map((n) => this.byKey.get(n) ?? -1));
  }
}

function isValues(input: WorldFeatureInput): input is FeatureValues {
  return Array.isArray((input as FeatureValues).names) && typeof (input as FeatureValues).values === 'object';
}
