// The LIBERO and RoboCasa env servers (sim/remote/python/) on their built-in backends, over real sockets with
// Debian's python3: the spec validates, the layouts and the protocol are LIBERO's (RoboCasa's), and
// `zetta eval --env … --suite libero_spatial` runs every task under LIBERO's protocol with the policy
// behind Zetta's Python shim, which receives the observation exactly as openpi's LIBERO client sends it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { RemoteEnv, fetchSpec, type RemoteObservation } from '../../../sim/remote/remote-env.js';
import * as zmq from 'zeromq';
import { decode, encode } from '../../../protocol/codec.js';
import { ndarray, type NdArray } from '../../../protocol/ndarray.js';
import { Shim, missing } from '../../support/python-shim-harness.js';
import { runZetta } from '../../support/zetta-process.js';
import { EnvServerProcess, HERE, LIBERO_SERVER, PYTHON, ROBOCASA_SERVER, ROOT } from './env-server-process.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-remote-libero-'));
const f64 = (shape: number[], data: Float64Array) => ndarray('<f8', shape, data);
const python = (code: string) => spawnSync(PYTHON, ['-c', code], { cwd: join(ROOT, 'sim/remote/python'), encoding: 'utf8' });

describe.skipIf(missing !== null)(`the LIBERO env server, built-in backend${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let server: EnvServerProcess;
  beforeAll(async () => {
    server = await EnvServerProcess.start(LIBERO_SERVER, ['--backend', 'builtin', '--bind', 'tcp://127.0.0.1:*', '--exit-on-stdin-eof']);
  });
  afterAll(async () => {
    await server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it("declares LIBERO's suites, max steps, protocol, layouts and privileged features", async () => {
    const spec = await fetchSpec(parseEndpoint(server.zmq));
    expect(Object.keys(spec.suites)).toEqual(['libero_spatial', 'libero_object', 'libero_goal']);
    expect(Object.values(spec.suites).map((t) => t.length)).toEqual([10, 10, 10]);
    expect(spec.max_steps).toEqual({ libero_spatial: 220, libero_object: 280, libero_goal: 300 });
    expect(spec.protocol).toMatchObject({ wait_steps: 10, init_states: 50, image_size: 224, backend: 'builtin' });
    expect(spec.observation).toEqual({
      'observation/image': { dtype: '|u1', shape: [224, 224, 3] },
      'observation/wrist_image': { dtype: '|u1', shape: [224, 224, 3] },
      'observation/state': { dtype: '<f4', shape: [8] },
    });
    expect(spec.features.filter((f) => f.provenance === 'privileged').map((f) => f.name)).toEqual(
      expect.arrayContaining(['privileged.object_x', 'privileged.gripper_object_contact', 'privileged.goal_progress']),
    );
  });

  it('50 initial states per task: seed s and s + 50 start the same, s + 1 does not; the wait steps are not counted', async () => {
    const endpoint = parseEndpoint(server.zmq);
    const env = new RemoteEnv(endpoint, await fetchSpec(endpoint));
    const task = 'libero_spatial/pick_up_the_black_bowl_on_the_stove_and_place_it_on_the_plate';
    const a = await env.reset({ task, seed: 7 });
    const digest = a.info.resetDigest;
    const map = (env.observe() as RemoteObservation).map;
    expect((map['observation/image'] as NdArray).shape).toEqual([224, 224, 3]);
    expect(map.prompt).toBe('pick up the black bowl on the stove and place it on the plate');
    expect(env.spec().maxSteps).toBe(220);
    expect(env.observe().t).toBe(0);
    expect((await env.reset({ task, seed: 57 })).info.resetDigest).toBe(digest);
    expect((await env.reset({ task, seed: 8 })).info.resetDigest).not.toBe(digest);
    await env.step(Float32Array.of(0, 0, 0, 0, 0, 0, -1));
    expect(env.features().values.every((v) => Number.isFinite(v))).toBe(true);
    await env.close();
  });

  it('answers a request that breaks the wire with ok:false and a code, and keeps serving', async () => {
    const req = new zmq.Request({ linger: 0, receiveTimeout: 10_000 });
    req.connect(server.endpoint);
    const ask = async (msg: unknown) => {
      await req.send(encode(msg));
      return decode((await req.receive())[0]!) as { ok: boolean; error?: { code: string; message: string } };
    };
    try {
      expect(await ask({ op: 'fly' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
      expect(await ask({ op: 'reset', suite: 'libero_spatial', task: 'nope', seed: 1, perturbation: null })).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN_TASK' },
      });
      expect(await ask({ op: 'reset', suite: 'libero_99', task: 'x', seed: 1, perturbation: null })).toMatchObject({
        ok: false,
        error: { code: 'UNKNOWN_SUITE' },
      });
      expect(await ask({ op: 'step', action: f64([7], new Float64Array(7)) })).toMatchObject({ ok: false, error: { code: 'NOT_RESET' } });
      const task = 'pick_up_the_black_bowl_on_the_stove_and_place_it_on_the_plate';
      expect(await ask({ op: 'reset', suite: 'libero_spatial', task, seed: 1, perturbation: null })).toMatchObject({ ok: true });
      expect(await ask({ op: 'step', action: f64([7], new Float64Array(7)) })).toMatchObject({
        ok: false,
        error: { code: 'BAD_ACTION', message: 'action must be float32 (7,), got float64 (7,)' },
      });
      expect(await ask({ op: 'close' })).toEqual({ ok: true });
      expect(await ask({ op: 'spec' })).toMatchObject({ ok: true });
    } finally {
      req.close();
    }
  });

  it("images are rotated 180 degrees and resized with padding to 224, as openpi's client does", () => {
    const r = python(`
import numpy as np, libero_protocol as p
img = np.zeros((256, 256, 3), np.uint8); img[:16, :16] = 255  # top left, as robosuite renders it
out = p.to_policy_image(img)
print(out.shape, out.dtype, int(out[-1, -1, 0]), int(out[0, 0, 0]))
print(p.max_steps_for("libero_spatial_swap"), p.max_steps_for("libero_10"), p.quat2axisangle(np.array([0, 0, 0, 1.0])).tolist())`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['(224, 224, 3) uint8 255 0', '220 520 [0.0, 0.0, 0.0]']);
  });

  it("zetta eval --env … --suite libero_spatial: every task under LIBERO's protocol, the policy behind the Python shim, and the report says which protocol", async () => {
    const shim = await Shim.start([
      '--policy',
      `module:${join(HERE, 'openpi_like_policy.py')}:factory`,
      '--bind',
      `ipc://${dir}/policy.sock`,
    ]);
    try {
      const r = await runZetta(
        [
          'eval',
          '--env',
          server.zmq,
          '--suite',
          'libero_spatial',
          '--episodes',
          '1',
          '--seed',
          '0',
          '--policy',
          shim.endpoint,
          '--no-record',
          '--out',
          join(dir, 'eval'),
          '--json',
        ],
        300_000,
      );
      expect(r.code, `${r.stderr}\n${shim.log}`).toBe(0);
      const report = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
        tasks: Record<string, { episodes: number; infra_failures: number }>;
        executed_steps: number;
        env: { protocol: Record<string, unknown> };
      };
      expect(Object.keys(report.tasks)).toHaveLength(10);
      expect(Object.values(report.tasks).every((t) => t.episodes === 1 && t.infra_failures === 0)).toBe(true);
      expect(report.executed_steps).toBe(10 * 220); // the do-nothing policy runs every episode to LIBERO's max steps
      expect(report.env.protocol).toMatchObject({
        trials_per_task: 1,
        max_steps: { libero_spatial: 220 },
        wait_steps: 10,
        init_states: 50,
        init_state_of_seed: 'seed mod 50',
      });
    } finally {
      await shim.stop();
    }
  }, 300_000);
});

