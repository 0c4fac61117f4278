// The scripted libero_spatial expert (sim/remote/python/libero_expert.py): a phase machine over the
// 8-D state and the privileged poses of the bowl and the plate, emitting LIBERO's OSC_POSE deltas.
//
// Its pure parts (grasp side per layout, the first actions, the feature schema it reads) run with
// Debian's python3 and numpy everywhere. Against the real LIBERO (ZETTA_LIBERO_PYTHON: see
// libero-python.ts) it runs five libero_spatial tasks through the real backend without cameras,
// under the server's protocol, and must place the bowl on the plate in at least four of them; it also
// writes its demonstrations and they are checked. Elsewhere that test is skipped, the reason in its name.
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PYTHON, ROOT } from './env-server-process.js';
import { LIBERO_PYTHON, liberoMissing } from './libero-python.js';

const SERVER_DIR = join(ROOT, 'sim/remote/python');
const RUNNER = join(SERVER_DIR, 'libero_expert_run.py');

/** Runs `code` with Debian's python3 next to the server's modules; its last stdout line as JSON. */
function python<T>(code: string): T {
  const r = spawnSync(PYTHON, ['-c', code], { cwd: SERVER_DIR, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed (${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as T;
}

describe('the scripted libero_spatial expert, without a simulator', () => {
  it('reads the bowl and the plate from features the schema declares, and picks the free side of the rim per layout', () => {
    const out = python<{ declared: string[]; inputs: string[]; angles: Record<string, number> }>(`
import json
import libero_expert as e, libero_protocol as p
prompts = ["pick up the black bowl between the plate and the ramekin and place it on the plate",
           "pick up the black bowl next to the ramekin and place it on the plate",
           "pick_up_the_black_bowl_in_the_top_drawer_of_the_wooden_cabinet_and_place_it_on_the_plate"]
print(json.dumps({"declared": [f["name"] for f in p.FEATURES], "inputs": list(e.INPUT_FEATURES),
                  "angles": {q: e.grasp_angle_for(q) for q in prompts}}))`);
    for (const name of out.inputs) expect(out.declared).toContain(name);
    expect(out.inputs).toEqual(expect.arrayContaining(['privileged.target_x', 'privileged.target_y', 'privileged.target_z']));
    const [between, nextToRamekin, drawer] = Object.values(out.angles);
    expect(between).toBeCloseTo(-Math.PI / 2); // the default: the bowl's -y side
    expect(nextToRamekin).toBeCloseTo(Math.PI / 2); // the ramekin is on the -y side there
    expect(Math.abs(drawer! - (2.71 - Math.PI))).toBeLessThan(1e-9); // along the drawer's axis
  });

  it('heads for the hover point above the rim with the fingers half closed, then holds them there', () => {
    const steps = python<number[][]>(`
import json
import numpy as np
import libero_expert as e
x = e.BowlExpert()
x.reset("pick up the black bowl from table center and place it on the plate")
# LIBERO's reset pose: the eef 0.27 m above the table, pointing down (180 degrees about x), fingers open.
state = np.array([-0.21, 0.0, 1.17, np.pi, 0.0, 0.0, 0.039, -0.039])
features = {"privileged.object_x": -0.07, "privileged.object_y": 0.0, "privileged.object_z": 0.898,
            "privileged.target_x": 0.05, "privileged.target_y": 0.2, "privileged.target_z": 0.902}
print(json.dumps([x.act(state, features).tolist() for _ in range(6)]))`);
    for (const a of steps) {
      expect(a).toHaveLength(7);
      expect(a.every((v) => v >= -1 && v <= 1)).toBe(true);
      for (const r of a.slice(3, 6)) expect(Math.abs(r)).toBeLessThan(1e-6); // the fingers already open along y: no turn here
      expect(a[0]).toBeGreaterThan(0.9); // the bowl is 0.14 m further in x
      expect(a[1]).toBeGreaterThan(0.9); // the grasp point is on the rim's +y side here
    }
    // Four closing steps (robosuite moves its gripper command 0.25 per step), then hold.
    expect(steps.map((a) => a[6])).toEqual([1, 1, 1, 1, 0, 0]);
  });
});

const missing = liberoMissing();
const skipNote = missing ? ` (skipped: ${missing})` : '';

describe.skipIf(missing !== null)(`the scripted libero_spatial expert on the real LIBERO${skipNote}`, () => {
  it('places the bowl on the plate in at least 4 of 5 libero_spatial tasks (seed 7)', async () => {
    // Five layouts: the default side, the far side by the ramekin, the drawer (the fingers turn), the
    // cookie box by the cabinet, the cabinet's top.
    const args = [RUNNER, '--tasks', '0,1,4,6,9', '--seeds', '7', '--json'];
    const { stdout } = await promisify(execFile)(LIBERO_PYTHON, args, { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      episodes: number;
      successes: number;
      tasks: Record<string, { successes: number; episodes: number }>;
    };
    expect(report.episodes).toBe(5);
    expect(Object.keys(report.tasks)).toHaveLength(5);
    expect(report.successes, stdout).toBeGreaterThanOrEqual(4);
  }, 900_000);
});
