// A remote world declares the restore programs it offers evolution in its spec (`restores`): the
// server knows its robot's heights and objects. Checked here: the world built from the spec offers
// them through the World port, a stage finds the one that names it, and a spec that declares one id
// twice or a malformed id is refused in one line.
import { afterEach, describe, expect, it } from 'vitest';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { RemoteEnvReplyError } from '../../../sim/remote/errors.js';
import { fetchSpec } from '../../../sim/remote/remote-env.js';
import { remoteWorld } from '../../../sim/remote/remote-world.js';
import { GOOD, SPEC, ScriptedServer } from './scripted-env-server.js';

const servers: ScriptedServer[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const program = (tool: string) => ({ budget: 6, steps: [{ tool, budget: 5 }] });
const RISE = { id: 'rise_clear', summary: 'rise clear of the rail', program: program('lift') };
const WAIT = { id: 'wait_a_moment', summary: 'wait a moment', program: program('hold'), stages: ['reached'] };

async function worldFrom(spec: Record<string, unknown>) {
  const server = await ScriptedServer.start((req) => (req.op === 'spec' ? { ok: true, spec } : GOOD[req.op as string]!()));
  servers.push(server);
  const endpoint = parseEndpoint(server.spec());
  return remoteWorld('toy', endpoint, await fetchSpec(endpoint));
}

describe('restores in the spec', () => {
  it("are the world's restores, in their order; a stage gets the one naming its kind, else the first", async () => {
    const world = await worldFrom({ ...SPEC, restores: [RISE, WAIT] });
    expect(world.restores!.actions.map((a) => [a.id, a.summary])).toEqual([
      ['rise_clear', 'rise clear of the rail'],
      ['wait_a_moment', 'wait a moment'],
    ]);
    expect(world.restores!.actions[0]!.program).toEqual(RISE.program);
    expect(world.restores!.forStage('cube.reached').id).toBe('wait_a_moment');
    expect(world.restores!.forStage('cube.placed').id).toBe('rise_clear');
  });

  it("a spec without restores offers none (evolution then pairs conditions with the critic's own actions)", async () => {
    expect((await worldFrom(SPEC)).restores).toBeUndefined();
  });

  it('one id declared twice is refused, naming the id', async () => {
    const err = await worldFrom({ ...SPEC, restores: [RISE, { ...WAIT, id: 'rise_clear' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteEnvReplyError);
    expect((err as Error).message).toBe(`env server's "spec" reply: spec.restores.1.id: "rise_clear" is declared twice`);
  });

  it('an id that is no program id is refused', async () => {
    const err = await worldFrom({ ...SPEC, restores: [{ ...RISE, id: 'Rise Clear' }] }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/spec\.restores\.0\.id: restore id: lower-case letters/);
  });
});
