// msgpack encoding of protocol values, with arrays in the openpi `msgpack_numpy` convention.
//
// Decoding is total: any input either yields a plain value tree or throws a ProtocolError. Maps are
// decoded as JS Maps (msgpackr's object mode rejects binary keys) and normalized here: keys may
// arrive as str or bin, and a map carrying `__ndarray__` becomes an NdArray.
import { Packr, Unpackr } from 'msgpackr';
import { ProtocolError } from './errors.js';
import { DTYPE_BYTES, elementCount, isDType, isNdArray, type AnyTypedArray, type DType, type NdArray } from './ndarray.js';

/** How the keys of an array map are written: `str` (Zetta), or `bin` (openpi's msgpack_numpy looks up b"__ndarray__"). */
export type NdArrayKeyStyle = 'str' | 'bin';

export interface EncodeOptions {
  readonly ndarrayKeys?: NdArrayKeyStyle;
}

const MAX_DEPTH = 32;
const MAX_DIMS = 8;

// useRecords:false keeps the output plain msgpack that Python's msgpack reads.
const packr = new Packr({ useRecords: false, variableMapSize: true, encodeUndefinedAsNil: true });
const unpackr = new Unpackr({ useRecords: false, mapsAsObjects: false, int64AsType: 'number' });

const utf8 = new TextDecoder('utf-8', { fatal: true });
const binKey = (k: string): Uint8Array => Buffer.from(k, 'utf8');
const BIN_KEYS = {
  marker: binKey('__ndarray__'),
  data: binKey('data'),
  dtype: binKey('dtype'),
  shape: binKey('shape'),
};

function bytesOf(data: AnyTypedArray): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function encodeNdArray(a: NdArray, keys: NdArrayKeyStyle): unknown {
  const data = bytesOf(a.data);
  const shape = [...a.shape];
  if (keys === 'str') return { __ndarray__: true, data, dtype: a.dtype, shape };
  return new Map<Uint8Array, unknown>([
    [BIN_KEYS.marker, true],
    [BIN_KEYS.data, data],
    [BIN_KEYS.dtype, a.dtype],
    [BIN_KEYS.shape, shape],
  ]);
}

function toWire(value: unknown, keys: NdArrayKeyStyle, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new ProtocolError('MALFORMED', `value nested deeper than ${MAX_DEPTH} levels`);
  if (value === null || typeof value !== 'object') return value;
  if (isNdArray(value)) return encodeNdArray(value, keys);
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map((v) => toWire(v, keys, depth + 1));
  // no prototype: a "__proto__" key in user data (an episode's info) stays a key, not a prototype
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toWire(v, keys, depth + 1);
  return out;
}

/** Encodes a value tree (plain objects, arrays, strings, numbers, NdArrays) to msgpack. */
export function encode(value: unknown, options: EncodeOptions = {}): Buffer {
  return packr.pack(toWire(value, options.ndarrayKeys ?? 'str', 0));
}

const SCRATCH_BYTES = 16 * 1024;

/**
 * Encodes into `target` when the message fits (the result is then a view of it), else into a fresh
 * buffer. The encoder is moved off `target` before returning, so `target` may be reused once the
 * result has been consumed — that is what lets a client resend into the same memory instead of
 * allocating (and later collecting) a large buffer per request.
 */
export function encodeInto(value: unknown, target: Buffer, options: EncodeOptions = {}): Buffer {
  packr.useBuffer(target);
  try {
    return packr.pack(toWire(value, options.ndarrayKeys ?? 'str', 0));
  } finally {
    packr.useBuffer(Buffer.allocUnsafeSlow(SCRATCH_BYTES));
  }
}

/** Decodes msgpack to a plain value tree; NdArray maps become NdArrays. Throws ProtocolError only. */
export function decode(bytes: Uint8Array): unknown {
  let raw: unknown;
  try {
    raw = unpackr.unpack(bytes);
  } catch (err) {
    throw new ProtocolError('MALFORMED', `not valid msgpack: ${(err as Error).message}`);
  }
  return normalize(raw, 0);
}

