// The real LIBERO backend's state-policy observation (`--state-policy`, sim/remote/python/libero_state_obs.py)
// and the scripted expert's demonstrations in the embedded tabletop's `zetta-demos/1` format
// (sim/remote/python/libero_demos.py), which models/train/data.py reads unchanged.
//
// Only where a real LIBERO is installed (ZETTA_LIBERO_PYTHON: see libero-python.ts); elsewhere the tests
// are skipped, the reason in their names.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { NdArray } from '../../../protocol/ndarray.js';
import { actionLibrary } from '../../../evolution/search/action-library.js';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { RemoteEnv, type RemoteObservation, fetchSpec } from '../../../sim/remote/remote-env.js';
import { remoteWorld } from '../../../sim/remote/remote-world.js';
import { awaitReadyLine } from '../../../util/child-process.js';
import { LIBERO_SERVER, PYTHON, ROOT } from './env-server-process.js';
import { LIBERO_PYTHON, liberoMissing } from './libero-python.js';

const SPATIAL = 'libero_spatial';
const SERVER_DIR = join(ROOT, 'sim/remote/python');
const DRAWER = 4; // libero_spatial's task 4 in LIBERO's order: the bowl in the cabinet's top drawer
const missing = liberoMissing();
const skipNote = missing ? ` (skipped: ${missing})` : '';

const values = (map: Record<string, unknown>, key: string) => Array.from((map[key] as NdArray).data as Float32Array);

/** The backend itself, from LIBERO's Python: slot names and poses next to the privileged features. */
interface BackendCheck {
  names: string[];
  movables: number;
  objects: number[];
  features: Record<string, number>;
  step: number[];
  swapped_objects: number[];
  swapped: string[] | null;
  shift: string;
}

