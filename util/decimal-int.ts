// Integers as a person types them: plain decimal digits, an optional leading minus, nothing else.
// Number() would also read `1e9`, `0x10`, ` 7 ` and `1e20` (not a safe integer), which let a typo
// become a billion episodes or a seed that silently loses its low digits.

/** The integer `text` spells in decimal, or undefined (exponent, hex, `+`, spaces, fraction, unsafe). */
export function parseDecimalInt(text: string): number | undefined {
  // 16 digits bound the work; anything longer is past Number.MAX_SAFE_INTEGER anyway
  if (!/^-?\d{1,16}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}
