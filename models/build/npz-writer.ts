// Writes NumPy .npy (format 1.0) arrays and .npz archives (a zip of .npy files, stored without
// compression) so a Python peer reads them with `np.load` alone. Output is deterministic: fixed zip
// timestamps, entries in insertion order.
import { crc32 } from 'node:zlib';

/** One array to write. `U` is a 0-d or 1-d unicode string array (numpy `<U<n>`, UTF-32LE). */
export type NpyArray =
  | { readonly kind: 'f4'; readonly shape: readonly number[]; readonly data: Float32Array }
  | { readonly kind: 'f8'; readonly shape: readonly number[]; readonly data: Float64Array }
  | { readonly kind: 'i8'; readonly shape: readonly number[]; readonly data: BigInt64Array }
  | { readonly kind: 'U'; readonly shape: readonly []; readonly data: string };

const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]; // \x93NUMPY, version 1.0

function shapeLiteral(shape: readonly number[]): string {
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(', ')})`;
}

function payload(array: NpyArray): { descr: string; bytes: Uint8Array } {
  if (array.kind === 'U') {
    const codePoints = Array.from(array.data, (c) => c.codePointAt(0)!);
    const u32 = Uint32Array.from(codePoints);
    // numpy has no `<U0`; an empty string is stored as `<U1` holding a NUL.
    const width = Math.max(1, codePoints.length);
    const bytes = new Uint8Array(width * 4);
    bytes.set(new Uint8Array(u32.buffer));
    return { descr: `<U${width}`, bytes };
  }
  const n = array.shape.reduce((a, b) => a * b, 1);
  if (array.data.length !== n) {
    throw new RangeError(`npy: ${array.data.length} values do not fill shape ${shapeLiteral(array.shape)}`);
  }
  const d = array.data;
  return { descr: `<${array.kind}`, bytes: new Uint8Array(d.buffer, d.byteOffset, d.byteLength) };
}

/** One .npy file (format 1.0; header padded so the data starts on a 64-byte boundary). */
export function npyBytes(array: NpyArray): Uint8Array {
  const { descr, bytes } = payload(array);
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeLiteral(array.shape)}, }`;
  const unpadded = NPY_MAGIC.length + 2 + header.length + 1;
  header += `${' '.repeat((64 - (unpadded % 64)) % 64)}\n`;
  if (header.length > 0xffff) throw new RangeError('npy: header too long for format 1.0');
  const out = new Uint8Array(NPY_MAGIC.length + 2 + header.length + bytes.byteLength);
  out.set(NPY_MAGIC, 0);
  new DataView(out.buffer).setUint16(NPY_MAGIC.length, header.length, true);
  for (let i = 0; i < header.length; i++) out[NPY_MAGIC.length + 2 + i] = header.charCodeAt(i);
  out.set(bytes, NPY_MAGIC.length + 2 + header.length);
  return out;
}

// ---- zip (PKWARE APPNOTE 4.3.7): stored entries, no data descriptors, no zip64 ----

const DOS_DATE_1980_01_01 = (0 << 9) | (1 << 5) | 1;

interface ZipEntry {
  readonly name: Uint8Array;
  readonly data: Uint8Array;
  readonly crc: number;
  readonly offset: number;
}

function localHeader(e: ZipEntry): Uint8Array {
  const h = new Uint8Array(30 + e.name.byteLength);
  const v = new DataView(h.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint16(4, 20, true); // version needed: 2.0
  v.setUint16(10, 0, true); // time 00:00
  v.setUint16(12, DOS_DATE_1980_01_01, true);
  v.setUint32(14, e.crc, true);
  v.setUint32(18, e.data.byteLength, true); // compressed size = size (stored)
  v.setUint32(22, e.data.byteLength, true);
  v.setUint16(26, e.name.byteLength, true);
  h.set(e.name, 30);
  return h;
}

function centralHeader(e: ZipEntry): Uint8Array {
  const h = new Uint8Array(46 + e.name.byteLength);
  const v = new DataView(h.buffer);
  v.setUint32(0, 0x02014b50, true);
  v.setUint16(4, 20, true); // version made by
  v.setUint16(6, 20, true); // version needed
  v.setUint16(14, DOS_DATE_1980_01_01, true);
  v.setUint32(16, e.crc, true);
  v.setUint32(20, e.data.byteLength, true);
  v.setUint32(24, e.data.byteLength, true);
  v.setUint16(28, e.name.byteLength, true);
  v.setUint32(42, e.offset, true);
  h.set(e.name, 46);
  return h;
}

function endOfCentralDirectory(count: number, size: number, offset: number): Uint8Array {
  const h = new Uint8Array(22);
  const v = new DataView(h.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, count, true);
  v.setUint16(10, count, true);
  v.setUint32(12, size, true);
  v.setUint32(16, offset, true);
  return h;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.byteLength;
  }
  return out;
}

/** An .npz archive: each array becomes `<name>.npy`, stored uncompressed. */
export function npzBytes(arrays: Readonly<Record<string, NpyArray>>): Uint8Array {
  const encoder = new TextEncoder();
  const entries: ZipEntry[] = [];
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const [name, array] of Object.entries(arrays)) {
    const data = npyBytes(array);
    const entry = { name: encoder.encode(`${name}.npy`), data, crc: crc32(data) >>> 0, offset };
    const header = localHeader(entry);
    parts.push(header, data);
    entries.push(entry);
    offset += header.byteLength + data.byteLength;
  }
  if (entries.length > 0xffff || offset > 0xffffffff) throw new RangeError('npz: too large without zip64');
  const central = entries.map(centralHeader);
  const centralSize = central.reduce((n, c) => n + c.byteLength, 0);
  return concat([...parts, ...central, endOfCentralDirectory(entries.length, centralSize, offset)]);
}
