// The transport benchmark: one LIBERO-sized observation (two 224×224×3 images, an 8-float state, a
// prompt) out, one (10, 7) chunk back, through each transport in the same run, interleaved round by
// round so that machine noise falls on all of them alike.
//
// Every transport serves the same MLP (8→256→256→70): ONNX in Node, numpy in the Python shim, so the
// differences are the transports'. Servers run in their own processes, as they are deployed.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild } from '../util/child-process.js';
import { startPythonPolicyServer } from '../zinfra/policy/python-shim/python-server-process.js';
import { startNodePolicyServer, type NodeServerProcess } from './node-server-process.js';
import { writeDemoMlp } from './demo-mlp.js';
import { encodeBenchRequest, liberoObservation } from './libero-observation.js';
import { countProcess, perRound, type Counts } from './process-counters.js';
import { summarize, type Summary } from '../measure/percentiles.js';
import type { ClientSpec, FromClient, ToClient } from './transport-client.js';

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
  /** A bare ZeroMQ echo of the same bytes, no Zetta code on either side: the machine's floor. */
  zmq_raw_p50_us: number;
  zmq_raw_p99_us: number;
  /** The same echo running the same model once per message: the floor plus the policy's own cost. */
  zmq_raw_model_p50_us: number;
  zmq_raw_model_p99_us: number;
  python_p50_us: number | null;
  python_p99_us: number | null;
  ws_p50_us: number;
  ws_p99_us: number;
  /** ws_p50 / zmq_p50, both over TCP loopback. */
  ratio_p50: number;
  /** zmq_p50 / zmq_raw_p50: Zetta over the bare ZeroMQ echo of the same bytes (1 = the floor). */
  zetta_over_floor_p50: number;
  zetta_over_floor_p99: number;
  /** zmq_p50 / zmq_raw_model_p50: Zetta's code alone, over the floor with the model's cost in it. */
  zetta_over_floor_with_model_p50: number;
  summaries_us: Record<string, Summary>;
  /** Per round trip and transport: the client's and the server's page faults and context switches, the client's V8 bytes. */
  counts_per_round: Record<string, { client: Counts | null; server: Counts | null }>;
  python_skipped?: string;
}

interface Transport {
  readonly name: string;
  /** The server's process, whose counts /proc tells. */
  readonly serverPid: number | undefined;
  /** One round trip; resolves to its duration in µs as the client measured it. */
  roundTrip(round: number): Promise<number>;
  /** Starts the client's counts (after the warm-up). */
  mark(): void;
  /** The client's counts since mark(). */
  counts(): Promise<Counts>;
  close(): Promise<void>;
}

const CLIENT_URL = new URL('./transport-client.js', import.meta.url);
const RAW_ECHO_URL = new URL('./raw-zmq-echo-server.js', import.meta.url);

