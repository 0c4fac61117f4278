// What openpi's WebSocket messages contain, mapped to and from Zetta's types. openpi's protocol has
// no schema of its own: the metadata frame is whatever dict the server was given (usually `{}`), a
// request is the observation dict, and a reply is the policy's output dict plus `server_timing`.
import { ProtocolError } from '../../../protocol/errors.js';
import { isNdArray, type NdArray, type Observation } from '../../../protocol/ndarray.js';
import type { PolicyMetadata, Timing } from '../policy.js';

/** One openpi reply, read: actions as float32 (H, D), timings, and any other keys the policy returned. */
export interface OpenpiReply {
  readonly actions: NdArray<'<f4'>;
  readonly policyTiming: Timing;
  readonly serverTiming: Timing;
  /** Other keys of the reply (openpi policies may return e.g. `state`), as decoded. */
  readonly extra: Readonly<Record<string, unknown>>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v) && !isNdArray(v);

/**
 * Replaces numpy scalars (msgpack_numpy's `{__npgeneric__, data, dtype}`) by their value, recursively.
 * The codec knows arrays only; a Python policy may put `np.float32(...)` into metadata or timings.
 */
export function unwrapNumpyScalars(value: unknown, depth = 0): unknown {
  if (depth > 32 || !isRecord(value)) {
    return Array.isArray(value) ? value.map((v) => unwrapNumpyScalars(v, depth + 1)) : value;
  }
  if (value.__npgeneric__ !== undefined) return value.data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = unwrapNumpyScalars(v, depth + 1);
  return out;
}

function readTiming(value: unknown): Timing {
  const out: Timing = {};
  if (!isRecord(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  return out;
}

const NUMERIC_DTYPES = new Set(['<f4', '<f8', '<i4', '<i8']);

/** Reads `actions` as a finite float32 (H, D) chunk. openpi usually replies float64: converted here. */
export function readActions(value: unknown): NdArray<'<f4'> {
  if (!isNdArray(value)) throw new ProtocolError('MALFORMED', 'openpi reply has no `actions` array');
  const [h, d] = value.shape;
  if (value.shape.length !== 2 || !h || !d) {
    throw new ProtocolError('MALFORMED', `actions must be (H, D) with H, D > 0, got [${value.shape.join(', ')}]`);
  }
  if (!NUMERIC_DTYPES.has(value.dtype)) {
    throw new ProtocolError('MALFORMED', `actions have dtype ${value.dtype}, not a number type`);
  }
  const src = value.data;
  let data: Float32Array;
  if (src instanceof Float32Array) data = src;
  else if (src instanceof BigInt64Array) data = Float32Array.from(src, (x) => Number(x));
  else data = Float32Array.from(src as Float64Array | Int32Array);
  // Checked after the conversion: a float64 beyond float32's range becomes ±Inf here.
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i])) {
      throw new ProtocolError('NON_FINITE_ACTIONS', `actions contain a non-finite value at flat index ${i}`);
    }
  }
  return { dtype: '<f4', shape: [h, d], data };
}

/** Reads a decoded openpi reply `{actions, policy_timing?, server_timing?, ...}`. Throws ProtocolError only. */
export function readOpenpiReply(value: unknown): OpenpiReply {
  if (!isRecord(value)) throw new ProtocolError('MALFORMED', 'openpi reply is not a map');
  const { actions, policy_timing, server_timing, ...rest } = value;
  return {
    actions: readActions(actions),
    policyTiming: readTiming(unwrapNumpyScalars(policy_timing)),
    serverTiming: readTiming(unwrapNumpyScalars(server_timing)),
    extra: unwrapNumpyScalars(rest) as Record<string, unknown>,
  };
}

const positiveInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined);
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** The action shape an openpi metadata dict publishes, if it does (a Zetta-served policy does). */
export function metadataActionShape(raw: Readonly<Record<string, unknown>>): [number, number] | undefined {
  const h = positiveInt(raw.action_horizon);
  const d = positiveInt(raw.action_dim);
  return h !== undefined && d !== undefined ? [h, d] : undefined;
}

/**
 * Maps an openpi metadata dict to PolicyMetadata. openpi's serve_policy sends the train config's
 * `policy_metadata` (often `{}`), so every field has a fallback; the whole dict is kept in `extra`.
 * `shape` is the (H, D) known so far, or [0, 0] when not known yet.
 */
export function metadataFromOpenpi(
  raw: Readonly<Record<string, unknown>>,
  shape: readonly [number, number],
  policyIdOverride?: string,
): PolicyMetadata {
  const keys = raw.observation_keys;
  return {
    policyId: policyIdOverride ?? nonEmpty(raw.policy_id) ?? 'openpi',
    modelVersion: nonEmpty(raw.model_version) ?? 'unknown',
    actionHorizon: shape[0],
    actionDim: shape[1],
    observationKeys: Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [],
    extra: raw,
  };
}

/** The metadata frame a Zetta-served policy sends to openpi clients: openpi's dict, with Zetta's fields in snake_case. */
export function metadataToOpenpi(meta: PolicyMetadata, extra: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    ...(meta.extra ?? {}),
    ...extra,
    policy_id: meta.policyId,
    model_version: meta.modelVersion,
    action_horizon: meta.actionHorizon,
    action_dim: meta.actionDim,
    observation_keys: [...meta.observationKeys],
  };
}

/**
 * Reads a decoded openpi request as an Observation. openpi clients may nest dicts (ALOHA sends
 * `images: {cam_high: ...}`); Zetta observations are flat, so nested keys are joined with `/`.
 */
export function readObservation(value: unknown): Observation {
  if (!isRecord(value)) throw new ProtocolError('INVALID_OBSERVATION', 'the observation is not a map');
  const obs: Observation = {};
  flattenInto(obs, '', value, 0);
  return obs;
}

function flattenInto(obs: Record<string, NdArray | string>, prefix: string, map: Record<string, unknown>, depth: number): void {
  if (depth > 8) throw new ProtocolError('INVALID_OBSERVATION', 'the observation is nested too deeply');
  for (const [k, v] of Object.entries(map)) {
    const key = prefix + k;
    if (typeof v === 'string' || isNdArray(v)) obs[key] = v;
    else if (isRecord(v) && v.__npgeneric__ === undefined) flattenInto(obs, `${key}/`, v, depth + 1);
    else throw new ProtocolError('INVALID_OBSERVATION', `observation key "${key.slice(0, 128)}" is neither an array nor a string`);
  }
}
