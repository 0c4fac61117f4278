// A frame layout: the critic's own features first (the same slots in every world), then the
// features the world's schema declares, in its order. Fixed when a bundle loads: every name a rule,
// a guard or a recovery program reads is resolved to a slot here, once.
import type { FeatureSchema } from '../../protocol/feature-schema.js';
import { featureKey } from '../../protocol/feature-schema.js';
import { CRITIC_FEATURES, type FeatureSpec } from './registry.js';

/** A world feature's place in the frame, and where the world's frames carry it. */
export interface WorldSlot {
  readonly slot: number;
  readonly key: string;
  readonly privileged: boolean;
}

export class FeatureLayout {
  /** Every feature, in frame order: a feature's index here is its slot. */
  readonly features: readonly FeatureSpec[];
  /** The world's features with their slots, in schema order. */
  readonly world: readonly WorldSlot[];
  private readonly byName: ReadonlyMap<string, number>;

  constructor(readonly schema: FeatureSchema) {
    const own = new Set(CRITIC_FEATURES.map((f) => f.name));
    const seen = new Set<string>();
    for (const f of schema.features) {
      if (own.has(f.name)) throw new Error(`world "${schema.world}" declares "${f.name}", which is one of the critic's own features`);
      if (seen.has(f.name)) throw new Error(`world "${schema.world}" declares the feature "${f.name}" twice`);
      seen.add(f.name);
    }
    this.features = Object.freeze([
      ...CRITIC_FEATURES,
      ...schema.features.map((f) => ({ name: f.name, unit: f.unit, kind: f.kind, meaning: f.meaning, source: f.provenance })),
    ]);
    this.byName = new Map(this.features.map((f, i) => [f.name, i]));
    this.world = schema.features.map((f, i) => ({
      slot: CRITIC_FEATURES.length + i,
      key: featureKey(f),
      privileged: f.provenance === 'privileged',
    }));
  }

  get worldName(): string {
    return this.schema.world;
  }

  get size(): number {
    return this.features.length;
  }

  /** Slot of `name`, or −1. Load time only: the hot path works with slots. */
  index(name: string): number {
    return this.byName.get(name) ?? -1;
  }

  spec(name: string): FeatureSpec | undefined {
    const i = this.byName.get(name);
    return i === undefined ? undefined : this.features[i];
  }

  isPrivileged(name: string): boolean {
    return this.spec(name)?.source === 'privileged';
  }

  /** The known names closest to `name` (edit distance), for "did you mean" messages. */
  nearest(name: string, count = 3): string[] {
    return this.features
      .map((f) => ({ name: f.name, d: editDistance(name, f.name) }))
      .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
      .slice(0, count)
      .map((x) => x.name);
  }
}

const LAYOUTS = new WeakMap<FeatureSchema, FeatureLayout>();

/** The layout of a world's schema, built once per schema. */
export function layoutFor(schema: FeatureSchema): FeatureLayout {
  let layout = LAYOUTS.get(schema);
  if (!layout) {
    layout = new FeatureLayout(schema);
    LAYOUTS.set(schema, layout);
  }
  return layout;
}

/** A layout with the critic's own features only (no world): for tests and tools that need no world. */
export const CRITIC_ONLY_LAYOUT = new FeatureLayout({ world: 'none', features: [] });

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}
