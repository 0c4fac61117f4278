// An env server written by someone else from the wire's table alone (slider_env_server.py: a slider
// with a bump, not a tabletop) driven by the unchanged runtime: the remote world's schema comes from
// the server's spec, a real ONNX policy reaches over it, and a critic bundle written for this world
// gets the slider over the bump that stops the policy alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorld, resolveWorld } from '../../../sim/worlds.js';
import { evaluate } from '../../../measure/evaluation.js';
import { runGovernanceArms } from '../../../measure/governance-arms.js';
import { resolveCriticSpec } from '../../../zinfra/runtime/open-critic.js';
import { missing } from '../../support/python-shim-harness.js';
import { EnvServerProcess, HERE, SLIDER_SERVER } from './env-server-process.js';
import { writeSliderPolicy } from './slider-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-remote-slider-'));
const policy = `onnx:${writeSliderPolicy(join(dir, 'slider.onnx'))}`;
const bundle = join(HERE, 'slider-bundle');

describe.skipIf(missing !== null)(`a remote env server written from the wire table alone${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: EnvServerProcess;
  beforeAll(async () => {
    server = await EnvServerProcess.start(SLIDER_SERVER, ['--bind', 'tcp://127.0.0.1:*']);
  });
  afterAll(async () => {
    await server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a world built from its spec: SUITE/TASK ids, its own features with their provenance', async () => {
    const world = await loadWorld(resolveWorld(server.zmq));
    expect(world.name).toBe(server.zmq);
    expect(world.suites).toEqual(['slide']);
    expect(world.tasks().map((t) => [t.id, t.maxSteps])).toEqual([
      ['slide/open', 60],
      ['slide/bump', 60],
    ]);
    expect(world.features.features.map((f) => `${f.name}:${f.provenance}`)).toEqual([
      'observed.target_offset:observed',
      'observed.target_dist:observed',
      'privileged.blocked:privileged',
      'privileged.height:privileged',
    ]);
    expect(() => world.task('slide/nope')).toThrow(/unknown task "slide\/nope".*slide\/open/);
  });

  it('runs the policy alone: the open slide succeeds, the bump stops it (a task failure, not infra)', async () => {
    const r = await evaluate(
      {
        world: resolveWorld(server.zmq),
        tasks: ['slide/open', 'slide/bump'],
        episodesPerTask: 3,
        firstSeed: 1000,
        policy,
        executeSteps: 2,
      },
      { workers: 1 },
    );
    expect(r.tasks['slide/open']!.rate).toBe(1);
    expect(r.tasks['slide/bump']!.rate).toBe(0);
    expect(r.tasks['slide/bump']!.episodes).toBe(3);
    expect(r.infraFailures).toBe(0);
    // Same seed, same reset digest: the server's determinism reaches the report.
    const again = await evaluate(
      { world: resolveWorld(server.zmq), tasks: ['slide/bump'], episodesPerTask: 3, firstSeed: 1000, policy, executeSteps: 2 },
      { workers: 1 },
    );
    expect(again.outcomes.map((o) => o.resetDigest)).toEqual(r.outcomes.filter((o) => o.task === 'slide/bump').map((o) => o.resetDigest));
  });

  it('governed by a bundle for this world, the policy gets over the bump; the critic alone does not', async () => {
    const arms = await runGovernanceArms(
      {
        world: resolveWorld(server.zmq),
        tasks: ['slide/bump'],
        episodesPerTask: 4,
        firstSeed: 1000,
        policy,
        executeSteps: 2,
        critic: resolveCriticSpec(bundle)!,
        recordControls: false,
      },
      { workers: 1 },
    );
    const t = arms.perTask['slide/bump']!;
    expect(t.policy.value).toBe(0);
    expect(t.critic.value).toBe(0);
    expect(t.both.value).toBe(1);
    expect(t.synergy.value).toBe(1);
  });
});
