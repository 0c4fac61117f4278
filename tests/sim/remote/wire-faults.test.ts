// Bad replies, refusals and stalls from an env server, over real sockets: a REP peer in this process
// (scripted-env-server.ts) answers each op as a test tells it to. Each fault is one clear error naming the op and the field; a stall
// is timed out and counted as the infrastructure's, like a server that went away.
import { afterEach, describe, expect, it } from 'vitest';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { RemoteEnvError, RemoteEnvReplyError, RemoteEnvUnavailable } from '../../../sim/remote/errors.js';
import { RemoteEnv, fetchSpec } from '../../../sim/remote/remote-env.js';
import { f32 } from '../../../protocol/ndarray.js';
import { resolveWorld } from '../../../sim/worlds.js';
import { evaluate } from '../../../measure/evaluation.js';
import { classifyFailure } from '../../../zinfra/runtime/run-episode.js';
import { GOOD, SPEC, ScriptedServer, obs, type Answer } from './scripted-env-server.js';

const servers: ScriptedServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serverWith(overrides: Partial<Record<string, () => Answer>>): Promise<ScriptedServer> {
  const s = await ScriptedServer.start((req) => (overrides[req.op as string] ?? GOOD[req.op as string]!)());
  servers.push(s);
  return s;
}

async function envOn(server: ScriptedServer, extra = ''): Promise<RemoteEnv> {
  const endpoint = parseEndpoint(server.spec(extra));
  return new RemoteEnv(endpoint, await fetchSpec(endpoint));
}

describe('a spec that does not validate', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['a missing key', { ...SPEC, control_hz: undefined }, /"spec" reply: spec\.control_hz: /],
    ['an action_dim other than 7', { ...SPEC, action_dim: 12 }, /"spec" reply: spec\.action_dim: must be 7/],
    ['an unknown dtype', { ...SPEC, observation: { x: { dtype: '<f2', shape: [1] } } }, /"spec" reply: spec\.observation\.x\.dtype: /],
    ['a suite without max steps', { ...SPEC, suites: { s: ['t'], other: ['u'] } }, /"spec" reply: spec\.max_steps\.other: missing/],
    [
      'a feature taking a critic name',
      { ...SPEC, features: [{ ...SPEC.features[0], name: 'robot.eef_x' }] },
      /spec\.features\.0\.name: must not start with robot\./,
    ],
    [
      'a feature declared twice',
      { ...SPEC, features: [SPEC.features[0], SPEC.features[0]] },
      /spec\.features\.1\.name: "observed\.gap" is declared twice/,
    ],
    ['a bad provenance', { ...SPEC, features: [{ ...SPEC.features[0], provenance: 'secret' }] }, /spec\.features\.0\.provenance: /],
  ];
  for (const [what, spec, message] of cases) {
    it(`rejects ${what}, naming the op and the field`, async () => {
      const server = await serverWith({ spec: () => ({ ok: true, spec }) });
      const err = await fetchSpec(parseEndpoint(server.spec())).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RemoteEnvReplyError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message.split('\n')).toHaveLength(1);
    });
  }
});

