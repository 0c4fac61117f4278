// The msgpack of the messages of every control step, read and written directly. The generic codec
// (msgpackr, with a walk that turns maps into objects and ndarray maps into typed views, and back)
// runs with its code cold at a robot's 20 Hz and costs tens of microseconds for a handful of
// fields; this reader and writer know the layout Zetta's own peers use: str keys, scalars, str-keyed
// maps, ndarrays. They only ever take that common case: anything else (binary keys as openpi writes
// them, a repeated field, 64-bit integers, NaN, trailing bytes, a list) returns null and goes to
// the generic codec, which decides. They read and write what the generic codec reads
// (tests/protocol/hot-wire.test.ts).
import { ndarrayFromWire } from './codec.js';
import { isNdArray, type NdArray } from './ndarray.js';

/** What the reader gives: scalars, ndarrays and str-keyed maps of them, as the generic codec gives them. */
type Value = string | number | boolean | Uint8Array | NdArray | { readonly [key: string]: Value };

const utf8 = new TextDecoder('utf-8', { fatal: true });

class Reader {
  pos = 0;
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.pos === this.bytes.length;
  }

  /** Entries of a map header, or -1 if the next value is not a map. */
  mapHeader(): number {
    const b = this.bytes[this.pos];
    if (b === undefined) return -1;
    if (b >= 0x80 && b <= 0x8f) return this.skip(1, b & 0x0f) ?? -1;
    if (b === 0xde) return this.skip(3, this.u16(1)) ?? -1;
    return -1;
  }

  /** A map key: a str, or null (binary keys are the generic codec's). */
  key(): string | null {
    const v = this.scalar();
    return typeof v === 'string' ? v : null;
  }

  /** The next scalar: str, bin, bool, int within 32 bits or float; null for anything else. */
  scalar(): string | number | boolean | Uint8Array | null {
    const b = this.bytes[this.pos];
    if (b === undefined) return null;
    if (b <= 0x7f) return this.skip(1, b);
    if (b >= 0xe0) return this.skip(1, b - 0x100);
    if (b >= 0xa0 && b <= 0xbf) return this.str(1, b & 0x1f);
    switch (b) {
      case 0xc2:
        return this.skip(1, false);
      case 0xc3:
        return this.skip(1, true);
      case 0xc4:
        return this.bin(2, this.u8(1));
      case 0xc5:
        return this.bin(3, this.u16(1));
      case 0xc6:
        return this.bin(5, this.u32(1));
      case 0xca:
        return this.fits(5) ? this.skip(5, this.view.getFloat32(this.pos + 1)) : null;
      case 0xcb:
        return this.fits(9) ? this.skip(9, this.view.getFloat64(this.pos + 1)) : null;
      case 0xcc:
        return this.skip(2, this.u8(1));
      case 0xcd:
        return this.skip(3, this.u16(1));
      case 0xce:
        return this.skip(5, this.u32(1));
      case 0xd0:
        return this.fits(2) ? this.skip(2, this.view.getInt8(this.pos + 1)) : null;
      case 0xd1:
        return this.fits(3) ? this.skip(3, this.view.getInt16(this.pos + 1)) : null;
      case 0xd2:
        return this.fits(5) ? this.skip(5, this.view.getInt32(this.pos + 1)) : null;
      case 0xd9:
        return this.str(2, this.u8(1));
      case 0xda:
        return this.str(3, this.u16(1));
      default:
        return null;
    }
  }

  /** A short array of numbers (an ndarray's shape), or null. */
  numbers(): number[] | null {
    const b = this.bytes[this.pos];
    if (b === undefined || b < 0x90 || b > 0x9f) return null;
    this.pos++;
    const out: number[] = [];
    for (let i = 0; i < (b & 0x0f); i++) {
      const v = this.scalar();
      if (typeof v !== 'number') return null;
      out.push(v);
    }
    return out;
  }

  private fits(n: number): boolean {
    return this.pos + n <= this.bytes.length;
  }

  private skip<T>(n: number, value: T): T | null {
    if (!this.fits(n) || Number.isNaN(value)) return null;
    this.pos += n;
    return value;
  }

  private u8(at: number): number {
    return this.fits(at + 1) ? this.bytes[this.pos + at]! : Number.NaN;
  }

  private u16(at: number): number {
    return this.fits(at + 2) ? this.view.getUint16(this.pos + at) : Number.NaN;
  }

  private u32(at: number): number {
    return this.fits(at + 4) ? this.view.getUint32(this.pos + at) : Number.NaN;
  }

  private str(header: number, length: number): string | null {
    if (Number.isNaN(length) || !this.fits(header + length)) return null;
    const start = this.pos + header;
    this.pos = start + length;
    try {
      return utf8.decode(this.bytes.subarray(start, start + length));
    } catch {
      return null;
    }
  }

  private bin(header: number, length: number): Uint8Array | null {
    if (Number.isNaN(length) || !this.fits(header + length)) return null;
    const start = this.pos + header;
    this.pos = start + length;
    return this.bytes.subarray(start, start + length);
  }
}

