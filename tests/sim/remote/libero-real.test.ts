// The LIBERO env server on the real LIBERO (robosuite 1.4, MuJoCo 2.3.7), where one is installed:
// ZETTA_LIBERO_PYTHON names a Python in which `libero.libero`, robosuite and mujoco import, with the
// environment that installation needs already set (MUJOCO_GL for headless rendering,
// LIBERO_CONFIG_PATH for LIBERO's paths). Elsewhere every test here is skipped, the reason in its name.
//
// What it checks against the simulator itself: the server starts with its defaults and names the
// suites LIBERO cannot build; an episode starts from LIBERO's initial state `seed mod 50` after exactly
// 10 wait steps, the same seed giving the same first observation; the images are the raw render
// rotated 180 degrees (upright, mirrored left to right) and resized as openpi's client does; and `zetta eval` runs
// libero_spatial under LIBERO's protocol with no infrastructure failure, without cameras and with them.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zmq from 'zeromq';
import { decode, encode } from '../../../protocol/codec.js';
import type { NdArray } from '../../../protocol/ndarray.js';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { RemoteEnv, type RemoteObservation, fetchSpec } from '../../../sim/remote/remote-env.js';
import { awaitReadyLine } from '../../../util/child-process.js';
import { runZetta } from '../../support/zetta-process.js';
import { LIBERO_SERVER, ROOT } from './env-server-process.js';
import { LIBERO_PYTHON, liberoMissing } from './libero-python.js';

const PYTHON = LIBERO_PYTHON;
const SPATIAL = 'libero_spatial';
// libero_spatial's task 0 in LIBERO's order.
const TASK0 = 'pick_up_the_black_bowl_between_the_plate_and_the_ramekin_and_place_it_on_the_plate';
const STARTUP_MS = 240_000;

const missing = liberoMissing();
const skipNote = missing ? ` (skipped: ${missing})` : '';

/** A real-LIBERO env server: `ready` on stdout, everything LIBERO says on stderr. */
class LiberoServer {
  stderr = '';
  private constructor(
    private readonly proc: ChildProcess,
    readonly endpoint: string,
  ) {}

  static async start(args: string[]): Promise<LiberoServer> {
    const proc = spawn(PYTHON, [LIBERO_SERVER, '--backend', 'libero', '--bind', 'tcp://127.0.0.1:*', '--exit-on-stdin-eof', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const endpoint = await awaitReadyLine(
      proc,
      (line) => /^ready (\S+)$/.exec(line)?.[1],
      STARTUP_MS,
      (why) => new Error(`libero_env_server.py ${why} before ready:\n${stderr}`),
    );
    const server = new LiberoServer(proc, endpoint);
    server.stderr = stderr;
    proc.stderr!.on('data', (d: Buffer) => (server.stderr += d.toString()));
    return server;
  }

  get zmq(): string {
    return this.endpoint.replace(/^tcp:/, 'zmq:');
  }

  stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.proc.once('exit', () => resolve());
      this.proc.kill('SIGTERM');
    });
  }
}

