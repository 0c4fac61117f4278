// A TCP port as written in an address (`tcp://HOST:PORT`, `zmq://HOST:PORT`, `--port P`). Without
// this check ZeroMQ and Node accept 99999 and quietly use another port (99999 mod 65536).
import { parseDecimalInt } from './decimal-int.js';

export const MAX_PORT = 65_535;

/**
 * The port `text` names, or undefined: decimal digits from 1 to 65535, or 0 where `anyFree` (a
 * listener asking the system for any free port; a connection to port 0 means nothing).
 */
export function parsePort(text: string, anyFree: boolean): number | undefined {
  const n = parseDecimalInt(text);
  if (n === undefined || n > MAX_PORT || n < (anyFree ? 0 : 1)) return undefined;
  return n;
}

/** What parsePort accepts, for error messages. */
export function portRange(anyFree: boolean): string {
  return anyFree ? `0 (any free port) to ${MAX_PORT}` : `1 to ${MAX_PORT}`;
}
