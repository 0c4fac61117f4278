// A feature frame: one Float64Array slot per feature of its layout, preallocated once and refilled
// in place every step. Booleans are 0/1; a feature that is missing this step is NaN (never a made-up
// 0, so a rule can tell "false" from "unknown").
import { CRITIC_ONLY_LAYOUT, type FeatureLayout } from './layout.js';

export class UnknownFeatureError extends Error {
  override readonly name = 'UnknownFeatureError';
}

export class FeatureFrame {
  /** Indexed by the layout's order. Read by compiled rules and tools. */
  readonly values: Float64Array;

  constructor(readonly layout: FeatureLayout = CRITIC_ONLY_LAYOUT) {
    this.values = new Float64Array(layout.size).fill(Number.NaN);
  }

  /**
   * Slot of one of the critic's own features (the same in every layout). Call at load time and keep
   * the index; throws on a name that is not the critic's.
   */
  static index(name: string): number {
    const i = CRITIC_ONLY_LAYOUT.index(name);
    if (i < 0) throw new UnknownFeatureError(`unknown feature "${name}"`);
    return i;
  }

  /** Slot of any feature of this frame's layout; throws on an unknown name. */
  slot(name: string): number {
    const i = this.layout.index(name);
    if (i < 0) throw new UnknownFeatureError(`unknown feature "${name}" in world "${this.layout.worldName}"`);
    return i;
  }

  /** By-name read for tests, logs and recorders; not for the hot path. */
  get(name: string): number {
    return this.values[this.slot(name)]!;
  }

  /** By-name write for tests and replays; the FrameBuilder writes by index. */
  set(name: string, value: number | boolean): void {
    this.values[this.slot(name)] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }

  clear(): void {
    this.values.fill(Number.NaN);
  }

  /** A name → value object (booleans stay 0/1), for recording and debugging. Allocates. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    this.layout.features.forEach((f, i) => (out[f.name] = this.values[i]!));
    return out;
  }
}
