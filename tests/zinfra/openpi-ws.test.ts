// OpenpiWebsocketPolicy against an openpi-style Python server (a stand-in for openpi's
// serve_policy.py, which needs openpi and a model and cannot run here), and with no server at all.
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '../../protocol/errors.js';
import { isNdArray, type NdArray } from '../../protocol/ndarray.js';
import { DeadlineExceeded, PolicyUnavailable, RemoteError } from '../../zinfra/policy/errors.js';
import { parseOpenpiUrl } from '../../zinfra/policy/openpi-ws/policy.js';
import {
  client,
  expectedActions,
  freePort,
  httpGet,
  liberoObs,
  pythonMissing,
  runCleanups,
  startPythonProcess,
  startPythonServer,
  sum,
} from './openpi-ws-peers.js';

afterEach(runCleanups);

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
    const err = await client(port, { actionShape: [10, 7] })
      .infer([liberoObs(0)])
      .catch((e: unknown) => e);
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
    const err = await client(port)
      .infer([liberoObs(0)])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).message).toMatch(/1011: policy process crashed/);
  });

  it('rejects non-finite actions', async () => {
    const port = await startPythonServer();
    const err = await client(port)
      .infer([liberoObs(0, 'nan please')])
      .catch((e: unknown) => e);
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

  it('a server killed mid-request fails it with PolicyUnavailable; the client recovers when the server returns', async () => {
    const port = await freePort();
    const first = await startPythonProcess(['--port', String(port), '--slow-on', '1', '--slow-ms', '60000']);
    const policy = client(port, { requestTimeoutMs: 120_000 });
    await policy.metadata();
    const pending = policy.infer([liberoObs(0)]).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200)); // let the request reach the server first (either way it must fail the same)
    first.proc.kill('SIGKILL');
    const err = await pending;
    expect(err).toBeInstanceOf(PolicyUnavailable);
    expect((err as Error).message).toContain(`ws://127.0.0.1:${port}`);
    await startPythonServer(['--port', String(port)]);
    const obs = liberoObs(3);
    const [r] = await policy.infer([obs]);
    expect(Array.from(r!.actions.data)).toEqual(expectedActions(obs, 10, 7));
  });

  it('without /healthz the check fails clearly; turned off, the client connects', async () => {
    const port = await startPythonServer(['--no-healthz']);
    const err = await client(port)
      .metadata()
      .catch((e: unknown) => e);
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
    expect((err as Error).message).toMatch(/not reachable/);
  });
});
