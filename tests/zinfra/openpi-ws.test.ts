// openpi WebSocket compatibility: the Node client against an openpi-style Python server (a stand-in
// for openpi's serve_policy.py, which cannot run here), the Node server against the Node client and
// against an openpi-style Python client.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decode, encode } from '../../zinfra/protocol/codec.js';
import { ProtocolError } from '../../zinfra/protocol/errors.js';
import { f32, isNdArray, u8, type NdArray, type Observation } from '../../zinfra/protocol/ndarray.js';
import { DeadlineExceeded, PolicyUnavailable, RemoteError } from '../../zinfra/policy/errors.js';
import { OpenpiWebsocketPolicy, parseOpenpiUrl } from '../../zinfra/policy/openpi-ws-policy.js';
import { OpenpiWebsocketServer } from '../../zinfra/policy/openpi-ws-server.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../zinfra/policy/policy.js';

const PY = '/usr/bin/python3';
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/python');

/** Why the Python peers cannot run here, or null when they can. */
const pythonMissing: string | null = (() => {
  const r = spawnSync(PY, ['-c', 'import websockets, msgpack, numpy'], { encoding: 'utf8' });
  if (r.status === 0) return null;
  return r.error ? `${PY}: ${r.error.message}` : `${PY} lacks python3-websockets/msgpack/numpy: ${r.stderr.trim().split('\n').pop()}`;
})();
if (pythonMissing) console.warn(`skipping the openpi-style Python peer tests: ${pythonMissing}`);

// ---------------------------------------------------------------- helpers

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Starts tests/fixtures/python/openpi_style_server.py and waits for `ready <port>`. */
async function startPythonServer(args: string[] = []): Promise<number> {
  const proc = spawn(PY, [path.join(FIXTURES, 'openpi_style_server.py'), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  cleanups.push(() => stop(proc));
  const lines = createInterface({ input: proc.stdout! });
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /^ready (\d+)$/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`openpi-style server exited (${code}): ${stderr}`)));
  });
}

function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

function client(port: number, options: ConstructorParameters<typeof OpenpiWebsocketPolicy>[1] = {}): OpenpiWebsocketPolicy {
  const c = new OpenpiWebsocketPolicy(`openpi-ws://127.0.0.1:${port}`, { connectTimeoutMs: 20_000, ...options });
  cleanups.push(() => c.close());
  return c;
}

/** A LIBERO-sized observation whose state (and images) differ with `i`. */
function liberoObs(i: number, prompt = 'put the bowl on the plate'): Observation {
  const image = new Uint8Array(224 * 224 * 3).map((_, k) => (k * 7 + i) & 255);
  const wrist = new Uint8Array(224 * 224 * 3).map((_, k) => (k * 13 + 3 * i) & 255);
  const state = Float32Array.from({ length: 8 }, (_, k) => (k + 1) * 0.1 + i);
  return {
    'observation/image': u8([224, 224, 3], image),
    'observation/wrist_image': u8([224, 224, 3], wrist),
    'observation/state': f32([8], state),
    prompt,
  };
}

/** The fixtures' policy: action[h, d] = state[d % 8] * (h + 1), rounded to float32. */
function expectedActions(obs: Observation, h: number, d: number): number[] {
  const s = (obs['observation/state'] as NdArray<'<f4'>).data;
  const out: number[] = [];
  for (let i = 0; i < h; i++) for (let j = 0; j < d; j++) out.push(Math.fround(s[j % s.length]! * (i + 1)));
  return out;
}

const sum = (a: Uint8Array): number => a.reduce((x, y) => x + y, 0);

function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** A port nothing listens on (bound, then released). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------- address parsing

