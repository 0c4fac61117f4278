import type { NdArray, Observation } from '../../protocol/ndarray.js';

/** What a policy says about itself on connect (the metadata handshake). */
export interface PolicyMetadata {
  /** Stable identity of the policy, e.g. `embedded-bc` or `pi05_libero`. */
  readonly policyId: string;
  /** Changes whenever the weights change; batches never mix versions. */
  readonly modelVersion: string;
  /** Action chunk horizon H of `(H, D)`. */
  readonly actionHorizon: number;
  /** Action dimension D of `(H, D)`. */
  readonly actionDim: number;
  /** Observation keys the policy reads. */
  readonly observationKeys: readonly string[];
  /** Anything else the backend wants to publish (must be msgpack-able). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Per-call timings a backend reports, in milliseconds. */
export type Timing = Record<string, number>;

export interface PolicyResult {
  /** float32 action chunk of shape (H, D). */
  readonly actions: NdArray<'<f4'>;
  readonly policyTiming: Timing;
}

/**
 * A frozen policy: anything that maps a batch of observations to action chunks.
 * Implemented by ONNX models, remote servers (ZeroMQ, openpi WebSocket) and test backends.
 */
export interface Policy {
  metadata(): Promise<PolicyMetadata>;
  /** One result per observation, in order. */
  infer(batch: readonly Observation[]): Promise<PolicyResult[]>;
  close(): Promise<void>;
}
