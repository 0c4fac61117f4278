// A run leaves no socket files behind: the Python shim removes its ipc socket file when it shuts
// down, and stopping a shim that was killed removes the file it could not.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomMlp, writeMlpNpz } from '../../models/build/mlp-onnx.js';
import { startPythonPolicyServer } from '../../zinfra/policy/python-shim/python-server-process.js';
import { missing } from '../support/python-shim-harness.js';

describe.skipIf(missing !== null)('the Python shim and its ipc socket file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-shim-sock-'));
  const npz = join(dir, 'mlp.npz');
  writeMlpNpz(npz, randomMlp({ inputDim: 8, hidden: [8], horizon: 10, actionDim: 7, seed: 3 }), 'observation/state');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a shim asked to stop (SIGTERM) removes its socket file itself', async () => {
    const path = join(dir, 'term.sock');
    const shim = await startPythonPolicyServer({ policy: `npz-mlp:${npz}`, bind: `ipc://${path}` });
    expect(existsSync(path)).toBe(true);
    const exited = new Promise((r) => shim.process.once('exit', r));
    shim.process.kill('SIGTERM');
    await exited;
    expect(existsSync(path)).toBe(false);
  }, 180_000); // a Python process that imports numpy starts slowly on a loaded machine

  it('stopping a killed shim removes the file it left', async () => {
    const path = join(dir, 'kill.sock');
    const shim = await startPythonPolicyServer({ policy: `npz-mlp:${npz}`, bind: `ipc://${path}` });
    const exited = new Promise((r) => shim.process.once('exit', r));
    shim.process.kill('SIGKILL');
    await exited;
    await shim.stop();
    expect(existsSync(path)).toBe(false);
  }, 180_000);
});