function backendCheck(): BackendCheck {
  const code = `
import contextlib, json, sys
import numpy as np
with contextlib.redirect_stdout(sys.stderr):
    from libero_backend import LiberoBackend
    b = LiberoBackend(["${SPATIAL}"], state_policy=True)
    task = b.spec()["suites"]["${SPATIAL}"][${DRAWER}]
    b.reset("${SPATIAL}", task, 3, None)
    obs, _, _, info = b.step(np.array([0, 0, 0, 0, 0, 0, -1], dtype=np.float32))
    out = {**b.slots(), "objects": obs["observation/objects"].tolist(), "step": obs["observation/step"].tolist(),
           "features": {k: v for k, v in info["features"].items() if isinstance(v, float)}}
    swapped, reset_info = b.reset("${SPATIAL}", task, 3, {"name": "position-swap", "position": {"swap": True}})
    out["swapped_objects"] = swapped["observation/objects"].tolist()
    out["swapped"] = reset_info.get("swapped")
    try:
        b.reset("${SPATIAL}", task, 3, {"name": "position-shift", "position": {"shift_m": [0.06, 0.1], "swap": False}})
        out["shift"] = "applied"
    except Exception as err:
        out["shift"] = getattr(err, "code", repr(err))
    b.close()
print(json.dumps(out))`;
  const r = spawnSync(LIBERO_PYTHON, ['-c', code], { cwd: SERVER_DIR, encoding: 'utf8', timeout: 300_000, maxBuffer: 16 << 20 });
  if (r.status !== 0) throw new Error(`the backend check failed (${r.status}):\n${r.stderr.slice(-4000)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!);
}

describe.skipIf(missing !== null)(`the state-policy observation on the real LIBERO${skipNote}`, () => {
  it('fills slot 0 with the bowl and slot 1 with the plate (their privileged positions), then the other objects and a fixture; swaps the two bowls on request and refuses a shift', () => {
    const out = backendCheck();
    expect(out.names).toEqual([
      'akita_black_bowl_1',
      'plate_1',
      'akita_black_bowl_2',
      'cookies_1',
      'glazed_rim_porcelain_ramekin_1',
      'wooden_cabinet_1',
    ]);
    expect(out.movables).toBe(5);
    expect(out.step).toEqual([1]);
    const f = out.features;
    const slot = (i: number) => out.objects.slice(i * 7, i * 7 + 7);
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) < 1e-5);
    expect(near(slot(0).slice(0, 3), [f['privileged.object_x']!, f['privileged.object_y']!, f['privileged.object_z']!])).toBe(true);
    expect(near(slot(1).slice(0, 3), [f['privileged.target_x']!, f['privileged.target_y']!, f['privileged.target_z']!])).toBe(true);
    // what the policy observes, the critic may read as observed: slot 0, and the hand's distance to it
    expect(near(slot(0).slice(0, 3), [f['observed.object_x']!, f['observed.object_y']!, f['observed.object_z']!])).toBe(true);
    expect(f['observed.object_eef_dist']!).toBeCloseTo(f['privileged.eef_object_dist']!, 5);
    expect(f['observed.object_eef_dist_xy']!).toBeLessThanOrEqual(f['observed.object_eef_dist']!);
    for (let i = 0; i < 6; i++) expect(Math.hypot(...slot(i).slice(3))).toBeCloseTo(1, 4); // unit quaternions, w first

    // The position swap: the bowl of the instruction stands where the other bowl stood, and the other there.
    expect(out.swapped).toEqual(['akita_black_bowl_1', 'akita_black_bowl_2']);
    const swapped = (i: number) => out.swapped_objects.slice(i * 7, i * 7 + 3);
    const close = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!)) < 0.01;
    expect(close(swapped(0), slot(2).slice(0, 3)), JSON.stringify({ swapped: swapped(0), was: slot(2) })).toBe(true);
    expect(close(swapped(2), slot(0).slice(0, 3))).toBe(true);
    expect(out.shift).toBe('UNSUPPORTED_PERTURBATION'); // what it cannot apply, it refuses
  }, 600_000);

  it('is what the server declares and sends: state, 42 object numbers, the one-hot of the task, the step since the wait steps', async () => {
    const proc: ChildProcess = spawn(
      LIBERO_PYTHON,
      [LIBERO_SERVER, '--backend', 'libero', '--state-policy', '--suites', SPATIAL, '--bind', 'tcp://127.0.0.1:*', '--exit-on-stdin-eof'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const bound = await awaitReadyLine(
        proc,
        (line) => /^ready (\S+)$/.exec(line)?.[1],
        240_000,
        (why) => new Error(`${why}:\n${stderr}`),
      );
      const endpoint = parseEndpoint(`${bound.replace(/^tcp:/, 'zmq:')}?reset_timeout_ms=240000&timeout_ms=60000`);
      const spec = await fetchSpec(endpoint);
      expect(spec.observation).toEqual({
        'observation/state': { dtype: '<f4', shape: [8] },
        'observation/objects': { dtype: '<f4', shape: [42] },
        'observation/task': { dtype: '<f4', shape: [10] },
        'observation/step': { dtype: '<f4', shape: [1] },
      });
      expect(spec.protocol).toMatchObject({ cameras: false });
      expect(String(spec.protocol?.policy_observation)).toMatch(/ground-truth/);
      // the restores it offers evolution: programs the critic runs, reading only what it declares as observed
      const world = remoteWorld('libero', endpoint, spec);
      const library = actionLibrary(world).filter((a) => a.origin === 'world');
      expect(library.map((a) => a.id)).toEqual(['restore_above_object', 'restore_low_above_object']);
      const read = JSON.stringify(spec.restores).match(/"(?:observed|privileged)\.[a-z_]+"/g) ?? [];
      const declared = new Map(spec.features.map((f) => [f.name, f.provenance]));
      for (const name of new Set(read.map((q) => q.slice(1, -1)))) expect([name, declared.get(name)]).toEqual([name, 'observed']);
      const env = new RemoteEnv(endpoint, spec); // checks every reply against the declared layout
      await env.reset({ task: `${SPATIAL}/${spec.suites[SPATIAL]![DRAWER]}`, seed: 1003 });
      const first = (env.observe() as RemoteObservation).map;
      expect(values(first, 'observation/task')).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
      expect(values(first, 'observation/step')).toEqual([0]);
      await env.step([0, 0, 0, 0, 0, 0, -1]);
      await env.step([0, 0, 0, 0, 0, 0, -1]);
      const third = (env.observe() as RemoteObservation).map;
      expect(values(third, 'observation/step')).toEqual([2]);
      expect(values(third, 'observation/objects').slice(0, 3)).not.toEqual([0, 0, 0]);
      await env.close();
    } finally {
      proc.kill('SIGTERM');
    }
  }, 600_000);
});

describe.skipIf(missing !== null)(`the scripted expert's demonstrations in zetta-demos/1${skipNote}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-libero-demos-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a clean and a noisy visit of one initial state, which models/train/data.py reads with chunked labels', async () => {
    const args = [join(SERVER_DIR, 'libero_demos.py'), '--tasks', '2', '--episodes', '2', '--initial-states', '1', '--out', dir];
    await promisify(execFile)(LIBERO_PYTHON, args, { timeout: 600_000, maxBuffer: 64 << 20 });
    const code = `
import json, sys
import numpy as np
sys.path.insert(0, ${JSON.stringify(join(ROOT, 'models/train'))})
from data import goal_slot_table, load_demos
data, labels, summary = load_demos(${JSON.stringify(dir)}, 10)
manifest = json.load(open(${JSON.stringify(join(dir, 'demos.json'))}))
z = np.load(${JSON.stringify(dir)} + "/" + next(iter(manifest["tasks"].values()))["file"])
noisy = z["episode_pass"] == 1
rows = np.arange(z["episode_start"][noisy][0], z["episode_start"][noisy][0] + z["episode_length"][noisy][0])
print(json.dumps({"shapes": {k: list(v.shape) for k, v in data.items()}, "labels": list(labels.shape), "episodes": summary["episodes"],
                  "passes": z["episode_pass"].tolist(), "noise": z["episode_noise_std"].tolist(), "format": str(z["format"]),
                  "task_hot": data["observation/task"].argmax(1).tolist()[:1], "steps0": data["observation/step"][:3, 0].tolist(),
                  "gripper_clean": bool(np.all(z["executed_actions"][:, 6] == z["actions"][:, 6])),
                  "in_range": bool(np.all(np.abs(z["actions"]) <= 1.0)), "grip": sorted(set(z["actions"][:, 6].tolist())),
                  "noisy_differs": bool(np.any(z["executed_actions"][rows, :6] != z["actions"][rows, :6])),
                  "goal_slots": goal_slot_table(${JSON.stringify(dir)}, 10)[2].tolist(), "mask": int(data["distractor_mask"][0])}))`;
    const r = spawnSync(PYTHON, ['-c', code], { encoding: 'utf8', maxBuffer: 16 << 20 });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    const n = out.shapes['observation/state'][0];
    expect(out.format).toBe('zetta-demos/1');
    expect(out.episodes).toBe(2); // the expert places the bowl from the table centre, clean and noisy
    expect(out.shapes).toEqual({
      'observation/state': [n, 8],
      'observation/objects': [n, 42],
      'observation/task': [n, 10],
      'observation/step': [n, 1],
      distractor_mask: [n],
    });
    expect(out.labels).toEqual([n, 10, 7]);
    expect(out.passes).toEqual([0, 1]);
    expect(out.noise).toEqual([0, expect.closeTo(0.1, 6)]);
    expect(out.task_hot).toEqual([2]);
    expect(out.steps0).toEqual([0, 1, 2]);
    expect(out.gripper_clean).toBe(true);
    expect(out.in_range).toBe(true); // the expert's labels are normalized actions
    expect(out.grip.every((g: number) => g === -1 || g === 0 || g === 1)).toBe(true); // open, hold or close
    expect(out.noisy_differs).toBe(true);
    expect(out.goal_slots).toEqual([1, 1, 0, 0, 0, 0]); // the bowl and the plate
    expect(out.mask).toBe(0b11100); // the other bowl, the cookies, the ramekin
  }, 900_000);
});
