// Faults of a real server process: the Python shim is SIGKILLed or frozen (SIGSTOP) under a live
// client, which must fail fast with PolicyUnavailable and recover by itself when the server returns.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PolicyClient } from '../../zinfra/policy/zmq/client.js';
import { PolicyUnavailable } from '../../zinfra/policy/errors.js';
import { randomMlp, writeMlpNpz } from '../../models/build/mlp-onnx.js';
import { startPythonPolicyServer, type PythonServer } from '../../zinfra/policy/python-shim/python-server-process.js';
import { stateObservation } from '../support/scripted-policy.js';
import { missing } from '../support/python-shim-harness.js';
import { waitFor } from '../support/wait-for.js';

describe.skipIf(missing !== null)('PolicyClient against a Python shim process that dies', () => {
  const servers: PythonServer[] = [];
  const clients: PolicyClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) {
      if (s.process.signalCode === null && s.process.exitCode === null) s.process.kill('SIGCONT');
      await s.stop();
    }
  });

  async function setup(bindFor: (dir: string) => string) {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-fault-'));
    const npz = join(dir, 'mlp.npz');
    writeMlpNpz(npz, randomMlp({ inputDim: 8, hidden: [16], horizon: 10, actionDim: 7, seed: 5 }), 'observation/state');
    const start = async () => {
      const s = await startPythonPolicyServer({ policy: `npz-mlp:${npz}`, bind: bindFor(dir) });
      servers.push(s);
      return s;
    };
    const server = await start();
    const client = await PolicyClient.connect({ endpoint: server.endpoint, heartbeatIntervalMs: 50, heartbeatTimeoutMs: 500 });
    clients.push(client);
    return { server, client, start };
  }

  const obs = stateObservation([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);

  it('SIGKILL: the next requests fail with PolicyUnavailable before their deadline; a restarted server is found again', async () => {
    const { server, client, start } = await setup((dir) => `ipc://${join(dir, 'p.sock')}`);
    await client.request(obs, { episodeId: 'e', step: 0 });
    server.process.kill('SIGKILL');
    await waitFor(() => client.state === 'unavailable', 5000);
    const t0 = performance.now();
    await expect(client.request(obs, { episodeId: 'e', step: 1, deadlineMs: 10_000 })).rejects.toBeInstanceOf(PolicyUnavailable);
    expect(performance.now() - t0).toBeLessThan(10_000);

    await start();
    await waitFor(() => client.state === 'ready', 15_000);
    const reply = await client.request(obs, { episodeId: 'e', step: 2 });
    expect(reply.actions.shape).toEqual([10, 7]);
  });

  it('SIGSTOP (a hung server): heartbeats notice the silence and fail the pending request early', async () => {
    const { server, client } = await setup(() => 'tcp://127.0.0.1:0');
    await client.request(obs, { episodeId: 'e', step: 0 });
    server.process.kill('SIGSTOP');
    const t0 = performance.now();
    const err = await client.request(obs, { episodeId: 'e', step: 1, deadlineMs: 20_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(PolicyUnavailable);
    expect(performance.now() - t0).toBeLessThan(20_000);
    server.process.kill('SIGCONT');
    await waitFor(() => client.state === 'ready', 15_000);
    await expect(client.request(obs, { episodeId: 'e', step: 2 })).resolves.toBeDefined();
  });
});
