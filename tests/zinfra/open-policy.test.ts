import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PolicyUnavailable } from '../../zinfra/policy/errors.js';
import { randomMlp, writeMlpOnnx } from '../../models/build/mlp-onnx.js';
import { OnnxPolicy } from '../../zinfra/policy/onnx/onnx-policy.js';
import { openPolicy, PolicySpecError } from '../../zinfra/policy/open-policy.js';
import { PolicyServer } from '../../zinfra/policy/zmq/server.js';

describe('openPolicy(--policy spec)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-open-'));
  const onnx = join(dir, 'm.onnx');
  writeMlpOnnx(onnx, randomMlp({ inputDim: 8, hidden: [8], horizon: 10, actionDim: 7, seed: 2 }), {
    inputName: 'observation/state',
    policyId: 'tiny',
  });

  it('loads an ONNX file in process, by scheme or by extension', async () => {
    for (const spec of [`onnx:${onnx}`, onnx]) {
      const p = await openPolicy(spec);
      expect(p).toBeInstanceOf(OnnxPolicy);
      expect((await p.metadata()).policyId).toBe('tiny');
      await p.close();
    }
  });

  it('connects to a Zetta policy server by zmq:// and ipc://', async () => {
    const backend = await OnnxPolicy.load(onnx);
    const tcp = await PolicyServer.start(backend, { bind: 'tcp://127.0.0.1:0' });
    const ipc = await PolicyServer.start(backend, { bind: `ipc://${join(dir, 's.sock')}` });
    const port = tcp.endpoint.split(':').at(-1);
    for (const spec of [`zmq://127.0.0.1:${port}`, ipc.endpoint]) {
      const p = await openPolicy(spec);
      expect((await p.metadata()).actionHorizon).toBe(10);
      const [r] = await p.infer([{ 'observation/state': { dtype: '<f4', shape: [8], data: new Float32Array(8) } }]);
      expect(r!.actions.shape).toEqual([10, 7]);
      await p.close();
    }
    await tcp.close();
    await ipc.close();
    await backend.close();
  });

  it('fails with PolicyUnavailable when nothing answers, and names a malformed spec', async () => {
    await expect(openPolicy(`ipc://${join(dir, 'nobody.sock')}`, { connectTimeoutMs: 300 })).rejects.toBeInstanceOf(PolicyUnavailable);
    await expect(openPolicy('zmq://localhost')).rejects.toThrowError(/expected zmq:\/\/HOST:PORT/);
    await expect(openPolicy('carrier-pigeon://x')).rejects.toBeInstanceOf(PolicySpecError);
  });
});