describe('bad reset and step replies', () => {
  it('a wrong dtype in the observation names the op and the key', async () => {
    const server = await serverWith({
      reset: () => ({
        ...GOOD.reset!(),
        obs: { ...obs(), 'observation/state': { __ndarray__: true, data: new Uint8Array(64), dtype: '<f8', shape: [8] } },
      }),
    });
    const env = await envOn(server);
    await expect(env.reset({ task: 's/t', seed: 1 })).rejects.toThrow(
      /env server's "reset" reply: obs\.observation\/state: dtype <f8; the spec declares <f4/,
    );
    await env.close();
  });

  it('a missing observation key, a missing reply key and an undeclared feature each name their field', async () => {
    const server = await serverWith({
      reset: () => ({ ...GOOD.reset!(), obs: { 'observation/state': f32([8], new Float32Array(8)) } }),
    });
    const env = await envOn(server);
    await expect(env.reset({ task: 's/t', seed: 1 })).rejects.toThrow(
      /"reset" reply: obs\.observation\/image: missing: the spec declares it/,
    );
    await env.close();

    const s2 = await serverWith({ step: () => ({ ok: true, obs: obs(), reward: 0, info: { success: false, features: {} } }) });
    const env2 = await envOn(s2);
    await env2.reset({ task: 's/t', seed: 1 });
    const err = await env2.step(new Float32Array(7)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvReplyError);
    expect(err).toMatchObject({ op: 'step', field: 'done' });
    await env2.close();

    const s3 = await serverWith({ step: () => ({ ...GOOD.step!(), info: { success: false, features: { 'observed.gapp': 1 } } }) });
    const env3 = await envOn(s3);
    await env3.reset({ task: 's/t', seed: 1 });
    await expect(env3.step(new Float32Array(7))).rejects.toThrow(/"step" reply: info\.features\.observed\.gapp: not declared in the spec/);
    await env3.close();
  });

  it("an ok:false reply is the server's error with its code, and a bug to fix (not infra)", async () => {
    const server = await serverWith({ reset: () => ({ ok: false, error: { code: 'UNKNOWN_TASK', message: 'no task t in s' } }) });
    const env = await envOn(server);
    const err = await env.reset({ task: 's/t', seed: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvError);
    expect((err as Error).message).toBe('env server refused "reset": UNKNOWN_TASK: no task t in s');
    expect(classifyFailure(err)).toBe('bug');
    await env.close();
  });

  it("SIM_FAILED from the server is the infrastructure's", async () => {
    const server = await serverWith({ step: () => ({ ok: false, error: { code: 'SIM_FAILED', message: 'MuJoCo died' } }) });
    const env = await envOn(server);
    await env.reset({ task: 's/t', seed: 1 });
    const err = await env.step(new Float32Array(7)).catch((e: unknown) => e);
    expect(classifyFailure(err)).toBe('infra');
    expect((err as Error).message).toMatch(/"step": SIM_FAILED: MuJoCo died/);
    await env.close();
  });

  it("sends the wire's requests: reset with suite, task, seed and perturbation; step with a float32 (7,) array", async () => {
    const server = await serverWith({});
    const env = await envOn(server);
    await env.reset({ task: 's/t', seed: 42 });
    const result = await env.step(Float32Array.of(0.5, 0, 0, 0, 0, 0, -1));
    expect(result.obs).toBe(env.observe());
    expect(env.features().values[0]).toBeCloseTo(0.1);
    expect(env.spec()).toMatchObject({ task: 's/t', suite: 's', instruction: 'do t', maxSteps: 10, features: ['observed.gap'] });
    const [spec, reset, step] = server.requests.slice(-3);
    expect(spec).toEqual({ op: 'spec' });
    expect(reset).toEqual({ op: 'reset', suite: 's', task: 't', seed: 42, perturbation: null });
    expect(step).toMatchObject({ op: 'step', action: { dtype: '<f4', shape: [7] } });
    expect(Array.from((step!.action as { data: Float32Array }).data)).toEqual([0.5, 0, 0, 0, 0, 0, -1]);
    // The policy gets the server's map, with the instruction as prompt.
    expect(Object.keys((env.observe() as unknown as { map: object }).map).sort()).toEqual([
      'observation/image',
      'observation/state',
      'prompt',
    ]);
    await env.close();
  });
});

describe('a server that stalls or is not there', () => {
  it('a step that is never answered is timed out and counted as an infrastructure failure', async () => {
    const server = await serverWith({ step: () => 'stall' });
    const env = await envOn(server);
    await env.reset({ task: 's/t', seed: 1 });
    const err = await env.step(new Float32Array(7)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvUnavailable);
    expect(err).toMatchObject({ op: 'step', reason: 'timeout' });
    expect((err as Error).message).toMatch(/did not answer "step" within 400 ms/);
    expect(classifyFailure(err)).toBe('infra');
    env.close().catch(() => undefined);
  });

  it('a server that went away between steps took its episode along: the next step fails, it never reaches the new server', async () => {
    const first = await serverWith({});
    const port = first.endpoint.split(':').at(-1)!;
    const env = await envOn(first);
    await env.reset({ task: 's/t', seed: 1 });
    first.close();
    servers.splice(servers.indexOf(first), 1);
    const second = await ScriptedServer.start((req) => GOOD[req.op as string]!(), `tcp://127.0.0.1:${port}`);
    servers.push(second);
    await new Promise((r) => setTimeout(r, 300)); // the client hears of the closed connection
    const err = await env.step(new Float32Array(7)).catch((e: unknown) => e);
    expect(err).toMatchObject({ op: 'step', reason: 'disconnected' });
    expect((err as Error).message).toMatch(/closed the connection before "step".*its episode is gone/);
    expect(second.requests.map((r) => r.op)).not.toContain('step');
    // A new episode starts over on the new server.
    expect((await env.reset({ task: 's/t', seed: 2 })).info.resetDigest).toBe('d1');
    expect(second.requests.map((r) => r.op)).toEqual(['reset']);
    await env.close();
  });

  it('a reset that is never answered ends the episode as an infra failure, and the evaluation goes on', async () => {
    const server = await serverWith({ reset: () => 'stall' });
    const r = await evaluate(
      {
        world: resolveWorld(server.spec()),
        tasks: ['s/t'],
        episodesPerTask: 2,
        firstSeed: 1,
        policy: 'null:open',
        executeSteps: 1,
        infraRetries: 0,
      },
      { workers: 1 },
    );
    expect(r.outcomes.map((o) => [o.steps, o.success, o.infraFailure])).toEqual([
      [0, false, expect.stringMatching(/did not answer "reset" within 400 ms/)],
      [0, false, expect.stringMatching(/did not answer "reset" within 400 ms/)],
    ]);
    expect(r.tasks['s/t']).toMatchObject({ episodes: 0, infraFailures: 2 });
  });

  it('no server at the address: the spec request times out with the address in the message', async () => {
    const err = await fetchSpec(parseEndpoint('zmq://127.0.0.1:9?timeout_ms=300')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvUnavailable);
    expect((err as Error).message).toBe('env server tcp://127.0.0.1:9 did not answer "spec" within 300 ms');
  });

  it('speaks DEALER with the empty delimiter frame as well as REQ', async () => {
    const server = await serverWith({});
    const env = await envOn(server, '&socket=dealer');
    const r = await env.reset({ task: 's/t', seed: 3 });
    expect(r.info.resetDigest).toBe('d1');
    expect((await env.step(new Float32Array(7))).done).toBe(false);
    await env.close();
  });
});

describe('the zmq:// address', () => {
  it('takes timeouts and the socket kind in its query, and rejects anything else in one line', () => {
    expect(parseEndpoint('zmq://h:5555?timeout_ms=5&reset_timeout_ms=7&socket=dealer')).toMatchObject({
      address: 'tcp://h:5555',
      timeoutMs: 5,
      resetTimeoutMs: 7,
      socket: 'dealer',
    });
    expect(parseEndpoint('zmq+ipc:///tmp/env.sock').address).toBe('ipc:///tmp/env.sock');
    expect(() => parseEndpoint('zmq://h')).toThrow(/expected zmq:\/\/HOST:PORT/);
    expect(() => parseEndpoint('zmq://h:1?timeout=5')).toThrow(/unknown setting "timeout"/);
    expect(() => parseEndpoint('zmq://h:1?timeout_ms=-1')).toThrow(/timeout_ms must be an integer from 1 to 86400000 \(ms\), got "-1"/);
  });

  // Node's timers hold 2^31 − 1 ms; a longer delay fired at once, claiming the server did not answer
  it.each([
    ['timeout_ms=99999999999', /timeout_ms must be an integer from 1 to 86400000 \(ms\), got "99999999999"/],
    ['reset_timeout_ms=2147483648', /reset_timeout_ms must be an integer from 1 to 86400000/],
    ['timeout_ms=1e4', /timeout_ms must be an integer .* got "1e4"/],
    ['timeout_ms=0x10', /timeout_ms must be an integer .* got "0x10"/],
  ])('refuses %s in one line', (query, message) => {
    expect(() => parseEndpoint(`zmq://h:1?${query}`)).toThrow(message);
  });

  it('refuses a port outside 1–65535 instead of connecting to another', () => {
    expect(() => parseEndpoint('zmq://h:99999')).toThrow(/the port must be an integer from 1 to 65535, got "99999"/);
    expect(() => parseEndpoint('zmq://h:0')).toThrow(/the port must be an integer from 1 to 65535, got "0"/);
    expect(parseEndpoint('zmq://h:65535?timeout_ms=86400000').timeoutMs).toBe(86_400_000);
  });
});