/** LIBERO driven directly (no server) from initial state `seed mod 50` of libero_spatial's task 0. */
function reference(seed: number): {
  states: number[][];
  image_sha256: string;
  wrist_sha256: string;
  cabinet_projected: [number, number];
  cabinet_seen: [number, number];
  raw_cabinet_seen: [number, number];
} {
  const code = `
import contextlib, hashlib, json, sys
import numpy as np
with contextlib.redirect_stdout(sys.stderr):
    from libero.libero import benchmark, get_libero_path
    from libero.libero.envs import OffScreenRenderEnv
    import libero_protocol as p
    bench = benchmark.get_benchmark_dict()["${SPATIAL}"]()
    names = [bench.get_task(i).name for i in range(bench.n_tasks)]
    index = names.index("${TASK0}")
    task = bench.get_task(index)
    env = OffScreenRenderEnv(bddl_file_name=f"{get_libero_path('bddl_files')}/{task.problem_folder}/{task.bddl_file}",
                             camera_heights=p.RENDER_SIZE, camera_widths=p.RENDER_SIZE)
    seed = ${seed}
    env.seed(seed)
    env.reset()
    obs = env.set_init_state(bench.get_task_init_states(index)[seed % p.INIT_STATES])
    state8 = lambda o: np.concatenate((o["robot0_eef_pos"], p.quat2axisangle(o["robot0_eef_quat"]), o["robot0_gripper_qpos"])).astype(np.float32)
    states = [state8(obs).tolist()]
    for _ in range(p.WAIT_STEPS + 1):
        obs = env.step(p.DUMMY_ACTION)[0]
        states.append(state8(obs).tolist())
    # states[k]: the state after k wait steps. Again from the start, to stop after exactly 10 for the images.
    env.seed(seed)
    env.reset()
    obs = env.set_init_state(bench.get_task_init_states(index)[seed % p.INIT_STATES])
    for _ in range(p.WAIT_STEPS):
        obs = env.step(p.DUMMY_ACTION)[0]
    sha = lambda a: hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()
    inner = env.env
    sim = inner.sim
    cam = "agentview"
    size = p.RENDER_SIZE
    raw = sim.render(camera_name=cam, width=size, height=size)
    # Paint the wooden cabinet (a fixture at the table's side) pure red and render again: the pixels
    # that change are the cabinet's.
    geoms = [g for g in range(sim.model.ngeom) if sim.model.body_id2name(sim.model.geom_bodyid[g]).startswith("wooden_cabinet_1")]
    sim.model.geom_matid[geoms] = -1
    sim.model.geom_rgba[geoms] = [1, 0, 0, 1]
    painted = sim.render(camera_name=cam, width=size, height=size)
    def centroid(a, b):
        rows, cols = np.nonzero(np.any(a != b, axis=-1))
        return [float(rows.mean()), float(cols.mean())]
    raw_seen = centroid(raw, painted)
    seen = centroid(p.to_policy_image(raw), p.to_policy_image(painted))
    # Where an upright pinhole camera puts the cabinet's geoms (MuJoCo's camera looks along its -z, y up).
    cid = sim.model.camera_name2id(cam)
    d = sim.data.cam_xmat[cid].reshape(3, 3).T @ (np.mean(sim.data.geom_xpos[geoms], axis=0) - sim.data.cam_xpos[cid])
    f = (size / 2) / np.tan(np.deg2rad(sim.model.cam_fovy[cid]) / 2)
    row, col = size / 2 - f * d[1] / -d[2], size / 2 + f * d[0] / -d[2]
    scale = p.IMAGE_SIZE / size
    out = {"states": states, "image_sha256": sha(p.to_policy_image(obs["agentview_image"])),
           "wrist_sha256": sha(p.to_policy_image(obs["robot0_eye_in_hand_image"])),
           "cabinet_projected": [float(row * scale), float(col * scale)], "cabinet_seen": seen, "raw_cabinet_seen": raw_seen}
print(json.dumps(out))`;
  const r = spawnSync(PYTHON, ['-c', code], {
    cwd: join(ROOT, 'sim/remote/python'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`the reference run failed (${r.status}):\n${r.stderr.slice(-4000)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

const sha256 = (a: NdArray) =>
  createHash('sha256')
    .update(Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength))
    .digest('hex');
const state = (map: Record<string, unknown>) => Array.from((map['observation/state'] as NdArray).data as Float32Array);

interface EvalReport {
  tasks: Record<string, { episodes: number; infra_failures: number }>;
  executed_steps: number;
  infra_failures: number;
  env: { protocol: Record<string, unknown> };
}

async function evalSpatial(server: LiberoServer, tasks: string[], out: string): Promise<{ report: EvalReport; stdout: string }> {
  const r = await runZetta(
    [
      'eval',
      '--env',
      `${server.zmq}?reset_timeout_ms=240000&timeout_ms=60000`,
      '--suite',
      SPATIAL,
      '--tasks',
      tasks.map((t) => `${SPATIAL}/${t}`).join(','),
      '--episodes',
      '1',
      '--seed',
      '0',
      '--policy',
      'null:open',
      '--no-record',
      '--out',
      out,
      '--json',
    ],
    900_000,
  );
  expect(r.code, `${r.stderr}\n${server.stderr.slice(-4000)}`).toBe(0);
  return { report: JSON.parse(r.stdout.trim().split('\n').at(-1)!) as EvalReport, stdout: r.stdout };
}

/**
 * For one describe block: a temporary folder and a real-LIBERO server started with `args` before the
 * block's tests, stopped (the folder removed) after them.
 */
function liberoServerForSuite(args: readonly string[], prefix: string): { readonly dir: string; server: LiberoServer } {
  const suite = { dir: mkdtempSync(join(tmpdir(), prefix)), server: undefined as unknown as LiberoServer };
  beforeAll(async () => {
    suite.server = await LiberoServer.start([...args]);
  }, STARTUP_MS);
  afterAll(async () => {
    await suite.server?.stop();
    rmSync(suite.dir, { recursive: true, force: true });
  });
  return suite;
}

describe.skipIf(missing !== null)(`the LIBERO env server on the real LIBERO${skipNote}`, () => {
  const suite = liberoServerForSuite([], 'zetta-libero-real-');

  it('starts with its defaults: every suite LIBERO can build, and names the ones it skips', async () => {
    const spec = await fetchSpec(parseEndpoint(suite.server.zmq));
    expect(Object.keys(spec.suites)).toEqual(['libero_spatial', 'libero_object', 'libero_goal', 'libero_10', 'libero_90']);
    expect(Object.values(spec.suites).map((t) => t.length)).toEqual([10, 10, 10, 10, 90]);
    expect(spec.max_steps).toEqual({ libero_spatial: 220, libero_object: 280, libero_goal: 300, libero_10: 520, libero_90: 400 });
    expect(spec.suites[SPATIAL]![0]).toBe(TASK0);
    // LIBERO's benchmark dict names libero_100, which it cannot build: skipped, said once on stderr and in the protocol.
    expect(suite.server.stderr).toMatch(/skipped LIBERO suites it cannot build: libero_100 \(KeyError/);
    expect(spec.protocol).toMatchObject({ backend: 'libero', cameras: true, wait_steps: 10, init_states: 50, image_size: 224 });
    expect(String(spec.protocol?.skipped_suites)).toMatch(/^libero_100 \(KeyError/);
    expect(String(spec.protocol?.numpy_seed)).toMatch(/^the episode seed/);
    expect(Object.keys(spec.observation).sort()).toEqual(['observation/image', 'observation/state', 'observation/wrist_image']);
  });

  it('refuses a perturbation map it cannot apply, rather than running nominal episodes under its name', async () => {
    const req = new zmq.Request({ linger: 0, receiveTimeout: 60_000 });
    req.connect(suite.server.endpoint);
    try {
      await req.send(
        encode({
          op: 'reset',
          suite: SPATIAL,
          task: TASK0,
          seed: 0,
          perturbation: { name: 'position-shift', position: { shift_m: [0.06, 0.1] } },
        }),
      );
      expect(decode((await req.receive())[0]!)).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_PERTURBATION' } });
    } finally {
      req.close();
    }
  });

  it('an episode starts from initial state seed mod 50 after 10 wait steps, the same seed giving the same first observation; images are the raw render rotated 180 degrees: upright, mirrored left to right', async () => {
    const endpoint = parseEndpoint(`${suite.server.zmq}?reset_timeout_ms=240000&timeout_ms=60000`);
    const env = new RemoteEnv(endpoint, await fetchSpec(endpoint));
    const task = `${SPATIAL}/${TASK0}`;
    const first = async (seed: number) => {
      const reset = await env.reset({ task, seed });
      return { digest: reset.info.resetDigest, map: (env.observe() as RemoteObservation).map };
    };
    const a = await first(53);
    const b = await first(4);
    const c = await first(3);
    const d = await first(53);
    await env.close();
    expect(a.map.prompt).toBe('pick up the black bowl between the plate and the ramekin and place it on the plate');
    // Same seed, same first observation, whatever ran in between; seed 3 is initial state 3 as seed 53 is.
    for (const key of ['observation/state', 'observation/image', 'observation/wrist_image'])
      expect(sha256(d.map[key] as NdArray), key).toBe(sha256(a.map[key] as NdArray));
    expect(c.digest).toBe(a.digest);
    expect(state(c.map)).toEqual(state(a.map));
    expect(b.digest).not.toBe(a.digest);
    expect(state(b.map)).not.toEqual(state(a.map));

    // LIBERO itself at seed 53 (initial state 3; numpy's seed, which places the fixtures, 53): the
    // server's first observation is the one after exactly 10 wait steps.
    const ref = reference(53);
    expect(state(a.map)).toEqual(ref.states[10]);
    expect(state(a.map)).not.toEqual(ref.states[9]);
    expect(state(a.map)).not.toEqual(ref.states[11]);
    // The images are the raw renders, rotated and resized as openpi's client does.
    expect(sha256(a.map['observation/image'] as NdArray)).toBe(ref.image_sha256);
    expect(sha256(a.map['observation/wrist_image'] as NdArray)).toBe(ref.wrist_sha256);
    // The raw render is upside down (bottom row first, as OpenGL reads it); the policy's image, rotated
    // 180 degrees, is upright and mirrored left to right: the cabinet at the table's side is at the
    // height an upright pinhole camera puts it, on the other side. (LIBERO's training images for
    // openpi were converted the same way, so this is what the policy expects.)
    const [row, col] = ref.cabinet_projected;
    const [seenRow, seenCol] = ref.cabinet_seen;
    const why = JSON.stringify({ projected: ref.cabinet_projected, seen: ref.cabinet_seen, raw: ref.raw_cabinet_seen });
    expect(Math.abs(seenRow - row), why).toBeLessThan(10);
    expect(Math.abs(seenCol - (223 - col)), why).toBeLessThan(10);
    expect(Math.abs(ref.raw_cabinet_seen[0] - (255 - (row * 256) / 224)), why).toBeLessThan(12);
    expect(Math.abs(ref.raw_cabinet_seen[1] - (col * 256) / 224), why).toBeLessThan(12);
  }, 900_000);

  it("zetta eval --env … --policy null:open with cameras: one libero_spatial episode under LIBERO's protocol, no infrastructure failure", async () => {
    const { report } = await evalSpatial(suite.server, [TASK0], join(suite.dir, 'eval-cameras'));
    expect(report.infra_failures).toBe(0);
    expect(report.tasks[`${SPATIAL}/${TASK0}`]).toMatchObject({ episodes: 1, infra_failures: 0 });
    expect(report.executed_steps).toBe(220);
    expect(report.env.protocol).toMatchObject({
      max_steps: { libero_spatial: 220 },
      wait_steps: 10,
      init_state_of_seed: 'seed mod 50',
      cameras: true,
    });
  }, 900_000);
});

describe.skipIf(missing !== null)(`the LIBERO env server on the real LIBERO, --no-cameras${skipNote}`, () => {
  const suite = liberoServerForSuite(['--no-cameras', '--suites', SPATIAL], 'zetta-libero-real-state-');

  it("declares no image observation, and zetta eval runs three libero_spatial tasks under LIBERO's protocol with no infrastructure failure", async () => {
    const spec = await fetchSpec(parseEndpoint(suite.server.zmq));
    expect(spec.observation).toEqual({ 'observation/state': { dtype: '<f4', shape: [8] } });
    expect(spec.protocol).toMatchObject({ cameras: false });
    const tasks = spec.suites[SPATIAL]!.slice(0, 3);
    const { report, stdout } = await evalSpatial(suite.server, tasks, join(suite.dir, 'eval'));
    expect(Object.keys(report.tasks)).toHaveLength(3);
    expect(Object.values(report.tasks).every((t) => t.episodes === 1 && t.infra_failures === 0)).toBe(true);
    expect(report.infra_failures).toBe(0);
    expect(report.executed_steps).toBe(3 * 220); // the do-nothing policy runs every episode to LIBERO's max steps
    expect(report.env.protocol).toMatchObject({
      trials_per_task: 1,
      max_steps: { libero_spatial: 220 },
      wait_steps: 10,
      init_states: 50,
      init_state_of_seed: 'seed mod 50',
      backend: 'libero',
      cameras: false,
    });
    expect(stdout).toMatch(/protocol: trials_per_task 1, max_steps \{"libero_spatial":220\}/);
  }, 900_000);
});
