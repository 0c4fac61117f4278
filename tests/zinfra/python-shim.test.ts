// The Python policy server shim (zinfra/python/zetta_policy_server.py), run as a real process with
// Debian's python3 and spoken to over real ZeroMQ sockets with the project's own codec.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zmq from 'zeromq';
import { encode } from '../../protocol/codec.js';
import { decodeReply, encodeMessage, type Reply } from '../../protocol/messages.js';
import { f32, type Observation } from '../../protocol/ndarray.js';
import {
  Client,
  FIXTURES,
  MAX_MESSAGE_BYTES,
  PYTHON,
  REPLY_GUARD_MS,
  SCRIPTED,
  SHIM,
  Shim,
  actionsOf,
  expectAlive,
  expectError,
  libero,
  missing,
  runShim,
} from '../support/python-shim-harness.js';

describe.skipIf(missing !== null)(`Python policy server shim${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let dir: string;
  let weights: Record<string, number[] | number[][]>;
  let mlp: Shim;
  let scripted: Shim;
  let client: Client;
  let scriptedClient: Client;

  /** The MLP's chunk for `state`, computed here in float64 from the weights the fixture printed. */
  function expectedMlp(state: number[]): number[] {
    let h = state;
    for (let i = 0; `w${i}` in weights; i++) {
      const w = weights[`w${i}`] as number[][];
      const b = weights[`b${i}`] as number[];
      h = b.map((bias, j) => h.reduce((acc, x, k) => acc + x * w[k]![j]!, bias));
      if (`w${i + 1}` in weights) h = h.map((v) => Math.max(v, 0));
    }
    return h;
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'zetta-shim-'));
    const npz = path.join(dir, 'policy.npz');
    const made = spawnSync(PYTHON, [path.join(FIXTURES, 'make_mlp.py'), npz, '--seed', '11'], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    weights = JSON.parse(made.stdout);
    [mlp, scripted] = await Promise.all([
      Shim.start(['--policy', `npz-mlp:${npz}`, '--bind', `ipc://${dir}/mlp.sock`, '--max-message-bytes', String(MAX_MESSAGE_BYTES)]),
      Shim.start(['--policy', `${SCRIPTED}:scripted`, '--bind', `ipc://${dir}/scripted.sock`, '--max-batch', '8']),
    ]);
    client = new Client(mlp.endpoint);
    scriptedClient = new Client(scripted.endpoint);
  });

  afterAll(async () => {
    client?.close();
    scriptedClient?.close();
    const codes = await Promise.all([mlp?.stop(), scripted?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
    // A clean SIGTERM shutdown exits 0; anything else shows what the shim logged.
    expect(codes, `${mlp?.log}\n${scripted?.log}`).toEqual([0, 0]);
  });

  describe('handshake and control messages', () => {
    it('prints the bound endpoint and answers hello with the policy metadata and limits', async () => {
      expect(mlp.endpoint).toBe(`ipc://${dir}/mlp.sock`);
      const reply = await client.request({ type: 'hello', protocol: 1 });
      expect(reply).toMatchObject({
        type: 'metadata',
        protocol: 1,
        metadata: {
          policy_id: 'npz-mlp:policy',
          action_horizon: 10,
          action_dim: 7,
          observation_keys: ['observation/state'],
        },
        limits: { max_message_bytes: MAX_MESSAGE_BYTES, max_batch: 8 },
      });
      if (reply.type === 'metadata') expect(reply.metadata.model_version).toMatch(/^[0-9a-f]{12}$/);
    });

    it('passes a module backend’s own metadata through', async () => {
      expect(await scriptedClient.request({ type: 'hello', protocol: 1 })).toMatchObject({
        metadata: { policy_id: 'scripted', model_version: 'test-1', action_horizon: 4, action_dim: 3, extra: { purpose: 'tests' } },
      });
    });

    it('refuses a protocol version it does not speak', async () => {
      const id = client.id();
      expectError(await client.raw(encode({ type: 'hello', id, protocol: 2 }), id), 'UNSUPPORTED', id);
    });

    it('answers ping with pong and episode messages with ack', async () => {
      await expectAlive(client);
      for (const type of ['episode_start', 'episode_end'] as const) {
        expect(await client.request({ type, session_id: 's1', episode_id: 'e1', info: { task: 3 } })).toMatchObject({ type: 'ack' });
      }
    });

    it('reports a failing episode hook as BACKEND_FAILED', async () => {
      const reply = await scriptedClient.request({ type: 'episode_start', session_id: 's1', episode_id: 'explode' });
      expect(reply).toMatchObject({ type: 'error', code: 'BACKEND_FAILED', retryable: false });
      await expectAlive(scriptedClient);
    });

    it('serves a REQ client (empty delimiter frame) as well as DEALER clients', async () => {
      const req = new zmq.Request({ linger: 0, receiveTimeout: REPLY_GUARD_MS });
      try {
        req.connect(mlp.endpoint);
        await req.send(encodeMessage({ type: 'hello', id: 77, protocol: 1 }));
        const [frame] = await req.receive();
        expect(decodeReply(frame!)).toMatchObject({ type: 'metadata', id: 77 });
      } finally {
        req.close();
      }
    });
  });

  describe('inference', () => {
    const state = [0.1, -0.2, 0.3, 0.05, 0.9, -0.7, 0.02, 0.04];

    function expectMatchesMlp(reply: Reply, s: number[]): void {
      const { shape, values } = actionsOf(reply);
      expect(shape).toEqual([10, 7]);
      const expected = expectedMlp(s);
      expect(values.every(Number.isFinite)).toBe(true);
      const worst = Math.max(...values.map((v, i) => Math.abs(v - expected[i]!)));
      expect(worst).toBeLessThan(1e-4);
    }

    it('returns the MLP’s (10, 7) float32 chunk for a LIBERO-sized observation', async () => {
      const reply = await client.infer(libero(state));
      expectMatchesMlp(reply, state);
      if (reply.type === 'result') {
        expect(reply.policy_timing.batch_size).toBe(1);
        expect(Object.keys(reply.server_timing).sort()).toEqual(['decode_ms', 'queue_ms', 'total_ms']);
      }
    });

    it('reads arrays written with bin keys, as openpi’s msgpack_numpy writes them', async () => {
      const id = client.id();
      const message = { type: 'infer', id, session_id: 's1', episode_id: 'e1', step: 3, deadline_ms: 10_000, obs: libero(state) };
      expectMatchesMlp(await client.raw(encode(message, { ndarrayKeys: 'bin' }), id), state);
    });

    it('answers concurrent requests each with its own chunk', async () => {
      const states = Array.from({ length: 12 }, (_, i) => state.map((v, k) => v + 0.1 * i * (k % 3 ? 1 : -1)));
      const replies = await Promise.all(states.map((s) => client.infer(libero(s))));
      replies.forEach((reply, i) => expectMatchesMlp(reply, states[i]!));
    });

    it('serves requests queued behind a busy backend as one batch', async () => {
      const obs = (value: number, prompt: string): Observation => ({
        'observation/state': f32([8], new Float32Array(8).fill(value)),
        prompt,
      });
      const slow = scriptedClient.infer(obs(100, 'sleep:400'));
      const queued = [1, 2, 3, 4].map((v) => scriptedClient.infer(obs(v, 'go')));
      const replies = await Promise.all([slow, ...queued]);
      const sizes = replies.map((r) => (r.type === 'result' ? r.policy_timing.batch_size! : 0));
      // Five requests from one DEALER in at most two drains: some backend call saw several at once.
      expect(Math.max(...sizes)).toBeGreaterThanOrEqual(2);
      // Each chunk still belongs to its own request: actions[h, d] = state[0] + h.
      [100, 1, 2, 3, 4].forEach((v, i) => {
        const { shape, values } = actionsOf(replies[i]!);
        expect(shape).toEqual([4, 3]);
        expect(values).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3].map((h) => v + h));
      });
    });

    it('casts a plain callable’s float64 output and takes H and D from the command line', async () => {
      const shim = await Shim.start([
        '--policy',
        `${SCRIPTED}:plain_callable`,
        '--bind',
        `ipc://${dir}/plain.sock`,
        '--action-horizon',
        '2',
        '--action-dim',
        '3',
      ]);
      const c = new Client(shim.endpoint);
      try {
        expect(await c.request({ type: 'hello', protocol: 1 })).toMatchObject({
          metadata: { policy_id: 'scripted_backends.plain_callable', action_horizon: 2, action_dim: 3 },
        });
        const { shape, values } = actionsOf(await c.infer({ prompt: 'x' }));
        expect(shape).toEqual([2, 3]);
        expect(values).toEqual([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
      } finally {
        c.close();
        expect(await shim.closeStdin()).toBe(0);
      }
    });
  });

  describe('bad input: a typed error, and the server keeps serving', () => {
    it('answers frames that are not protocol messages with MALFORMED', async () => {
      const typeless = client.id();
      const frames: Array<[Uint8Array, number | null]> = [
        [Buffer.from([0xc1, 0xff, 0x00]), null], // 0xc1 is never valid msgpack
        [randomBytes(64), null],
        [Buffer.alloc(0), null],
        [encode([1, 2, 3]), null], // msgpack, but not a map
        [encode({ id: typeless }), typeless], // a map without a type still names its request
      ];
      for (const [frame, id] of frames) {
        expect(await client.raw(frame, id)).toMatchObject({ type: 'error', code: 'MALFORMED', id, retryable: false });
        await expectAlive(client);
      }
    });

    it('answers an unknown message type with UNSUPPORTED naming the request', async () => {
      const id = client.id();
      expectError(await client.raw(encode({ type: 'teleport', id }), id), 'UNSUPPORTED', id);
      await expectAlive(client);
    });

    it('answers a request with missing or mistyped fields with MALFORMED', async () => {
      const id = client.id();
      const message = { type: 'infer', id, session_id: '', episode_id: 'e1', step: -1, deadline_ms: 10, obs: {} };
      const reply = await client.raw(encode(message), id);
      expectError(reply, 'MALFORMED', id);
      expect(reply.message).toContain('session_id');
      await expectAlive(client);
    });

    it('answers an array of an unsupported dtype with MALFORMED', async () => {
      const id = client.id();
      const half = { __ndarray__: true, data: Buffer.alloc(16), dtype: '<f2', shape: [8] };
      const message = {
        type: 'infer',
        id,
        session_id: 's1',
        episode_id: 'e1',
        step: 0,
        deadline_ms: 10_000,
        obs: { 'observation/state': half },
      };
      const reply = await client.raw(encode(message), id);
      expectError(reply, 'MALFORMED', id);
      expect(reply.message).toContain('<f2');
      await expectAlive(client);
    });

    it('answers an array whose shape does not match its bytes with MALFORMED', async () => {
      const id = client.id();
      const short = { __ndarray__: true, data: Buffer.alloc(31), dtype: '<f4', shape: [8] };
      const message = {
        type: 'infer',
        id,
        session_id: 's1',
        episode_id: 'e1',
        step: 0,
        deadline_ms: 10_000,
        obs: { 'observation/state': short },
      };
      const reply = await client.raw(encode(message), id);
      expectError(reply, 'MALFORMED', id);
      expect(reply.message).toMatch(/needs 32 bytes, got 31/);
      await expectAlive(client);
    });

    it('answers a frame over the size cap with TOO_LARGE without decoding it', async () => {
      const big = libero([0, 0, 0, 0, 0, 0, 0, 0], 'big', 2 * MAX_MESSAGE_BYTES);
      const id = client.id();
      const frame = encodeMessage({ type: 'infer', id, session_id: 's1', episode_id: 'e1', step: 0, deadline_ms: 10_000, obs: big });
      expect(frame.byteLength).toBeGreaterThan(MAX_MESSAGE_BYTES);
      expectError(await client.raw(frame, null), 'TOO_LARGE', null);
      await expectAlive(client);
    });

    it('answers an observation the policy cannot read with INVALID_OBSERVATION', async () => {
      const wrongSize = await client.infer({ 'observation/state': f32([5], new Float32Array(5)) });
      expect(wrongSize).toMatchObject({ type: 'error', code: 'INVALID_OBSERVATION' });
      const absent = await client.infer({ prompt: 'no state' });
      expect(absent).toMatchObject({ type: 'error', code: 'INVALID_OBSERVATION' });
      await expectAlive(client);
    });

    it('answers a request whose deadline has passed with retryable DEADLINE_EXCEEDED', async () => {
      // A microsecond budget is spent before the request reaches the backend.
      const early = await client.infer(libero([0, 0, 0, 0, 0, 0, 0, 0]), { deadline_ms: 0.001 });
      expect(early).toMatchObject({ type: 'error', code: 'DEADLINE_EXCEEDED', retryable: true });
      // A backend that takes longer than the budget: its late chunk is not sent.
      const obs = { 'observation/state': f32([8], new Float32Array(8)), prompt: 'sleep:60' };
      const late = await scriptedClient.infer(obs, { deadline_ms: 20 });
      expect(late).toMatchObject({ type: 'error', code: 'DEADLINE_EXCEEDED', retryable: true });
      await expectAlive(client);
      await expectAlive(scriptedClient);
    });

    it('never forwards NaN actions: NON_FINITE_ACTIONS for that request only', async () => {
      const obs = (prompt: string): Observation => ({ 'observation/state': f32([8], new Float32Array(8).fill(7)), prompt });
      const [bad, good] = await Promise.all([scriptedClient.infer(obs('nan')), scriptedClient.infer(obs('fine'))]);
      expect(bad).toMatchObject({ type: 'error', code: 'NON_FINITE_ACTIONS', retryable: false });
      expect(bad).not.toHaveProperty('actions');
      expect(actionsOf(good).values[0]).toBe(7);
      await expectAlive(scriptedClient);
    });

    it('answers an observation a module backend’s validate refuses with INVALID_OBSERVATION', async () => {
      const reply = await scriptedClient.infer({ 'observation/state': f32([8], new Float32Array(8)), prompt: 'reject' });
      expect(reply).toMatchObject({ type: 'error', code: 'INVALID_OBSERVATION', retryable: false });
      expect(reply.type === 'error' && reply.message).toContain('scripted rejection');
      await expectAlive(scriptedClient);
    });

    it('reports a backend that raises as BACKEND_FAILED', async () => {
      const reply = await scriptedClient.infer({ 'observation/state': f32([8], new Float32Array(8)), prompt: 'raise' });
      expect(reply).toMatchObject({ type: 'error', code: 'BACKEND_FAILED', retryable: false });
      expect(reply.type === 'error' && reply.message).toContain('scripted failure');
      await expectAlive(scriptedClient);
    });

    it('reports actions that do not have the promised shape as BACKEND_FAILED', async () => {
      const shim = await Shim.start([
        '--policy',
        `${SCRIPTED}:plain_callable`,
        '--bind',
        `ipc://${dir}/mismatch.sock`,
        '--action-horizon',
        '2',
        '--action-dim',
        '4',
      ]);
      const c = new Client(shim.endpoint);
      try {
        const reply = await c.infer({ prompt: 'x' });
        expect(reply).toMatchObject({ type: 'error', code: 'BACKEND_FAILED' });
        expect(reply.type === 'error' && reply.message).toContain('--action-dim');
        await expectAlive(c);
      } finally {
        c.close();
        expect(await shim.stop()).toBe(0);
      }
    });
  });

  describe('start-up', () => {
    it('refuses to start when a plain callable has no horizon or dimension', () => {
      const r = runShim(['--policy', `${SCRIPTED}:plain_callable`, '--bind', `ipc://${dir}/never.sock`]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('--action-horizon');
    });

    it('refuses an unknown policy kind', () => {
      const r = runShim(['--policy', 'onnx:model.onnx', '--bind', `ipc://${dir}/never.sock`]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('npz-mlp:');
    });

    it('documents itself in --help', () => {
      const r = spawnSync(PYTHON, [SHIM, '--help'], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/--policy[\s\S]*--bind[\s\S]*--max-message-bytes[\s\S]*--max-batch/);
    });
  });
});
