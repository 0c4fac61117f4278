// `zmq://HOST:PORT` (or `zmq+ipc:///path`) names a remote env server, with optional settings in the
// query: `socket=req|dealer`, `timeout_ms` (spec, step, close) and `reset_timeout_ms` (a reset may
// build a simulator, and it is also where a restarted server is waited for). Both are decimal
// integers from 1 to MAX_TIMEOUT_MS, and the port from 1 to 65535: Node's timers turn a delay above
// 2^31 − 1 ms into 1 ms, and ZeroMQ connects to port 99999 mod 65536, both without a word.
import { parseDecimalInt } from '../../util/decimal-int.js';
import { parsePort, portRange } from '../../util/tcp-port.js';
import { SimInputError } from '../errors.js';

export interface RemoteEnvEndpoint {
  /** What the user wrote without the query: the world's name (`zmq://127.0.0.1:5555`). */
  readonly spec: string;
  /** What ZeroMQ connects to: `tcp://HOST:PORT` or `ipc:///path`. */
  readonly address: string;
  readonly socket: 'req' | 'dealer';
  readonly timeoutMs: number;
  readonly resetTimeoutMs: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RESET_TIMEOUT_MS = 60_000;
/** The longest timeout_ms or reset_timeout_ms: a day (Node's timers hold up to about 24.8 days). */
export const MAX_TIMEOUT_MS = 86_400_000;

/** A remote env spec, as `--env` or `--world` take it. */
export function isRemoteEnvSpec(spec: string): boolean {
  return /^zmq(\+ipc)?:\/\//i.test(spec);
}

export function parseEndpoint(text: string): RemoteEnvEndpoint {
  const [spec = '', query = ''] = text.split('?', 2);
  const usage = `expected zmq://HOST:PORT or zmq+ipc:///PATH, optionally ?socket=req|dealer&timeout_ms=N&reset_timeout_ms=N`;
  let address: string;
  const tcp = /^zmq:\/\/([^/:\s]+):(\d+)$/i.exec(spec);
  const ipc = /^zmq\+ipc:\/\/(\/\S+)$/i.exec(spec);
  if (tcp && parsePort(tcp[2]!, false) === undefined)
    throw new SimInputError(`env "${text}": the port must be an integer from ${portRange(false)}, got "${tcp[2]}"`);
  if (tcp) address = `tcp://${tcp[1]}:${tcp[2]}`;
  else if (ipc) address = `ipc://${ipc[1]}`;
  else throw new SimInputError(`env "${text}": ${usage}`);
  const params = new URLSearchParams(query);
  for (const key of params.keys()) {
    if (!['socket', 'timeout_ms', 'reset_timeout_ms'].includes(key))
      throw new SimInputError(`env "${text}": unknown setting "${key}"; ${usage}`);
  }
  const socket = params.get('socket') ?? 'req';
  if (socket !== 'req' && socket !== 'dealer') throw new SimInputError(`env "${text}": socket must be req or dealer, got "${socket}"`);
  return {
    spec,
    address,
    socket,
    timeoutMs: milliseconds(text, params, 'timeout_ms', DEFAULT_TIMEOUT_MS),
    resetTimeoutMs: milliseconds(text, params, 'reset_timeout_ms', DEFAULT_RESET_TIMEOUT_MS),
  };
}

function milliseconds(text: string, params: URLSearchParams, key: string, fallback: number): number {
  const raw = params.get(key);
  if (raw === null) return fallback;
  const n = parseDecimalInt(raw);
  if (n === undefined || n < 1 || n > MAX_TIMEOUT_MS)
    throw new SimInputError(`env "${text}": ${key} must be an integer from 1 to ${MAX_TIMEOUT_MS} (ms), got "${raw}"`);
  return n;
}
