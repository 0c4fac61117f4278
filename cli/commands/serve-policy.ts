// `zetta serve-policy`: serve an ONNX policy over ZeroMQ (and optionally openpi's WebSocket) until interrupted.
import { loadOnnxFile } from '../../zinfra/policy/open-policy.js';
import { OpenpiWebsocketServer } from '../../zinfra/policy/openpi-ws/server.js';
import { PolicyServer } from '../../zinfra/policy/zmq/server.js';
import { printJsonLine, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { bind, maxBatch, maxMessageBytes, maxWaitMs, onnx, openpiWs } from '../flags/serve.js';
import { json } from '../flags/table.js';

const FLAGS = {
  onnx,
  bind,
  openpiWs,
  maxBatch,
  maxWaitMs,
  maxMessageBytes,
  json: json.with({ help: 'once ready print {"endpoint", "openpi_ws_port"?, "policy"} as one JSON line; stats on exit' }),
};

const HELP = `usage: zetta serve-policy --onnx FILE [--bind ENDPOINT] [--openpi-ws HOST:PORT]
                          [--max-batch N] [--max-wait-ms MS] [--max-message-bytes N] [--json]

Serves an ONNX policy with the Zetta protocol (ZeroMQ ROUTER; see protocol/PROTOCOL.md).
Each ONNX input is fed the observation key of the same name; the output \`actions\` is (batch, H, D).
Requests that queue while the model runs are served together as one batch.

${flagHelp(FLAGS)}

Stops on SIGINT or SIGTERM, answering queued requests with SHUTTING_DOWN.`;

export const servePolicyCommand: Command = {
  name: 'serve-policy',
  summary: 'serve a policy (ONNX) over ZeroMQ, and optionally openpi WebSocket',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const policy = await loadOnnxFile(f.onnx);
    const server = await PolicyServer.start(policy, {
      bind: f.bind,
      maxBatch: f.maxBatch,
      maxWaitMs: f.maxWaitMs,
      maxMessageBytes: f.maxMessageBytes,
    });
    const openpiAddress = f.openpiWs;
    const openpi = openpiAddress ? new OpenpiWebsocketServer(policy, { maxMessageBytes: f.maxMessageBytes }) : undefined;
    const openpiPort = openpi ? await openpi.start(openpiAddress) : undefined;
    const meta = await policy.metadata();
    if (f.json)
      printJsonLine({ endpoint: server.endpoint, ...(openpiPort === undefined ? {} : { openpi_ws_port: openpiPort }), policy: meta });
    else {
      const ws = openpiPort === undefined ? '' : ` and openpi-ws://${openpiAddress!.host}:${openpiPort}`;
      process.stdout.write(
        `serving ${meta.policyId} (${meta.modelVersion}, chunk ${meta.actionHorizon}×${meta.actionDim}) on ${server.endpoint}${ws}\n`,
      );
    }
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await openpi?.close();
    await server.close();
    await policy.close();
    if (f.json) printJsonLine({ stopped: true, stats: { ...server.stats, scheduler: server.scheduler.stats } });
    else process.stderr.write(`stopped after ${server.stats.requests} requests in ${server.scheduler.stats.batches} batches\n`);
    return 0;
  },
};
