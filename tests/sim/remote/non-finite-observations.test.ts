// A server that sends NaN observations while it reports success: the episode is the infrastructure's
// failure, named (the field and the value), never counted as a success.
import { afterEach, describe, expect, it } from 'vitest';
import { evaluate } from '../../../measure/evaluation.js';
import { f32 } from '../../../protocol/ndarray.js';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { RemoteEnvNonFinite } from '../../../sim/remote/errors.js';
import { RemoteEnv, fetchSpec } from '../../../sim/remote/remote-env.js';
import { resolveWorld } from '../../../sim/worlds.js';
import { classifyFailure } from '../../../zinfra/runtime/run-episode.js';
import { GOOD, ScriptedServer, obs } from './scripted-env-server.js';

const servers: ScriptedServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

function nanObs() {
  const state = new Float32Array(8);
  state[2] = Number.NaN;
  return { ...obs(), 'observation/state': f32([8], state) };
}

async function nanServer(): Promise<ScriptedServer> {
  const server = await ScriptedServer.start((req) =>
    req.op === 'step'
      ? { ok: true, obs: nanObs(), reward: 1, done: true, info: { success: true, features: { 'observed.gap': 0 } } }
      : GOOD[req.op as string]!(),
  );
  servers.push(server);
  return server;
}

describe('non-finite observations', () => {
  it("a step whose observation holds NaN is refused as the infrastructure's failure, naming the field", async () => {
    const endpoint = parseEndpoint((await nanServer()).spec());
    const env = new RemoteEnv(endpoint, await fetchSpec(endpoint));
    await env.reset({ task: 's/t', seed: 1 });
    const err = await env.step(new Float32Array(7)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvNonFinite);
    expect((err as Error).message).toBe(
      `env server's "step" reply: obs.observation/state[2] is NaN (a non-finite observation: the simulator broke)`,
    );
    expect(classifyFailure(err)).toBe('infra');
    await env.close();
  });

  it('an evaluation counts no success from such a server: every episode is an infra failure', async () => {
    const server = await nanServer();
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
    expect(r.outcomes.map((o) => [o.success, o.infraFailure])).toEqual([
      [false, expect.stringMatching(/obs\.observation\/state\[2\] is NaN/)],
      [false, expect.stringMatching(/obs\.observation\/state\[2\] is NaN/)],
    ]);
    expect(r.tasks['s/t']).toMatchObject({ successes: 0, episodes: 0, infraFailures: 2 });
  });
});