describe.skipIf(missing !== null)(`the RoboCasa env server, built-in backend${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('declares the 18 atomic-seen tasks, three cameras and the 8-D state, and steps them', async () => {
    const server = await EnvServerProcess.start(ROBOCASA_SERVER, [
      '--backend',
      'builtin',
      '--bind',
      'tcp://127.0.0.1:*',
      '--exit-on-stdin-eof',
    ]);
    try {
      const endpoint = parseEndpoint(server.zmq);
      const spec = await fetchSpec(endpoint);
      expect(spec.suites.atomic_seen).toHaveLength(18);
      expect(spec.suites.atomic_seen).toContain('PickPlaceCounterToCabinet');
      expect(Object.keys(spec.observation).sort()).toEqual([
        'observation/image',
        'observation/image_right',
        'observation/state',
        'observation/wrist_image',
      ]);
      expect(spec.protocol).toMatchObject({ scenes: 5, trials_per_scene: 10, robot_action_dim: 12 });
      const env = new RemoteEnv(endpoint, spec);
      const reset = await env.reset({ task: 'atomic_seen/OpenDrawer', seed: 12 });
      expect(reset.info.instruction).toBe('open drawer');
      const step = await env.step(Float32Array.of(0.1, 0, 0, 0, 0, 0, 1));
      expect(step.done).toBe(false);
      await env.close();
    } finally {
      await server.kill('SIGTERM');
    }
  });

  it("maps the 7-D action to PandaOmron's 12-D one: arm and gripper as given, base still, arm mode", () => {
    const r = python(`
import numpy as np, robocasa_env_server as s
print(s.map_action(np.arange(1, 8, dtype=np.float32) / 10).round(2).tolist(), s.scene_of(0), s.scene_of(19), s.scene_of(55))`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.0, 0.0, 0.0, 0.0, -1.0] 0 1 0');
  });
});
