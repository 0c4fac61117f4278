// OpenpiWebsocketServer: a Zetta Policy served the way openpi's websocket_policy_server.py serves,
// checked with the Node client, a raw pipelining client and an openpi-style Python client.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { decode, encode } from '../../protocol/codec.js';
import { f32, type NdArray, type Observation } from '../../protocol/ndarray.js';
import { RemoteError } from '../../zinfra/policy/errors.js';
import { OpenpiWebsocketServer } from '../../zinfra/policy/openpi-ws/server.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../zinfra/policy/policy.js';
import {
  cleanups,
  client,
  expectedActions,
  httpGet,
  liberoObs,
  pythonMissing,
  runCleanups,
  runPythonClient,
  sum,
} from './openpi-ws-peers.js';

afterEach(runCleanups);

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
    const err = await client(port)
      .infer([liberoObs(0, 'nan please')])
      .catch((e: unknown) => e);
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
