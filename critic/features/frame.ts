// A feature frame: one Float64Array slot per registered feature, preallocated once and refilled in
// place every step. Booleans are 0/1; a feature that is missing this step is NaN (never a made-up 0,
// so a rule can tell "false" from "unknown").
import { FEATURES, featureIndex } from './registry.js';

export class UnknownFeatureError extends Error {
  override readonly name = 'UnknownFeatureError';
}

export class FeatureFrame {
  /** Indexed by the registry order; see `FEATURES`. Read by compiled rules and tools. */
  readonly values: Float64Array;

  constructor() {
    this.values = new Float64Array(FEATURES.length).fill(Number.NaN);
  }

  /** Slot of a feature. Call at load time and keep the index; throws on an unknown name. */
  static index(name: string): number {
    const i = featureIndex(name);
    if (i < 0) throw new UnknownFeatureError(`unknown feature "${name}"`);
    return i;
  }

  /** By-name read for tests, logs and recorders; not for the hot path. */
  get(name: string): number {
    return this.values[FeatureFrame.index(name)]!;
  }

  /** By-name write for tests and replays; the FrameBuilder writes by index. */
  set(name: string, value: number | boolean): void {
    this.values[FeatureFrame.index(name)] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }

  clear(): void {
    this.values.fill(Number.NaN);
  }

  /** A name → value object (booleans stay 0/1), for recording and debugging. Allocates. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    FEATURES.forEach((f, i) => (out[f.name] = this.values[i]!));
    return out;
  }
}