export async function benchTransport(options: TransportBenchOptions): Promise<TransportBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-bench-'));
  const transports: Transport[] = [];
  const servers: NodeServerProcess[] = [];
  try {
    const { onnx: onnxPath, npz: npzPath } = writeDemoMlp(dir, { seed: 3, policyId: 'bench-mlp', npz: options.python });
    // One server process per transport: a server's collections, triggered by the frames it takes
    // in, must not land in another transport's samples.
    const tcpServer = await startNodePolicyServer(['--onnx', onnxPath, '--bind', 'tcp://127.0.0.1:0']);
    servers.push(tcpServer);
    const ipcServer = await startNodePolicyServer(['--onnx', onnxPath, '--bind', `ipc://${join(dir, 'node.sock')}`]);
    servers.push(ipcServer);
    const wsServer = await startNodePolicyServer([
      '--onnx',
      onnxPath,
      '--bind',
      `ipc://${join(dir, 'unused.sock')}`,
      '--openpi-ws',
      '127.0.0.1:0',
    ]);
    servers.push(wsServer);
    transports.push(await clientProcess('zmq', { kind: 'zmq', endpoint: tcpServer.endpoint }, tcpServer.process.pid));
    transports.push(await clientProcess('zmq_ipc', { kind: 'zmq', endpoint: ipcServer.endpoint }, ipcServer.process.pid));
    transports.push(await clientProcess('ws', { kind: 'ws', url: `ws://127.0.0.1:${wsServer.openpiWsPort}` }, wsServer.process.pid));
    const echo = await startRawEcho();
    transports.push(await clientProcess('zmq_raw', { kind: 'raw_zmq', endpoint: echo.endpoint }, echo.pid, echo.stop));
    const echoModel = await startRawEcho(onnxPath);
    transports.push(await clientProcess('zmq_raw_model', { kind: 'raw_zmq', endpoint: echoModel.endpoint }, echoModel.pid, echoModel.stop));
    let pythonSkipped: string | undefined;
    if (options.python) {
      try {
        const shim = await startPythonPolicyServer({ policy: `npz-mlp:${npzPath}`, bind: `ipc://${join(dir, 'python.sock')}` });
        transports.push(await clientProcess('python', { kind: 'zmq', endpoint: shim.endpoint }, shim.process.pid, () => shim.stop()));
      } catch (err) {
        pythonSkipped = (err as Error).message.split('\n')[0];
      }
    } else pythonSkipped = 'disabled with --no-python';

    const { samples, counts } = await measure(transports, options);
    const us = (name: string) => summarize(samples.get(name) ?? []);
    const zmq = us('zmq');
    const ws = us('ws');
    const ipc = us('zmq_ipc');
    const raw = us('zmq_raw');
    const rawModel = us('zmq_raw_model');
    const py = samples.has('python') ? us('python') : null;
    const summaries: Record<string, Summary> = {};
    for (const name of samples.keys()) summaries[name] = us(name);
    return {
      payload_bytes: encodeBenchRequest(liberoObservation()).byteLength,
      iterations: options.iterations,
      zmq_p50_us: zmq.p50,
      zmq_p99_us: zmq.p99,
      zmq_ipc_p50_us: ipc.p50,
      zmq_ipc_p99_us: ipc.p99,
      zmq_raw_p50_us: raw.p50,
      zmq_raw_p99_us: raw.p99,
      zmq_raw_model_p50_us: rawModel.p50,
      zmq_raw_model_p99_us: rawModel.p99,
      python_p50_us: py?.p50 ?? null,
      python_p99_us: py?.p99 ?? null,
      ws_p50_us: ws.p50,
      ws_p99_us: ws.p99,
      ratio_p50: ws.p50 / zmq.p50,
      zetta_over_floor_p50: zmq.p50 / raw.p50,
      zetta_over_floor_p99: zmq.p99 / raw.p99,
      zetta_over_floor_with_model_p50: zmq.p50 / rawModel.p50,
      summaries_us: summaries,
      counts_per_round: counts,
      ...(pythonSkipped ? { python_skipped: pythonSkipped } : {}),
    };
  } finally {
    for (const t of transports) await t.close().catch(() => undefined);
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Interleaved rounds: each round times one round trip per transport, in rotating order. The counts
 * start after the warm-up; each server's also cover the other transports' rounds, in which it is idle.
 */
async function measure(transports: Transport[], options: TransportBenchOptions) {
  const samples = new Map<string, number[]>(transports.map((t) => [t.name, []]));
  const total = options.warmup + options.iterations;
  let servers: { name: string; count: ReturnType<typeof countProcess> }[] = [];
  for (let round = 0; round < total; round++) {
    if (round === options.warmup) {
      for (const t of transports) t.mark();
      servers = transports.map((t) => ({ name: t.name, count: countProcess(t.serverPid) }));
    }
    for (let k = 0; k < transports.length; k++) {
      const t = transports[(round + k) % transports.length]!;
      const us = await t.roundTrip(round);
      if (round >= options.warmup) samples.get(t.name)!.push(us);
    }
    options.onProgress?.(round + 1, total);
  }
  const counts: TransportBenchResult['counts_per_round'] = {};
  for (const [i, t] of transports.entries()) {
    counts[t.name] = {
      client: perRound(await t.counts(), options.iterations),
      server: perRound(servers[i]!.count.stop(), options.iterations),
    };
  }
  return { samples, counts };
}

/** A transport measured by a client in its own process (see transport-client.ts). */
async function clientProcess(
  name: string,
  spec: ClientSpec,
  serverPid: number | undefined,
  stop?: () => Promise<void>,
): Promise<Transport> {
  const child = fork(fileURLToPath(CLIENT_URL), [JSON.stringify(spec)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const replies: Array<(m: FromClient) => void> = [];
  child.on('message', (m: FromClient) => replies.shift()?.(m));
  const next = () => new Promise<FromClient>((resolve) => replies.push(resolve));
  const first = await next();
  if ('error' in first) throw new Error(`${name} client: ${first.error}`);
  return {
    name,
    serverPid,
    mark: () => child.send({ mark: true } satisfies ToClient),
    counts: async () => {
      const reply = next();
      child.send({ report: true } satisfies ToClient);
      const m = await reply;
      if (!('counts' in m)) throw new Error(`${name} client sent ${JSON.stringify(m)} instead of its counts`);
      return m.counts;
    },
    roundTrip: async (round) => {
      const reply = next();
      child.send({ round } satisfies ToClient);
      const m = await reply;
      if ('error' in m) throw new Error(`${name} round trip failed: ${m.error}`);
      if (!('us' in m)) throw new Error(`${name} client sent ${JSON.stringify(m)}`);
      return m.us;
    },
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ stop: true } satisfies ToClient);
      await exited;
      await stop?.();
    },
  };
}

/** The bare ZeroMQ echo server (raw-zmq-echo-server.ts) in its own process; with a model, it runs it per message. */
async function startRawEcho(modelPath?: string): Promise<{ endpoint: string; pid: number | undefined; stop(): Promise<void> }> {
  const child = fork(fileURLToPath(RAW_ECHO_URL), modelPath ? [modelPath] : [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<{ endpoint: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { endpoint: string }));
    child.once('exit', (code) => reject(new Error(`the raw ZeroMQ echo server exited early (code ${code})`)));
  });
  return { endpoint: ready.endpoint, pid: child.pid, stop: () => stopChild(child) };
}
