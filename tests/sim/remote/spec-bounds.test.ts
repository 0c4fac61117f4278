// What a spec may ask for: max_steps within a stated bound (a server that never says `done` cannot
// make an episode run for a billion steps), and the dtypes under any name numpy gives them ("float32"
// for "<f4"), checked against Debian's numpy so the accepted spellings are numpy's own.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { MAX_EPISODE_STEPS } from '../../../sim/remote/env-wire.js';
import { RemoteEnvReplyError } from '../../../sim/remote/errors.js';
import { RemoteEnv, fetchSpec } from '../../../sim/remote/remote-env.js';
import { wireDTypeSpellings } from '../../../sim/remote/wire-dtype.js';
import { missing } from '../../support/python-shim-harness.js';
import { PYTHON } from './env-server-process.js';
import { GOOD, SPEC, ScriptedServer } from './scripted-env-server.js';

const servers: ScriptedServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function specFrom(spec: Record<string, unknown>) {
  const server = await ScriptedServer.start((req) => (req.op === 'spec' ? { ok: true, spec } : GOOD[req.op as string]!()));
  servers.push(server);
  const endpoint = parseEndpoint(server.spec());
  return { endpoint, fetched: fetchSpec(endpoint) };
}

describe('max_steps', () => {
  it('a spec asking for 1e9 steps is refused in one line naming the bound', async () => {
    const { fetched } = await specFrom({ ...SPEC, max_steps: { s: 1e9 } });
    const err = await fetched.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvReplyError);
    expect((err as Error).message).toBe(
      `env server's "spec" reply: spec.max_steps.s: must be at most ${MAX_EPISODE_STEPS}: an episode runs at most ${MAX_EPISODE_STEPS} steps`,
    );
  });

  it('the bound itself is accepted', async () => {
    const { fetched } = await specFrom({ ...SPEC, max_steps: { s: MAX_EPISODE_STEPS } });
    expect((await fetched).max_steps.s).toBe(MAX_EPISODE_STEPS);
  });
});

describe('dtype names in the spec', () => {
  it('"float32" and "uint8" (numpy names) are the wire\'s <f4 and |u1, and an episode runs on them', async () => {
    const observation = {
      'observation/state': { dtype: 'float32', shape: [8] },
      'observation/image': { dtype: 'uint8', shape: [2, 2, 3] },
    };
    const { endpoint, fetched } = await specFrom({ ...SPEC, observation });
    const wire = await fetched;
    expect(wire.observation['observation/state']!.dtype).toBe('<f4');
    expect(wire.observation['observation/image']!.dtype).toBe('|u1');
    const env = new RemoteEnv(endpoint, wire);
    await env.reset({ task: 's/t', seed: 1 }); // the server's arrays say "<f4" and "|u1": they match
    expect((await env.step(new Float32Array(7))).done).toBe(false);
    await env.close();
  });

  it('a dtype the wire does not carry is refused, saying which it does', async () => {
    const { fetched } = await specFrom({ ...SPEC, observation: { 'observation/state': { dtype: '>f4', shape: [8] } } });
    await expect(fetched).rejects.toThrow(
      /spec\.observation\.observation\/state\.dtype: ">f4" is not a dtype of the wire: the wire carries little-endian <f4 \(float32\), <f8 \(float64\), \|u1 \(uint8\)/,
    );
  });

  it.skipIf(missing !== null)("every accepted spelling is one numpy gives the same dtype (Debian's numpy)", () => {
    const table = Object.fromEntries(wireDTypeSpellings());
    expect(table).toMatchObject({
      float32: '<f4',
      f4: '<f4',
      single: '<f4',
      double: '<f8',
      bool: '|b1',
      '?': '|b1',
      int64: '<i8',
      B: '|u1',
    });
    const script = 'import json,sys,numpy as np\nprint(json.dumps({k: np.dtype(k).str for k in json.load(sys.stdin)}))';
    const run = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(Object.keys(table)), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(table);
  });
});
