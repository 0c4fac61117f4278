// `zetta serve-policy`: serve an ONNX policy over ZeroMQ (and optionally openpi's WebSocket) until interrupted.
import { parseFlags, printJsonLine, intFlag, UsageError, type Command } from '../command.js';
import { loadOnnxFile } from '../../zinfra/policy/open-policy.js';
import { OpenpiWebsocketServer } from '../../zinfra/policy/openpi-ws/server.js';
import { PolicyServer, DEFAULT_MAX_MESSAGE_BYTES } from '../../zinfra/policy/zmq/server.js';

const HELP = `usage: zetta serve-policy --onnx FILE [--bind ENDPOINT] [--openpi-ws HOST:PORT]
                          [--max-batch N] [--max-wait-ms MS] [--max-message-bytes N] [--json]

Serves an ONNX policy with the Zetta protocol (ZeroMQ ROUTER; see zinfra/protocol/PROTOCOL.md).
Each ONNX input is fed the observation key of the same name; the output \`actions\` is (batch, H, D).
Requests that queue while the model runs are served together as one batch.

  --onnx FILE               the model to serve (required)
  --bind ENDPOINT           tcp://HOST:PORT or ipc://PATH (default tcp://127.0.0.1:5555; port 0 picks one)
  --openpi-ws HOST:PORT     also serve openpi's WebSocket protocol there, for openpi clients (port 0 picks one)
  --max-batch N             most observations per model call (default 32)
  --max-wait-ms MS          how long a partial batch may wait for company (default 0: run when the model is free)
  --max-message-bytes N     frames above this get a TOO_LARGE error (default ${DEFAULT_MAX_MESSAGE_BYTES})
  --json                    once ready print {"endpoint", "openpi_ws_port"?, "policy"} as one JSON line; stats on exit

Stops on SIGINT or SIGTERM, answering queued requests with SHUTTING_DOWN.`;

function parseHostPort(value: string): { host: string; port: number } {
  const m = /^([^:\s]+):(\d+)$/.exec(value);
  if (!m || Number(m[2]) > 65535) throw new UsageError(`--openpi-ws must be HOST:PORT, got "${value}"`);
  return { host: m[1]!, port: Number(m[2]) };
}

export const servePolicyCommand: Command = {
  name: 'serve-policy',
  summary: 'serve a policy (ONNX) over ZeroMQ, and optionally openpi WebSocket',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, {
      onnx: { type: 'string' },
      bind: { type: 'string', default: 'tcp://127.0.0.1:5555' },
      'openpi-ws': { type: 'string' },
      'max-batch': { type: 'string' },
      'max-wait-ms': { type: 'string' },
      'max-message-bytes': { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    if (!values.onnx) throw new UsageError('--onnx FILE is required');
    const openpiAddress = values['openpi-ws'] === undefined ? undefined : parseHostPort(values['openpi-ws']);
    const maxMessageBytes = intFlag(values['max-message-bytes'], 'max-message-bytes', DEFAULT_MAX_MESSAGE_BYTES, 1024);
    const policy = await loadOnnxFile(values.onnx);
    const server = await PolicyServer.start(policy, {
      bind: values.bind!,
      maxBatch: intFlag(values['max-batch'], 'max-batch', 32, 1),
      maxWaitMs: intFlag(values['max-wait-ms'], 'max-wait-ms', 0, 0),
      maxMessageBytes,
    });
    const openpi = openpiAddress ? new OpenpiWebsocketServer(policy, { maxMessageBytes }) : undefined;
    const openpiPort = openpi ? await openpi.start(openpiAddress) : undefined;
    const meta = await policy.metadata();
    if (values.json) printJsonLine({ endpoint: server.endpoint, ...(openpiPort === undefined ? {} : { openpi_ws_port: openpiPort }), policy: meta });
    else {
      const ws = openpiPort === undefined ? '' : ` and openpi-ws://${openpiAddress!.host}:${openpiPort}`;
      process.stdout.write(`serving ${meta.policyId} (${meta.modelVersion}, chunk ${meta.actionHorizon}×${meta.actionDim}) on ${server.endpoint}${ws}\n`);
    }
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await openpi?.close();
    await server.close();
    await policy.close();
    if (values.json) printJsonLine({ stopped: true, stats: { ...server.stats, scheduler: server.scheduler.stats } });
    else process.stderr.write(`stopped after ${server.stats.requests} requests in ${server.scheduler.stats.batches} batches\n`);
    return 0;
  },
};
