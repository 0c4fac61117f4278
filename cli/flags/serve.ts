// Flags of the policy server: what it serves, where, and how it batches.
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../zinfra/policy/zmq/server.js';
import { parsePort, portRange } from '../../util/tcp-port.js';
import { UsageError } from '../command.js';
import { int, loaded, text } from './flag.js';
import { MAX_DELAY_MS } from './table.js';

export const onnx = text('onnx', { metavar: 'FILE', help: 'the model to serve (required)' }).required('--onnx FILE is required');

/** Checked here: ZeroMQ would bind tcp://HOST:99999 to another port (99999 mod 65536) without a word. */
export const bind = loaded('bind', {
  metavar: 'ENDPOINT',
  help: 'tcp://HOST:PORT or ipc://PATH; port 0 picks one',
  parse: (value): string => {
    if (/^ipc:\/\/\S+$/.test(value)) return value;
    const m = /^tcp:\/\/([^/\s]+):([^:/\s]*)$/.exec(value);
    if (!m) throw new UsageError(`--bind must be tcp://HOST:PORT or ipc://PATH, got "${value}"`);
    if (parsePort(m[2]!, true) === undefined)
      throw new UsageError(`--bind ${value}: the port must be an integer from ${portRange(true)}, got "${m[2]}"`);
    return value;
  },
}).default('tcp://127.0.0.1:5555');

export const openpiWs = loaded('openpi-ws', {
  metavar: 'HOST:PORT',
  help: "also serve openpi's WebSocket protocol there, for openpi clients (port 0 picks one)",
  parse: (value): { host: string; port: number } => {
    const m = /^([^:\s]+):(\d+)$/.exec(value);
    const port = m ? parsePort(m[2]!, true) : undefined;
    if (port === undefined) throw new UsageError(`--openpi-ws must be HOST:PORT with a port from ${portRange(true)}, got "${value}"`);
    return { host: m![1]!, port };
  },
});

export const maxBatch = int('max-batch', { metavar: 'N', min: 1, help: 'most observations per model call' }).default(32);

export const maxWaitMs = int('max-wait-ms', {
  metavar: 'MS',
  min: 0,
  max: MAX_DELAY_MS,
  help: 'how long a partial batch may wait for company',
}).default(0, '0: run when the model is free');

export const maxMessageBytes = int('max-message-bytes', {
  metavar: 'N',
  min: 1024,
  max: 1024 * 1024 * 1024,
  help: 'frames above this get a TOO_LARGE error',
}).default(DEFAULT_MAX_MESSAGE_BYTES);
