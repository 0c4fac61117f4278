// The msgpack of the two messages of every control step, read and written directly. The generic
// codec (msgpackr, then a walk that turns maps into objects and ndarray maps into typed views)
// runs with its code cold at a robot's 20 Hz and costs tens of microseconds for a handful of
// fields; these readers know the layout Zetta's own peers write. They only ever take the common
// case: a message laid out any other way (binary keys as openpi writes them, an unknown or
// repeated field, a wide integer, trailing bytes) returns null and goes to the generic codec,
// which decides. What they read is what the generic codec reads (tests/zinfra/hot-wire.test.ts).
import { ndarrayFromWire } from './codec.js';
import type { NdArray } from './ndarray.js';

/** A map, string or ndarray value read from the wire; null for anything the generic codec must judge. */
type Value = string | number | boolean | Uint8Array | NdArray | readonly number[] | { readonly [key: string]: Value };

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
  const fields: Record<string, unknown> = {};
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
