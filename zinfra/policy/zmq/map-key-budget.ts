// How many map keys a msgpack frame holds, counted from its headers before anything is decoded. An
// observation has a few dozen keys; a frame with hundreds of thousands (each cheap to send) would
// keep the event loop busy building and validating them while every other client waits. This walk
// reads only headers and skips strings, binaries and extensions by their length, so its cost is
// the number of values, and it stops at the first key over the budget.

/** Map keys one request may hold, all maps together. */
export const DEFAULT_MAX_MAP_KEYS = 4096;

/**
 * The number of map keys in `bytes` when it is within `budget`; `budget + 1` as soon as it is not.
 * A malformed or truncated frame returns what it counted so far: the decoder reports it properly.
 */
export function countMapKeys(bytes: Uint8Array, budget: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  let pending = 1; // values still to read
  let keys = 0;
  while (pending > 0 && pos < bytes.length) {
    pending--;
    const b = bytes[pos++]!;
    let children = 0;
    let skip = 0;
    if (b <= 0x7f || b >= 0xe0 || (b >= 0xc0 && b <= 0xc3)) skip = 0;
    else if (b <= 0x8f) children = 2 * (b & 0x0f);
    else if (b <= 0x9f) children = b & 0x0f;
    else if (b <= 0xbf) skip = b & 0x1f;
    else {
      const r = lengthOf(b, view, pos);
      if (r === undefined) return keys;
      pos += r.header;
      skip = r.skip;
      children = r.children;
    }
    // more values declared than bytes left to hold them (each takes one at least): a malformed or
    // truncated frame, not a large one; the decoder says MALFORMED
    if (children > bytes.length - pos) return keys;
    if (b >= 0x80 && b <= 0x8f) keys += b & 0x0f;
    else if (b === 0xde || b === 0xdf) keys += children / 2;
    if (keys > budget) return budget + 1;
    pos += skip;
    pending += children;
  }
  return keys;
}

/** Header bytes after the type byte, bytes to skip, and child values, of a non-fixed msgpack type. */
function lengthOf(b: number, view: DataView, pos: number): { header: number; skip: number; children: number } | undefined {
  const need = (n: number) => pos + n <= view.byteLength;
  const u8 = () => view.getUint8(pos);
  const u16 = () => view.getUint16(pos);
  const u32 = () => view.getUint32(pos);
  switch (b) {
    case 0xc4:
    case 0xd9:
      return need(1) ? { header: 1, skip: u8(), children: 0 } : undefined; // bin8, str8
    case 0xc5:
    case 0xda:
      return need(2) ? { header: 2, skip: u16(), children: 0 } : undefined; // bin16, str16
    case 0xc6:
    case 0xdb:
      return need(4) ? { header: 4, skip: u32(), children: 0 } : undefined; // bin32, str32
    case 0xc7:
      return need(1) ? { header: 1, skip: u8() + 1, children: 0 } : undefined; // ext8
    case 0xc8:
      return need(2) ? { header: 2, skip: u16() + 1, children: 0 } : undefined; // ext16
    case 0xc9:
      return need(4) ? { header: 4, skip: u32() + 1, children: 0 } : undefined; // ext32
    case 0xca:
    case 0xce:
    case 0xd2:
      return { header: 0, skip: 4, children: 0 }; // float32, uint32, int32
    case 0xcb:
    case 0xcf:
    case 0xd3:
      return { header: 0, skip: 8, children: 0 }; // float64, uint64, int64
    case 0xcc:
    case 0xd0:
      return { header: 0, skip: 1, children: 0 };
    case 0xcd:
    case 0xd1:
      return { header: 0, skip: 2, children: 0 };
    case 0xd4:
      return { header: 0, skip: 2, children: 0 }; // fixext1
    case 0xd5:
      return { header: 0, skip: 3, children: 0 };
    case 0xd6:
      return { header: 0, skip: 5, children: 0 };
    case 0xd7:
      return { header: 0, skip: 9, children: 0 };
    case 0xd8:
      return { header: 0, skip: 17, children: 0 };
    case 0xdc:
      return need(2) ? { header: 2, skip: 0, children: u16() } : undefined; // array16
    case 0xdd:
      return need(4) ? { header: 4, skip: 0, children: u32() } : undefined; // array32
    case 0xde:
      return need(2) ? { header: 2, skip: 0, children: 2 * u16() } : undefined; // map16
    case 0xdf:
      return need(4) ? { header: 4, skip: 0, children: 2 * u32() } : undefined; // map32
    default:
      return undefined; // 0xc1: never used
  }
}
