// The transport benchmark: one LIBERO-sized observation (two 224×224×3 images, an 8-float state, a
// prompt) out, one (10, 7) chunk back, through each transport in the same run, interleaved round by
// round so that machine noise falls on all of them alike.
//
// Every transport serves the same MLP (8→256→256→70): ONNX in Node, numpy in the Python shim, so the
// differences are the transports'. Servers run in their own processes, as they are deployed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PolicyClient } from '../policy/client.js';
import { randomMlp, writeMlpNpz, writeMlpOnnx } from '../policy/mlp-onnx.js';
import { OpenpiWebsocketPolicy } from '../policy/openpi-ws-policy.js';
import { startPythonPolicyServer } from '../policy/python-server-process.js';
import { encodeMessage } from '../protocol/messages.js';
import { f32, u8, type Observation } from '../protocol/ndarray.js';
import { startNodePolicyServer, type NodeServerProcess } from './node-server-process.js';
import { summarize, type Summary } from './stats.js';

export interface TransportBenchOptions {
  readonly iterations: number;
  readonly warmup: number;
  /** Include the Python shim (needs Debian's python3 with zmq, msgpack, numpy). */
  readonly python: boolean;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface TransportBenchResult {
  payload_bytes: number;
  iterations: number;
  zmq_p50_us: number;
  zmq_p99_us: number;
  zmq_ipc_p50_us: number;
  zmq_ipc_p99_us: number;
  python_p50_us: number | null;
  python_p99_us: number | null;
  ws_p50_us: number;
  ws_p99_us: number;
  /** ws_p50 / zmq_p50, both over TCP loopback. */
  ratio_p50: number;
  summaries_us: Record<string, Summary>;
  python_skipped?: string;
}

interface Transport {
  readonly name: string;
  roundTrip(obs: Observation, step: number): Promise<void>;
  close(): Promise<void>;
}

const HORIZON = 10;
const ACTION_DIM = 7;
const STATE_KEY = 'observation/state';

export function liberoObservation(seed = 1): Observation {
  const image = new Uint8Array(224 * 224 * 3);
  for (let i = 0; i < image.length; i++) image[i] = (i * 31 + seed) & 0xff;
  const wrist = image.slice().reverse();
  const state = Float32Array.from({ length: 8 }, (_, i) => Math.sin(i + seed) * 0.3);
  return {
    'observation/image': u8([224, 224, 3], image),
    'observation/wrist_image': u8([224, 224, 3], wrist),
    'observation/state': f32([8], state),
    prompt: 'put the red cube in the bowl',
  };
}

export async function benchTransport(options: TransportBenchOptions): Promise<TransportBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-bench-'));
  const transports: Transport[] = [];
  const servers: NodeServerProcess[] = [];
  try {
    const weights = randomMlp({ inputDim: 8, hidden: [256, 256], horizon: HORIZON, actionDim: ACTION_DIM, seed: 3 });
    const onnxPath = join(dir, 'mlp.onnx');
    writeMlpOnnx(onnxPath, weights, { inputName: STATE_KEY, policyId: 'bench-mlp' });
    // One server process serves ZeroMQ and the WebSocket baseline alike; a second serves ipc://.
    const tcpServer = await startNodePolicyServer(['--onnx', onnxPath, '--bind', 'tcp://127.0.0.1:0', '--openpi-ws', '127.0.0.1:0']);
    servers.push(tcpServer);
    const ipcServer = await startNodePolicyServer(['--onnx', onnxPath, '--bind', `ipc://${join(dir, 'node.sock')}`]);
    servers.push(ipcServer);
    transports.push(await zmqTransport('zmq', tcpServer));
    transports.push(await zmqTransport('zmq_ipc', ipcServer));
    transports.push(await wsTransport(tcpServer));
    let pythonSkipped: string | undefined;
    if (options.python) {
      const npzPath = join(dir, 'mlp.npz');
      writeMlpNpz(npzPath, weights, STATE_KEY);
      try {
        transports.push(await pythonTransport(npzPath, `ipc://${join(dir, 'python.sock')}`));
      } catch (err) {
        pythonSkipped = (err as Error).message.split('\n')[0];
      }
    } else pythonSkipped = 'disabled with --no-python';

    const samples = await measure(transports, options);
    const us = (name: string) => summarize(samples.get(name) ?? []);
    const zmq = us('zmq');
    const ws = us('ws');
    const ipc = us('zmq_ipc');
    const py = samples.has('python') ? us('python') : null;
    const summaries: Record<string, Summary> = {};
    for (const name of samples.keys()) summaries[name] = us(name);
    return {
      payload_bytes: observationPayloadBytes(liberoObservation()),
      iterations: options.iterations,
      zmq_p50_us: zmq.p50,
      zmq_p99_us: zmq.p99,
      zmq_ipc_p50_us: ipc.p50,
      zmq_ipc_p99_us: ipc.p99,
      python_p50_us: py?.p50 ?? null,
      python_p99_us: py?.p99 ?? null,
      ws_p50_us: ws.p50,
      ws_p99_us: ws.p99,
      ratio_p50: ws.p50 / zmq.p50,
      summaries_us: summaries,
      ...(pythonSkipped ? { python_skipped: pythonSkipped } : {}),
    };
  } finally {
    for (const t of transports) await t.close().catch(() => undefined);
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Interleaved rounds: each round times one round trip per transport, in rotating order. */
async function measure(transports: Transport[], options: TransportBenchOptions): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(transports.map((t) => [t.name, []]));
  const total = options.warmup + options.iterations;
  const observations = [liberoObservation(1), liberoObservation(2)];
  for (let round = 0; round < total; round++) {
    for (let k = 0; k < transports.length; k++) {
      const t = transports[(round + k) % transports.length]!;
      const obs = observations[round % 2]!;
      const start = process.hrtime.bigint();
      await t.roundTrip(obs, round);
      const elapsedUs = Number(process.hrtime.bigint() - start) / 1000;
      if (round >= options.warmup) samples.get(t.name)!.push(elapsedUs);
    }
    options.onProgress?.(round + 1, total);
  }
  return samples;
}

async function zmqTransport(name: string, server: NodeServerProcess): Promise<Transport> {
  const client = await PolicyClient.connect({ endpoint: server.endpoint, timeoutMs: 10_000 });
  return {
    name,
    roundTrip: async (obs, step) => {
      await client.request(obs, { episodeId: 'bench', step, deadlineMs: 5000 });
    },
    close: () => client.close(),
  };
}

async function pythonTransport(npzPath: string, bind: string): Promise<Transport> {
  const server = await startPythonPolicyServer({ policy: `npz-mlp:${npzPath}`, bind });
  const client = await PolicyClient.connect({ endpoint: server.endpoint, timeoutMs: 10_000 });
  return {
    name: 'python',
    roundTrip: async (obs, step) => {
      await client.request(obs, { episodeId: 'bench', step, deadlineMs: 5000 });
    },
    close: async () => {
      await client.close();
      await server.stop();
    },
  };
}

async function wsTransport(server: NodeServerProcess): Promise<Transport> {
  const client = new OpenpiWebsocketPolicy(`ws://127.0.0.1:${server.openpiWsPort}`, { healthCheck: false });
  await client.connect();
  return {
    name: 'ws',
    roundTrip: async (obs) => {
      await client.infer([obs]);
    },
    close: () => client.close(),
  };
}

function observationPayloadBytes(obs: Observation): number {
  return encodeMessage({ type: 'infer', id: 1, session_id: 'bench', episode_id: 'bench', step: 0, deadline_ms: 5000, obs }).byteLength;
}
