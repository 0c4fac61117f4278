// The trivial policies of the governance controls: `null:open` and `null:closed` hold still with the
// gripper open or closed, `null:random:SEED` moves at random. Under a critic they measure what the
// critic does alone: a bundle whose recoveries solve tasks for a policy that does nothing is a
// second expert, not governance.
//
// A random chunk depends only on the seed and the observation it answers (its numeric arrays), so
// the same episode gets the same actions in this thread, in a rollout worker or over the wire,
// whatever else is batched with it.
import { f32, isNdArray, type Observation } from '../../../protocol/ndarray.js';
import { mulberry32 } from '../../../util/seeded-random.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../policy.js';

export type TrivialKind = 'open' | 'closed' | 'random';

export interface TrivialPolicyOptions {
  readonly kind: TrivialKind;
  /** Seed of `random` (ignored by the others). */
  readonly seed?: number;
  readonly horizon?: number;
  readonly actionDim?: number;
}

/** The specs the governance controls try, in order: the best of them is the critic-alone arm. */
export const TRIVIAL_POLICY_SPECS = ['null:open', 'null:closed', 'null:random:0'] as const;

export class TrivialPolicy implements Policy {
  private readonly kind: TrivialKind;
  private readonly seed: number;
  private readonly horizon: number;
  private readonly actionDim: number;

  constructor(options: TrivialPolicyOptions) {
    this.kind = options.kind;
    this.seed = options.seed ?? 0;
    this.horizon = options.horizon ?? 10;
    this.actionDim = options.actionDim ?? 7;
    if (!Number.isSafeInteger(this.seed) || this.seed < 0)
      throw new RangeError(`null:random seed must be a non-negative integer, got ${this.seed}`);
  }

  async metadata(): Promise<PolicyMetadata> {
    return {
      policyId: `null-${this.kind}`,
      modelVersion: this.kind === 'random' ? `null-random-${this.seed}` : `null-${this.kind}`,
      actionHorizon: this.horizon,
      actionDim: this.actionDim,
      observationKeys: [],
    };
  }

  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    return batch.map((obs) => ({ actions: f32([this.horizon, this.actionDim], this.chunk(obs)), policyTiming: {} }));
  }

  async close(): Promise<void> {}

  private chunk(obs: Observation): Float32Array {
    const out = new Float32Array(this.horizon * this.actionDim);
    const grip = this.actionDim - 1;
    if (this.kind === 'random') {
      const next = mulberry32(observationHash(obs, this.seed));
      for (let i = 0; i < out.length; i++) out[i] = 2 * next() - 1;
      return out;
    }
    const g = this.kind === 'closed' ? 1 : -1;
    for (let t = 0; t < this.horizon; t++) out[t * this.actionDim + grip] = g;
    return out;
  }
}

/** FNV-1a over the seed, the keys and the bytes of every array of the observation (sorted keys). */
function observationHash(obs: Observation, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  const mix = (byte: number) => {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  };
  for (const key of Object.keys(obs).sort()) {
    const value = obs[key]!;
    if (!isNdArray(value)) continue;
    for (let i = 0; i < key.length; i++) mix(key.charCodeAt(i) & 0xff);
    const bytes = new Uint8Array(value.data.buffer, value.data.byteOffset, value.data.byteLength);
    for (let i = 0; i < bytes.length; i++) mix(bytes[i]!);
  }
  return h >>> 0;
}

/** `null:open` | `null:closed` | `null:random:SEED` → options; null for anything else. */
export function parseTrivialSpec(spec: string): TrivialPolicyOptions | null {
  if (spec === 'null:open') return { kind: 'open' };
  if (spec === 'null:closed') return { kind: 'closed' };
  const m = /^null:random:(\d+)$/.exec(spec);
  return m ? { kind: 'random', seed: Number(m[1]) } : null;
}