describe('parseOpenpiUrl', () => {
  it('maps openpi-ws:// to ws:// and derives the health URL', () => {
    expect(parseOpenpiUrl('openpi-ws://gpu-box:8000')).toEqual({ url: 'ws://gpu-box:8000', healthUrl: 'http://gpu-box:8000/healthz' });
    expect(parseOpenpiUrl('openpi-ws://10.0.0.5')).toEqual({ url: 'ws://10.0.0.5:8000', healthUrl: 'http://10.0.0.5:8000/healthz' });
    expect(parseOpenpiUrl('openpi-wss://h:443/').url).toBe('wss://h:443');
    expect(parseOpenpiUrl('ws://[::1]:9000').url).toBe('ws://[::1]:9000');
  });

  it('rejects other addresses with the address in the message', () => {
    for (const bad of ['tcp://h:5555', 'openpi-ws://', 'openpi-ws://h:8000/path', 'h:8000', 'openpi-ws://u:p@h:1']) {
      expect(() => parseOpenpiUrl(bad)).toThrow(TypeError);
    }
    expect(() => parseOpenpiUrl('tcp://h:5555')).toThrow(/tcp:\/\/h:5555/);
  });
});

// ---------------------------------------------------------------- Node client ↔ Python peer

describe.skipIf(pythonMissing !== null)('OpenpiWebsocketPolicy against an openpi-style Python server', () => {
  it('answers GET /healthz with OK', async () => {
    const port = await startPythonServer();
    expect(await httpGet(`http://127.0.0.1:${port}/healthz`)).toEqual({ status: 200, body: 'OK\n' });
  });

  it('sends arrays the server decodes as numpy arrays and converts float64 actions to float32', async () => {
    const port = await startPythonServer(['--dtype', 'float64']);
    const policy = client(port);
    const obs = liberoObs(1);
    const [r] = await policy.infer([obs]);
    expect(r!.actions.dtype).toBe('<f4');
    expect(r!.actions.shape).toEqual([10, 7]);
    expect(Array.from(r!.actions.data)).toEqual(expectedActions(obs, 10, 7));
    // What the server saw: arrays (bin keys worked) with the right dtype, shape and contents.
    const seen = r!.extra.seen as Record<string, Record<string, unknown>>;
    expect(seen['observation/image']).toEqual({
      type: 'ndarray',
      dtype: '|u1',
      shape: [224, 224, 3],
      sum: sum((obs['observation/image'] as NdArray<'|u1'>).data),
    });
    expect(seen['observation/wrist_image']!.sum).toBe(sum((obs['observation/wrist_image'] as NdArray<'|u1'>).data));
    expect(seen['observation/state']).toMatchObject({ type: 'ndarray', dtype: '<f4', shape: [8] });
    expect(seen.prompt).toEqual({ type: 'str' });
    expect(r!.extra.prompt).toBe('put the bowl on the plate');
    expect(isNdArray(r!.extra.state)).toBe(true);
    expect(r!.policyTiming.infer_ms).toBeTypeOf('number');
    expect(r!.serverTiming.infer_ms).toBeTypeOf('number');
    expect(r!.serverTiming.prev_total_ms).toBeUndefined();
    const [r2] = await policy.infer([liberoObs(2)]);
    expect(r2!.serverTiming.prev_total_ms).toBeTypeOf('number');
  });

  it('accepts float32 actions as they are', async () => {
    const port = await startPythonServer(['--dtype', 'float32', '--horizon', '5', '--dim', '7']);
    const obs = liberoObs(3);
    const [r] = await client(port).infer([obs]);
    expect(r!.actions.shape).toEqual([5, 7]);
    expect(Array.from(r!.actions.data)).toEqual(expectedActions(obs, 5, 7));
  });

  it('maps the metadata frame; the action shape comes from the first reply', async () => {
    const meta = JSON.stringify({ policy_id: 'pi05_libero', reset_pose: [0, -1.5, 1.5] });
    const port = await startPythonServer(['--metadata', meta, '--horizon', '10']);
    const policy = client(port);
    const before = await policy.metadata();
    expect(before).toMatchObject({ policyId: 'pi05_libero', modelVersion: 'unknown', actionHorizon: 0, actionDim: 0 });
    expect(before.extra).toMatchObject({ reset_pose: [0, -1.5, 1.5] });
    await policy.infer([liberoObs(0)]);
    expect(await policy.metadata()).toMatchObject({ actionHorizon: 10, actionDim: 7 });
  });

  it('an empty metadata dict (what serve_policy.py usually sends) gives policy id "openpi" and the configured shape', async () => {
    const port = await startPythonServer();
    const meta = await client(port, { actionShape: [10, 7] }).metadata();
    expect(meta).toMatchObject({ policyId: 'openpi', actionHorizon: 10, actionDim: 7, observationKeys: [] });
  });

  it('rejects a reply whose shape differs from the expected one', async () => {
    const port = await startPythonServer(['--horizon', '4']);
    const err = await client(port, { actionShape: [10, 7] }).infer([liberoObs(0)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).message).toMatch(/\[4, 7\].*\[10, 7\]/);
  });

  it('turns the traceback text frame into a RemoteError, then reconnects for the next request', async () => {
    const port = await startPythonServer(['--fail-on', '2']);
    const policy = client(port);
    await policy.infer([liberoObs(0)]);
    const err = await policy.infer([liberoObs(1)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).code).toBe('BACKEND_FAILED');
    expect((err as RemoteError).message).toMatch(/Traceback[\s\S]*RuntimeError: injected failure on request 2/);
    const obs = liberoObs(5);
    const [r] = await policy.infer([obs]);
    expect(r!.extra.request_number).toBe(3);
    expect(Array.from(r!.actions.data)).toEqual(expectedActions(obs, 10, 7));
  });

  it('a close with 1011 and no text frame is a RemoteError carrying the reason', async () => {
    const port = await startPythonServer(['--close-1011-on', '1']);
    const err = await client(port).infer([liberoObs(0)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).message).toMatch(/1011: policy process crashed/);
  });

  it('rejects non-finite actions', async () => {
    const port = await startPythonServer();
    const err = await client(port).infer([liberoObs(0, 'nan please')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe('NON_FINITE_ACTIONS');
  });

  it('serializes concurrent calls: one frame on the wire at a time, each reply to its own request', async () => {
    const port = await startPythonServer(['--delay-ms', '20']);
    const policy = client(port);
    const singles = [0, 1, 2, 3, 4].map((i) => liberoObs(i));
    const batch = [10, 11, 12].map((i) => liberoObs(i));
    const results = await Promise.all([...singles.map((o) => policy.infer([o])), policy.infer(batch)]);
    const flat = results.flat();
    const sent = [...singles, ...batch];
    expect(flat).toHaveLength(8);
    flat.forEach((r, k) => {
      expect(Array.from(r.actions.data)).toEqual(expectedActions(sent[k]!, 10, 7));
      expect(r.extra.request_number).toBe(k + 1);
      expect(r.extra.queued_frames).toBe(0);
    });
  });

  it('a timed-out request fails with DeadlineExceeded and its late reply is never taken for the next one', async () => {
    const port = await startPythonServer(['--slow-on', '1', '--slow-ms', '10000']);
    const policy = client(port, { requestTimeoutMs: 1500 });
    const err = await policy.infer([liberoObs(0)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineExceeded);
    const obs = liberoObs(7);
    const [r] = await policy.infer([obs]);
    expect(r!.extra.request_number).toBe(2);
    expect(Array.from(r!.actions.data)).toEqual(expectedActions(obs, 10, 7));
  });

  it('without /healthz the check fails clearly; turned off, the client connects', async () => {
    const port = await startPythonServer(['--no-healthz']);
    const err = await client(port).metadata().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyUnavailable);
    expect((err as Error).message).toMatch(/health check GET http:\/\/127\.0\.0\.1:\d+\/healthz answered 4\d\d/);
    const [r] = await client(port, { healthCheck: false }).infer([liberoObs(0)]);
    expect(r!.actions.shape).toEqual([10, 7]);
  });

  it('waits for a server that starts late', async () => {
    const port = await freePort();
    const policy = client(port, { connectTimeoutMs: 30_000 });
    const pending = policy.metadata();
    await new Promise((r) => setTimeout(r, 300));
    await startPythonServer(['--port', String(port)]);
    expect((await pending).policyId).toBe('openpi');
  });
});

// ---------------------------------------------------------------- no server

describe('OpenpiWebsocketPolicy with no server running', () => {
  it.each([true, false])('fails with PolicyUnavailable naming the address, not a deadline (health check %s)', async (healthCheck) => {
    const port = await freePort();
    const policy = client(port, { healthCheck, connectTimeoutMs: 500, requestTimeoutMs: 600_000 });
    const err = await policy.infer([liberoObs(0)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyUnavailable);
    expect((err as Error).message).toContain(`ws://127.0.0.1:${port}`);
    expect((err as Error).message).toMatch(/ECONNREFUSED/);
  });
});

// ---------------------------------------------------------------- Node server

/** A Zetta Policy with the fixtures' arithmetic; records what it saw and how many calls overlapped. */
class StatePolicy implements Policy {
  readonly seen: Observation[] = [];
  maxInFlight = 0;
  private inFlight = 0;
  constructor(private readonly delayMs = 0) {}

  async metadata(): Promise<PolicyMetadata> {
    const keys = ['observation/image', 'observation/wrist_image', 'observation/state', 'prompt'];
    return { policyId: 'state-policy', modelVersion: 'v3', actionHorizon: 10, actionDim: 7, observationKeys: keys };
  }

  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    this.maxInFlight = Math.max(this.maxInFlight, ++this.inFlight);
    try {
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      return batch.map((obs) => {
        this.seen.push(obs);
        if (obs.prompt === 'throw please') throw new Error('backend exploded');
        const data = Float32Array.from(expectedActions(obs, 10, 7));
        if (obs.prompt === 'nan please') data[3] = NaN;
        return { actions: f32([10, 7], data), policyTiming: { infer_ms: 0.5 } };
      });
    } finally {
      this.inFlight--;
    }
  }

  async close(): Promise<void> {}
}

async function startNodeServer(policy: Policy): Promise<number> {
  const server = new OpenpiWebsocketServer(policy, { metadata: { reset_pose: [0, 1] } });
  const port = await server.start({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => server.close());
  return port;
}

describe('OpenpiWebsocketServer with the Node client', () => {
  it('serves health, metadata and actions; the backend receives arrays', async () => {
    const backend = new StatePolicy();
    const port = await startNodeServer(backend);
    expect(await httpGet(`http://127.0.0.1:${port}/healthz`)).toEqual({ status: 200, body: 'OK\n' });
    expect((await httpGet(`http://127.0.0.1:${port}/`)).status).toBe(426);
    const policy = client(port);
    expect(await policy.metadata()).toMatchObject({
      policyId: 'state-policy',
      modelVersion: 'v3',
      actionHorizon: 10,
      actionDim: 7,
      observationKeys: ['observation/image', 'observation/wrist_image', 'observation/state', 'prompt'],
      extra: { reset_pose: [0, 1] },
    });
    const obs = liberoObs(4);
    const [r1, r2] = await policy.infer([obs, liberoObs(5)]);
    expect(Array.from(r1!.actions.data)).toEqual(expectedActions(obs, 10, 7));
    expect(r1!.policyTiming).toEqual({ infer_ms: 0.5 });
    expect(Object.keys(r1!.serverTiming)).toEqual(['infer_ms']);
    expect(Object.keys(r2!.serverTiming).sort()).toEqual(['infer_ms', 'prev_total_ms']);
    const got = backend.seen[0]!;
    expect(got['observation/image']).toMatchObject({ dtype: '|u1', shape: [224, 224, 3] });
    expect(sum((got['observation/image'] as NdArray<'|u1'>).data)).toBe(sum((obs['observation/image'] as NdArray<'|u1'>).data));
    expect(got.prompt).toBe('put the bowl on the plate');
  });

  it('a backend error reaches the client as a traceback RemoteError; the client reconnects', async () => {
    const port = await startNodeServer(new StatePolicy());
    const policy = client(port);
    const err = await policy.infer([liberoObs(0, 'throw please')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as Error).message).toMatch(/openpi server error:\nError: backend exploded\n\s+at /);
    const [r] = await policy.infer([liberoObs(1)]);
    expect(r!.actions.shape).toEqual([10, 7]);
  });

  it('never forwards non-finite actions', async () => {
    const port = await startNodeServer(new StatePolicy());
    const err = await client(port).infer([liberoObs(0, 'nan please')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as Error).message).toMatch(/non-finite value at flat index 3/);
  });

  it('answers one connection one request at a time, in order', async () => {
    const backend = new StatePolicy(10);
    const port = await startNodeServer(backend);
    const policy = client(port);
    const sent = [0, 1, 2, 3, 4, 5].map((i) => liberoObs(i));
    const results = await Promise.all(sent.map((o) => policy.infer([o])));
    results.forEach(([r], k) => expect(Array.from(r!.actions.data)).toEqual(expectedActions(sent[k]!, 10, 7)));
    expect(backend.maxInFlight).toBe(1);
  });

  it('a client that pipelines frames is still answered one at a time, in order', async () => {
    const backend = new StatePolicy(10);
    const port = await startNodeServer(backend);
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    cleanups.push(() => ws.terminate());
    const frames: unknown[] = [];
    const done = new Promise<void>((resolve) =>
      ws.on('message', (data: Buffer) => {
        frames.push(decode(data));
        if (frames.length === 4) resolve();
      }),
    );
    await new Promise((r) => ws.once('open', r));
    const sent = [0, 1, 2].map((i) => liberoObs(i));
    for (const o of sent) ws.send(encode(o, { ndarrayKeys: 'bin' }));
    await done;
    expect(frames[0]).toMatchObject({ policy_id: 'state-policy' });
    frames.slice(1).forEach((f, k) => {
      const actions = (f as { actions: NdArray<'<f4'> }).actions;
      expect(Array.from(actions.data)).toEqual(expectedActions(sent[k]!, 10, 7));
    });
    expect(backend.maxInFlight).toBe(1);
  });
});

/** Runs tests/fixtures/python/openpi_style_client.py and parses its one JSON line. */
function runPythonClient(port: number, indices: number[]): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(PY, [path.join(FIXTURES, 'openpi_style_client.py'), String(port), ...indices.map(String)]);
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    proc.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}: ${err}`))));
  });
}

describe.skipIf(pythonMissing !== null)('OpenpiWebsocketServer with an openpi-style Python client', () => {
  it('the client reads metadata and bytes-keyed float32 action arrays', async () => {
    const port = await startNodeServer(new StatePolicy());
    const out = await runPythonClient(port, [0, 1]);
    expect(out.metadata).toMatchObject({ policy_id: 'state-policy', action_horizon: 10, action_dim: 7, reset_pose: [0, 1] });
    expect(out.replies).toHaveLength(2);
    for (const r of out.replies) {
      expect(r).toMatchObject({ is_ndarray: true, dtype: '<f4', shape: [10, 7], policy_timing: ['infer_ms'] });
      const state = Float32Array.from(r.state as number[]);
      expect((r.actions as number[][]).flat()).toEqual(expectedActions({ 'observation/state': f32([8], state) }, 10, 7));
    }
    expect(out.replies[1].server_timing).toEqual(['infer_ms', 'prev_total_ms']);
  });

  it('a backend failure reaches the client as a text frame and close 1011', async () => {
    const port = await startNodeServer(new StatePolicy());
    const out = await runPythonClient(port, [-1]);
    expect(out.error).toMatch(/non-finite/);
    expect(out.close_code).toBe(1011);
    expect(out.close_reason).toBe('Internal server error. Traceback included in previous frame.');
  });
});
