import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Dealer } from 'zeromq';
import { PolicyClient } from '../../zinfra/policy/zmq/client.js';
import { DeadlineExceeded, PolicyUnavailable, RemoteError } from '../../zinfra/policy/errors.js';
import { PolicyServer } from '../../zinfra/policy/zmq/server.js';
import { encode } from '../../protocol/codec.js';
import { decodeReply, encodeMessage } from '../../protocol/messages.js';
import { f32 } from '../../protocol/ndarray.js';
import { waitFor } from '../support/wait-for.js';
import { ScriptedPolicy, expectedActions, stateObservation } from '../support/scripted-policy.js';

const ctx = (step: number, deadlineMs = 2000) => ({ episodeId: 'ep-1', step, deadlineMs });

describe('PolicyClient ↔ PolicyServer over real ZeroMQ sockets', () => {
  let policy: ScriptedPolicy;
  let server: PolicyServer;
  let client: PolicyClient;
  let endpoint: string;

  beforeEach(async () => {
    endpoint = `ipc://${join(mkdtempSync(join(tmpdir(), 'zetta-')), 'policy.sock')}`;
    policy = new ScriptedPolicy();
    server = await PolicyServer.start(policy, { bind: endpoint, maxMessageBytes: 1 << 20 });
    client = await PolicyClient.connect({ endpoint, heartbeatIntervalMs: 50, heartbeatTimeoutMs: 400 });
  });

  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('hands the server metadata to the client on connect', async () => {
    expect(await client.metadata()).toMatchObject({
      policyId: 'scripted',
      actionHorizon: 10,
      actionDim: 7,
      observationKeys: ['observation/state'],
    });
  });

  it('returns the action chunk computed from the observation it sent', async () => {
    const obs = stateObservation([1, 2, 3, 4, 5, 6, 7, 8]);
    const reply = await client.request(obs, ctx(0));
    expect(reply.actions.shape).toEqual([10, 7]);
    expect(Array.from(reply.actions.data)).toEqual(Array.from(expectedActions(obs).data));
    expect(reply.serverTiming.batch_size).toBeGreaterThanOrEqual(1);
  });

  it('keeps several requests in flight and matches each reply to its request', async () => {
    policy.script = { delayMs: 20 };
    const observations = Array.from({ length: 12 }, (_, i) => stateObservation(Array.from({ length: 8 }, (_, d) => i * 10 + d)));
    const replies = await Promise.all(observations.map((o, i) => client.request(o, ctx(i))));
    replies.forEach((r, i) => expect(Array.from(r.actions.data)).toEqual(Array.from(expectedActions(observations[i]!).data)));
    // While the first batch was in the backend the rest queued up and went out together.
    expect(Math.max(...policy.batchSizes)).toBeGreaterThan(1);
  });

  it('answers a backend NaN with NON_FINITE_ACTIONS and never forwards it', async () => {
    policy.script = { nan: true };
    const err = await client.request(stateObservation([1, 1, 1, 1, 1, 1, 1, 1]), ctx(0)).catch((e) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err.code).toBe('NON_FINITE_ACTIONS');
    policy.script = {};
    await expect(client.request(stateObservation([1, 1, 1, 1, 1, 1, 1, 1]), ctx(1))).resolves.toBeDefined();
  });

  it('turns a backend exception into BACKEND_FAILED', async () => {
    policy.script = { throwMessage: 'CUDA out of memory' };
    const err = await client.request(stateObservation([0, 0, 0, 0, 0, 0, 0, 0]), ctx(0)).catch((e) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err.code).toBe('BACKEND_FAILED');
    expect(err.message).toContain('CUDA out of memory');
  });

  it('refuses an observation without the keys the policy reads', async () => {
    const err = await client.request({ prompt: 'x' }, ctx(0)).catch((e) => e);
    expect(err).toMatchObject({ code: 'INVALID_OBSERVATION' });
  });

  it('fails a request that outlives its deadline with DeadlineExceeded', async () => {
    policy.script = { delayMs: 300 };
    const err = await client.request(stateObservation([0, 0, 0, 0, 0, 0, 0, 0]), ctx(0, 60)).catch((e) => e);
    expect(err).toBeInstanceOf(DeadlineExceeded);
  });

  it('answers garbage, mismatched arrays and oversized frames with typed errors and keeps serving', async () => {
    const raw = new Dealer({ linger: 0 });
    raw.connect(endpoint);
    const exchange = async (payload: Buffer) => {
      await raw.send(payload);
      const [reply] = await raw.receive();
      return decodeReply(reply!);
    };
    expect(await exchange(Buffer.from('definitely not msgpack \xc1'))).toMatchObject({ type: 'error', code: 'MALFORMED', id: null });
    const mismatched = encode({
      type: 'infer',
      id: 7,
      session_id: 's',
      episode_id: 'e',
      step: 0,
      deadline_ms: 100,
      obs: { 'observation/state': { __ndarray__: true, data: Buffer.alloc(5), dtype: '<f4', shape: [8] } },
    });
    expect(await exchange(mismatched)).toMatchObject({ type: 'error', code: 'MALFORMED', id: 7 });
    const wrongDtype = encode({
      type: 'infer',
      id: 8,
      session_id: 's',
      episode_id: 'e',
      step: 0,
      deadline_ms: 100,
      obs: { 'observation/state': { __ndarray__: true, data: Buffer.alloc(8), dtype: '<c8', shape: [1] } },
    });
    expect(await exchange(wrongDtype)).toMatchObject({ type: 'error', code: 'MALFORMED' });
    expect(await exchange(Buffer.alloc(2 << 20))).toMatchObject({ type: 'error', code: 'TOO_LARGE' });
    const ok = await exchange(
      encodeMessage({
        type: 'infer',
        id: 9,
        session_id: 's',
        episode_id: 'e',
        step: 0,
        deadline_ms: 1000,
        obs: stateObservation([1, 2, 3, 4, 5, 6, 7, 8]),
      }),
    );
    expect(ok).toMatchObject({ type: 'result', id: 9 });
    raw.close();
    expect(server.stats.errors.MALFORMED).toBe(3);
  });

  it('fails pending requests with PolicyUnavailable when the server dies, then recovers when it returns', async () => {
    policy.script = { delayMs: 1000 };
    const pending = client.request(stateObservation([0, 0, 0, 0, 0, 0, 0, 0]), ctx(0, 5000));
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 50));
    await server.close();
    const err = await pending.catch((e) => e);
    expect(err).toBeInstanceOf(PolicyUnavailable);
    expect(performance.now() - t0).toBeLessThan(5000); // before its deadline, not at it
    await expect(client.request(stateObservation([0, 0, 0, 0, 0, 0, 0, 0]), ctx(1))).rejects.toBeInstanceOf(PolicyUnavailable);

    policy = new ScriptedPolicy();
    server = await PolicyServer.start(policy, { bind: endpoint });
    await waitFor(() => client.state === 'ready', 10_000);
    const obs = stateObservation([8, 7, 6, 5, 4, 3, 2, 1]);
    const reply = await client.request(obs, ctx(2));
    expect(Array.from(reply.actions.data)).toEqual(Array.from(expectedActions(obs).data));
  });

  it('rejects actions the server never sent when a reply arrives corrupted', async () => {
    // A result with NaN crafted on the wire (a faulty server) is refused by the client, too.
    const raw = encode({ type: 'result', id: 1, actions: f32([1, 1], Float32Array.of(Number.NaN)), policy_timing: {}, server_timing: {} });
    expect(() => decodeReply(raw)).toThrowError(/non-finite/);
  });
});
