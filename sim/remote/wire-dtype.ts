// The dtype names an env server's spec may use. The wire's arrays carry numpy's canonical `dtype.str`
// ("<f4", "|u1", ...), but a spec is written by hand, and numpy accepts many spellings of the same
// dtype: "float32", "f4", "single" and "=f4" all mean "<f4" on a little-endian machine. Every
// spelling numpy maps to one of the wire's dtypes on every platform is accepted here and turned into
// the canonical name; a platform-dependent one ("long", "int", "l": 32 bits on some) and a dtype the
// wire does not carry (">f4", "float16") are refused with the list of what the wire allows.
import type { DType } from '../../protocol/ndarray.js';

/** Byte-order-free names (numpy's type names, type codes and sized codes) of each wire dtype. */
const SPELLINGS: Readonly<Record<DType, readonly string[]>> = {
  '<f4': ['float32', 'f4', 'f', 'single'],
  '<f8': ['float64', 'f8', 'd', 'double', 'float'],
  '|u1': ['uint8', 'u1', 'B', 'ubyte'],
  '|b1': ['bool', 'b1', '?', 'bool_'],
  '<i4': ['int32', 'i4', 'i', 'intc'],
  '<i8': ['int64', 'i8', 'q', 'longlong'],
};

const ONE_BYTE: ReadonlySet<DType> = new Set(['|u1', '|b1']);

const BY_NAME: ReadonlyMap<string, DType> = buildTable();

function buildTable(): Map<string, DType> {
  const table = new Map<string, DType>();
  for (const [canonical, names] of Object.entries(SPELLINGS) as [DType, readonly string[]][]) {
    table.set(canonical, canonical);
    // Codes take a byte order: "<", "=" (native, little-endian wherever Zetta runs) and "|" (numpy
    // reads it as native) always, ">" only where byte order means nothing (one-byte types).
    const orders = ONE_BYTE.has(canonical) ? ['<', '=', '|', '>'] : ['<', '=', '|'];
    for (const name of names) {
      table.set(name, canonical);
      if (/^[a-zA-Z?]\d*$/.test(name)) for (const order of orders) table.set(`${order}${name}`, canonical);
    }
  }
  return table;
}

/** The wire's dtype for a spelling numpy accepts, or undefined when the wire does not carry it. */
export function canonicalWireDType(name: string): DType | undefined {
  return BY_NAME.get(name);
}

/** Every accepted spelling, canonical first for each dtype: for tests and the error message. */
export function wireDTypeSpellings(): ReadonlyMap<string, DType> {
  return BY_NAME;
}

/** The sentence a refused spelling gets. */
export function wireDTypeHint(): string {
  const each = (Object.entries(SPELLINGS) as [DType, readonly string[]][]).map(([c, names]) => `${c} (${names[0]})`);
  return `the wire carries little-endian ${each.join(', ')}; numpy's other names for these are accepted too`;
}
