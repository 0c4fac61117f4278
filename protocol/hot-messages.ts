// The two messages of every control step, an infer request and its result, checked by hand before
// zod sees them. A robot asks every 50 ms, so each check runs with its code cold: then zod's
// generic machinery costs about 100 µs a message, these checks a few. They only ever accept: a
// message they are not sure of (a wrong type, an odd key, anything out of range) returns null and
// goes to the zod schema, which decides and words the error. Whatever they accept, the schema
// accepts with the same result (tests/protocol/hot-messages.test.ts holds them to that).
import { isNdArray, type NdArray, type Observation } from './ndarray.js';

/**
 * The shape of messages.ts's `InferRequest` (its zod schema's type), declared here so that this file
 * does not import the schemas it stands in front of; the compiler holds the two together there.
 */
export interface InferRequest {
  readonly type: 'infer';
  readonly id: number;
  readonly session_id: string;
  readonly episode_id: string;
  readonly step: number;
  readonly deadline_ms: number;
  readonly obs: Observation;
}

/** The shape of messages.ts's `ResultReply`. */
export interface ResultReply {
  readonly type: 'result';
  readonly id: number;
  readonly actions: NdArray;
  readonly policy_timing: Record<string, number>;
  readonly server_timing: Record<string, number>;
}

const MAX_ID = 0xffff_ffff;

const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= MAX_ID;
const isName = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 256;
/** A key zod copies onto a plain object differently from an assignment: left to zod. */
const isPlainKey = (k: string): boolean => k !== '__proto__';
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** An infer request, or null to let the schema decide. */
export function checkInfer(m: unknown): InferRequest | null {
  if (!isMap(m)) return null;
  if (m.type !== 'infer' || !isId(m.id) || !isName(m.session_id) || !isName(m.episode_id)) return null;
  if (!Number.isSafeInteger(m.step) || (m.step as number) < 0) return null;
  if (typeof m.deadline_ms !== 'number' || !(m.deadline_ms > 0) || !Number.isFinite(m.deadline_ms)) return null;
  const obs = checkObservation(m.obs);
  if (obs === null) return null;
  return {
    type: 'infer',
    id: m.id,
    session_id: m.session_id,
    episode_id: m.episode_id,
    step: m.step as number,
    deadline_ms: m.deadline_ms,
    obs,
  };
}

function checkObservation(v: unknown): Observation | null {
  if (!isMap(v)) return null;
  const out: Observation = {};
  for (const key of Object.keys(v)) {
    const x = v[key];
    if (!isPlainKey(key) || (typeof x !== 'string' && !isNdArray(x))) return null;
    out[key] = x;
  }
  return out;
}

/** A result reply, or null to let the schema decide. */
export function checkResult(m: unknown): ResultReply | null {
  if (!isMap(m)) return null;
  if (m.type !== 'result' || !isId(m.id)) return null;
  const actions = checkActionChunk(m.actions);
  const policyTiming = checkTiming(m.policy_timing);
  const serverTiming = checkTiming(m.server_timing);
  if (actions === null || policyTiming === null || serverTiming === null) return null;
  return { type: 'result', id: m.id, actions, policy_timing: policyTiming, server_timing: serverTiming };
}

/** A float32 (H, D) chunk whose every value is finite, or null. */
export function checkActionChunk(v: unknown): NdArray<'<f4'> | null {
  if (!isNdArray(v) || v.dtype !== '<f4' || v.shape.length !== 2) return null;
  const data = v.data as Float32Array;
  for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i])) return null;
  return v as NdArray<'<f4'>;
}

function checkTiming(v: unknown): Record<string, number> | null {
  if (!isMap(v)) return null;
  const out: Record<string, number> = {};
  for (const key of Object.keys(v)) {
    const x = v[key];
    if (!isPlainKey(key) || typeof x !== 'number' || !Number.isFinite(x)) return null;
    out[key] = x;
  }
  return out;
}
