// Liveness that does not confuse a busy machine with a lost server: silence counts only while the
// client was listening, the timeout stretches with the measured round trip, and a refused
// connection fails a connect at once instead of after its timeout.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PolicyClient } from '../../zinfra/policy/zmq/client.js';
import { PolicyUnavailable } from '../../zinfra/policy/errors.js';
import { Liveness } from '../../zinfra/policy/zmq/liveness.js';
import { PolicyServer } from '../../zinfra/policy/zmq/server.js';
import { ScriptedPolicy, stateObservation } from '../support/scripted-policy.js';

describe('Liveness', () => {
  it('counts at most two intervals of silence per tick, however late the tick', () => {
    const l = new Liveness({ intervalMs: 100, timeoutMs: 500 });
    l.tick(0);
    expect(l.tick(5_000)).toBe(false); // our own loop stalled for 5 s: the server was not heard because we did not listen
    expect(l.silenceMs).toBe(200);
    expect(l.tick(5_100)).toBe(false);
    expect(l.tick(5_200)).toBe(false);
    expect(l.tick(5_300)).toBe(false);
    expect(l.tick(5_400)).toBe(true); // more than 500 ms of listening silence
  });

  it('treats any frame as life and stretches the timeout with the round trip', () => {
    const l = new Liveness({ intervalMs: 100, timeoutMs: 500 });
    for (let t = 0; t <= 400; t += 100) l.tick(t);
    l.heard();
    expect(l.silenceMs).toBe(0);
    l.observeRoundTrip(250);
    expect(l.timeoutMs).toBe(2000);
    l.observeRoundTrip(10);
    expect(l.timeoutMs).toBeLessThan(2000);
    expect(l.timeoutMs).toBeGreaterThanOrEqual(500);
  });
});

describe('PolicyClient on a busy machine', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of closers.splice(0).reverse()) await c();
  });

  it('a client whose event loop stalls far past the heartbeat timeout still gets its reply', async () => {
    const endpoint = `ipc://${join(mkdtempSync(join(tmpdir(), 'zetta-live-')), 'p.sock')}`;
    const server = await PolicyServer.start(new ScriptedPolicy(), { bind: endpoint });
    closers.push(() => server.close());
    const client = await PolicyClient.connect({ endpoint, heartbeatIntervalMs: 50, heartbeatTimeoutMs: 300 });
    closers.push(() => client.close());
    const obs = stateObservation([1, 2, 3, 4, 5, 6, 7, 8]);
    await client.request(obs, { episodeId: 'e', step: 0 });
    const pending = client.request(obs, { episodeId: 'e', step: 1, deadlineMs: 20_000 });
    const until = performance.now() + 10 * 300;
    while (performance.now() < until) {
      // a CPU-bound stretch in the client's own thread, as a simulator step on a loaded machine
    }
    await expect(pending).resolves.toBeDefined();
    await new Promise((r) => setTimeout(r, 4 * 50));
    expect(client.state).toBe('ready');
  });

  it('a refused connection fails the connect with its reason, not the timeout', async () => {
    const err = await PolicyClient.connect({ endpoint: 'tcp://127.0.0.1:1', timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyUnavailable);
    expect((err as Error).message).toMatch(/connection refused/);
  });
});