/** Reads one top-level field of a map without validating the rest (to name a bad request in its error reply). */
export function peekField(bytes: Uint8Array, field: string): unknown {
  try {
    const raw: unknown = unpackr.unpack(bytes);
    if (!(raw instanceof Map)) return undefined;
    for (const [k, v] of raw) {
      if (k === field || (k instanceof Uint8Array && Buffer.from(k).toString('utf8') === field)) return v;
    }
  } catch {
    // not msgpack at all
  }
  return undefined;
}

function keyToString(key: unknown): string {
  if (typeof key === 'string') return key;
  if (key instanceof Uint8Array) {
    try {
      return utf8.decode(key);
    } catch {
      throw new ProtocolError('MALFORMED', 'a binary map key is not valid UTF-8');
    }
  }
  throw new ProtocolError('MALFORMED', `map keys must be str or bin, got ${typeof key}`);
}

function normalize(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new ProtocolError('MALFORMED', `message nested deeper than ${MAX_DEPTH} levels`);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map((v) => normalize(v, depth + 1));
  if (value instanceof Map) {
    const obj: Record<string, unknown> = Object.create(null);
    for (const [k, v] of value) obj[keyToString(k)] = v;
    if (obj.__ndarray__ !== undefined) return ndarrayFromWire(obj);
    for (const k of Object.keys(obj)) obj[k] = normalize(obj[k], depth + 1);
    return obj;
  }
  if (value === undefined) return null;
  throw new ProtocolError('MALFORMED', `unsupported msgpack value (${Object.prototype.toString.call(value)})`);
}

/** The NdArray an `__ndarray__` map describes; throws ProtocolError when it does not describe one. */
export function ndarrayFromWire(m: Record<string, unknown>): NdArray {
  const { data, dtype, shape } = m;
  if (!isDType(dtype)) throw new ProtocolError('MALFORMED', `unsupported ndarray dtype ${JSON.stringify(dtype)}`);
  if (!(data instanceof Uint8Array)) throw new ProtocolError('MALFORMED', 'ndarray data must be bytes');
  if (!Array.isArray(shape) || shape.length > MAX_DIMS) {
    throw new ProtocolError('MALFORMED', `ndarray shape must be a list of at most ${MAX_DIMS} sizes`);
  }
  const dims = shape.map(Number);
  if (!dims.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new ProtocolError('MALFORMED', `ndarray shape [${shape.join(', ')}] is not a list of non-negative integers`);
  }
  const expected = elementCount(dims) * DTYPE_BYTES[dtype];
  if (expected !== data.byteLength) {
    throw new ProtocolError(
      'MALFORMED',
      `ndarray of dtype ${dtype} and shape [${dims.join(', ')}] needs ${expected} bytes, got ${data.byteLength}`,
    );
  }
  return { dtype, shape: dims, data: typedView(dtype, data) } as NdArray;
}

/** Views the bytes as the dtype's typed array; copies only when the bytes are misaligned (msgpack gives no alignment). */
function typedView(dtype: DType, bytes: Uint8Array): AnyTypedArray {
  const size = DTYPE_BYTES[dtype];
  if (size === 1) return bytes;
  const aligned = bytes.byteOffset % size === 0 ? bytes : Uint8Array.prototype.slice.call(bytes);
  const n = aligned.byteLength / size;
  switch (dtype) {
    case '<i4':
      return new Int32Array(aligned.buffer, aligned.byteOffset, n);
    case '<i8':
      return new BigInt64Array(aligned.buffer, aligned.byteOffset, n);
    case '<f4':
      return new Float32Array(aligned.buffer, aligned.byteOffset, n);
    default:
      return new Float64Array(aligned.buffer, aligned.byteOffset, n);
  }
}
