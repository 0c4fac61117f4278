// Text from the skill store on its way to a terminal. Reasons, names and descriptions are whatever
// someone stored (a reason typed into the console, a campaign copied from elsewhere), and a
// terminal obeys control characters: ESC ] 0 ; … BEL retitles the window, other escapes move the
// cursor, recolour or hide text, and a newline could forge an audit line. Every control character
// (C0, DEL, C1) and every bidirectional override is shown as an escape instead (ESC as \x1b).
// JSON output needs none of this: JSON.stringify already escapes control characters.

// C0 controls, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character and bidi override written as an escape. */
export function forTerminal(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A copy of `value` with forTerminal applied to every string in it (object keys included). */
export function forTerminalDeep<T>(value: T): T {
  if (typeof value === 'string') return forTerminal(value) as T;
  if (Array.isArray(value)) return value.map((v) => forTerminalDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [forTerminal(k), forTerminalDeep(v)])) as T;
  }
  return value;
}