/**
 * A map of str keys to scalars, ndarrays or nested maps, depth-limited; null for anything else.
 * An ndarray map is exactly `__ndarray__: true, data, dtype, shape`, in any order.
 */
function readMap(r: Reader, depth: number): { [key: string]: Value } | null {
  const n = r.mapHeader();
  if (n < 0 || depth > 2) return null;
  const out: { [key: string]: Value } = Object.create(null) as { [key: string]: Value };
  for (let i = 0; i < n; i++) {
    const key = r.key();
    // an `__ndarray__` key makes the generic codec read the map as an array: its call
    if (key === null || key === '__ndarray__' || key in out) return null;
    const b = r.bytes[r.pos];
    const value = b !== undefined && ((b >= 0x80 && b <= 0x8f) || b === 0xde) ? readMapOrNdArray(r, depth + 1) : r.scalar();
    if (value === null) return null;
    out[key] = value;
  }
  return out;
}

function readMapOrNdArray(r: Reader, depth: number): Value | null {
  const start = r.pos;
  const n = r.mapHeader();
  if (n !== 4) {
    r.pos = start;
    return readMap(r, depth);
  }
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>; // a "__proto__" key stays a key
  for (let i = 0; i < 4; i++) {
    const key = r.key();
    if (key === null) return null;
    const value = key === 'shape' ? r.numbers() : r.scalar();
    if (value === null || key in fields) return null;
    fields[key] = value;
  }
  if (fields.__ndarray__ === true && 'data' in fields && 'dtype' in fields && 'shape' in fields) {
    try {
      return ndarrayFromWire(fields);
    } catch {
      return null; // a malformed array: the generic codec words the error
    }
  }
  r.pos = start;
  return readMap(r, depth);
}

/**
 * Reads a whole message laid out as Zetta writes its hot messages: a map of str keys whose values are
 * scalars, str-keyed maps or ndarrays. Null for anything else, or for bytes left over.
 */
export function readHotMessage(bytes: Uint8Array): { [key: string]: Value } | null {
  const r = new Reader(bytes);
  const m = readMap(r, 0);
  return m !== null && r.done ? m : null;
}

/** Deepest nesting of maps the writer takes (a message, its observation, an array's map, and room). */
const MAX_WRITE_DEPTH = 4;

/** With the u flag a surrogate pair is one code point: only a lone surrogate matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const isInt = (v: number): boolean => Number.isInteger(v) && !Object.is(v, -0) && v >= -(2 ** 31) && v <= 0xffff_ffff;
/** An integer msgpack writes in the type byte itself (positive or negative fixint). */
const isFixInt = (v: number): boolean => (v >= 0 && v < 128) || (v < 0 && v >= -32);
const strHeader = (n: number): number => (n < 32 ? 1 : n < 256 ? 2 : n < 65536 ? 3 : 5);
const binHeader = (n: number): number => (n < 256 ? 2 : n < 65536 ? 3 : 5);
const mapHeader = (n: number): number => (n < 16 ? 1 : n < 65536 ? 3 : -1);

