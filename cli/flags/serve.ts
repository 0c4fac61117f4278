// Flags of the policy server: what it serves, where, and how it batches.
import { DEFAULT_MAX_MESSAGE_BYTES } from '../../zinfra/policy/zmq/server.js';
import { UsageError } from '../command.js';
import { int, loaded, text } from './flag.js';

export const onnx = text('onnx', { metavar: 'FILE', help: 'the model to serve (required)' }).required('--onnx FILE is required');

export const bind = text('bind', { metavar: 'ENDPOINT', help: 'tcp://HOST:PORT or ipc://PATH; port 0 picks one' }).default(
  'tcp://127.0.0.1:5555',
);

export const openpiWs = loaded('openpi-ws', {
  metavar: 'HOST:PORT',
  help: "also serve openpi's WebSocket protocol there, for openpi clients (port 0 picks one)",
  parse: (value): { host: string; port: number } => {
    const m = /^([^:\s]+):(\d+)$/.exec(value);
    if (!m || Number(m[2]) > 65535) throw new UsageError(`--openpi-ws must be HOST:PORT, got "${value}"`);
    return { host: m[1]!, port: Number(m[2]) };
  },
});

export const maxBatch = int('max-batch', { metavar: 'N', min: 1, help: 'most observations per model call' }).default(32);

export const maxWaitMs = int('max-wait-ms', { metavar: 'MS', min: 0, help: 'how long a partial batch may wait for company' }).default(
  0,
  '0: run when the model is free',
);

export const maxMessageBytes = int('max-message-bytes', {
  metavar: 'N',
  min: 1024,
  help: 'frames above this get a TOO_LARGE error',
}).default(DEFAULT_MAX_MESSAGE_BYTES);