/** Bytes `value` takes, or -1 if the writer does not take it. */
function sizeOf(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string': {
      if (LONE_SURROGATE.test(value)) return -1; // a lone surrogate: how to write it is the generic codec's call
      const n = Buffer.byteLength(value, 'utf8');
      return strHeader(n) + n;
    }
    case 'number':
      if (isInt(value)) return isFixInt(value) ? 1 : 5;
      // wider integers (and -0) are the generic codec's: a Python peer must read an int as an int
      return Number.isFinite(value) && !Number.isInteger(value) ? 9 : -1;
    case 'boolean':
      return 1;
    case 'object':
      break;
    default:
      return -1;
  }
  if (value === null || depth > MAX_WRITE_DEPTH || Array.isArray(value) || ArrayBuffer.isView(value)) return -1;
  if (isNdArray(value)) {
    if (value.shape.length > 15 || !value.shape.every((d) => isInt(d) && d >= 0)) return -1;
    const n = value.data.byteLength;
    return (
      1 +
      (1 + 11 + 1) +
      (1 + 4 + binHeader(n) + n) +
      sizeOf('dtype', 0) +
      sizeOf(value.dtype, 0) +
      (1 + 5) +
      1 +
      value.shape.reduce((sum, d) => sum + sizeOf(d, 0), 0)
    );
  }
  let size = 0;
  let entries = 0;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue; // the generic codec leaves undefined fields out too
    if (key === '__ndarray__') return -1; // it would make the map read as an array
    const k = sizeOf(key, 0);
    const x = sizeOf(v, depth + 1);
    if (x < 0) return -1;
    size += k + x;
    entries++;
  }
  const header = mapHeader(entries);
  return header < 0 ? -1 : header + size;
}

class Writer {
  pos = 0;
  private readonly view: DataView;

  constructor(readonly out: Buffer) {
    this.view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  }

  value(v: unknown): void {
    if (typeof v === 'string') return this.str(v);
    if (typeof v === 'number') return this.num(v);
    if (typeof v === 'boolean') return void (this.out[this.pos++] = v ? 0xc3 : 0xc2);
    if (isNdArray(v)) return this.ndarray(v);
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined);
    this.map(keys.length);
    for (const k of keys) {
      this.str(k);
      this.value(o[k]);
    }
  }

  private ndarray(a: NdArray): void {
    this.map(4);
    this.str('__ndarray__');
    this.out[this.pos++] = 0xc3;
    this.str('data');
    const bytes = new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength);
    const n = bytes.byteLength;
    if (n < 256) this.head(0xc4, 1, n);
    else if (n < 65536) this.head(0xc5, 2, n);
    else this.head(0xc6, 4, n);
    this.out.set(bytes, this.pos);
    this.pos += n;
    this.str('dtype');
    this.str(a.dtype);
    this.str('shape');
    this.out[this.pos++] = 0x90 | a.shape.length;
    for (const d of a.shape) this.num(d);
  }

  private map(n: number): void {
    if (n < 16) this.out[this.pos++] = 0x80 | n;
    else this.head(0xde, 2, n);
  }

  private str(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    if (n < 32) this.out[this.pos++] = 0xa0 | n;
    else if (n < 256) this.head(0xd9, 1, n);
    else if (n < 65536) this.head(0xda, 2, n);
    else this.head(0xdb, 4, n);
    this.pos += this.out.write(s, this.pos, n, 'utf8');
  }

  private num(v: number): void {
    if (!isInt(v)) {
      this.out[this.pos++] = 0xcb;
      this.view.setFloat64(this.pos, v);
      this.pos += 8;
    } else if (isFixInt(v)) this.out[this.pos++] = v & 0xff;
    else if (v >= 0) this.head(0xce, 4, v);
    else {
      this.out[this.pos++] = 0xd2;
      this.view.setInt32(this.pos, v);
      this.pos += 4;
    }
  }

  private head(code: number, width: 1 | 2 | 4, n: number): void {
    this.out[this.pos++] = code;
    if (width === 1) this.out[this.pos] = n;
    else if (width === 2) this.view.setUint16(this.pos, n);
    else this.view.setUint32(this.pos, n);
    this.pos += width;
  }
}

/**
 * Writes `message` as msgpack into `target` when it fits (the result is then a view of it), else
 * into a fresh buffer; null if the message is not one the writer takes (the generic codec then
 * writes it).
 */
export function writeHotMessage(message: unknown, target?: Buffer): Buffer | null {
  if (typeof message !== 'object') return null;
  const size = sizeOf(message, 0);
  if (size < 0) return null;
  const out = target && target.byteLength >= size ? target.subarray(0, size) : Buffer.allocUnsafe(size);
  const w = new Writer(out);
  w.value(message);
  return w.pos === size ? out : null;
}
