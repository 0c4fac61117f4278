import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtinPerturbationNames,
  FEATURE_NAMES,
  getTask,
  parsePerturbation,
  PerturbationError,
  resolvePerturbation,
  TabletopEnv,
} from '../../sim/tabletop/index.js';
import { planEpisode } from '../../sim/tabletop/plan.js';

let env: TabletopEnv;
beforeAll(async () => {
  env = await TabletopEnv.create();
});
afterAll(() => env.closeSync());

const feature = (name: (typeof FEATURE_NAMES)[number]): number => env.features().values[FEATURE_NAMES.indexOf(name)]!;

function fieldOf(value: unknown): string {
  try {
    parsePerturbation(value);
  } catch (err) {
    if (err instanceof PerturbationError) return err.field;
    throw err;
  }
  return '(valid)';
}

describe('perturbation files', () => {
  it('ships position-shift, object-change and disturbance, and every shipped file validates', () => {
    const names = builtinPerturbationNames();
    for (const n of ['position-shift', 'object-change', 'disturbance']) expect(names).toContain(n);
    for (const n of names) expect(() => resolvePerturbation(n)).not.toThrow();
  });

  it('accepts the example of docs/DESIGN.md as written', () => {
    const example = {
      name: 'position-shift',
      position: { shift_m: [0.06, 0.1], swap: false },
      object: { scale: [0.85, 1.15], mass: [0.5, 2.0], friction: [0.5, 1.2] },
      robot: { init_pose_noise_m: 0.03 },
      disturbance: { probability: 0.5, at_step: [20, 60], displace_m: [0.03, 0.08] },
      sensor: { state_noise_std: 0.002, action_delay_steps: 1 },
      distractors: 2,
    };
    expect(fieldOf(example)).toBe('(valid)');
  });

  it('names the offending field', () => {
    expect(fieldOf({ position: { shift_m: [0.1] } })).toBe('position.shift_m');
    expect(fieldOf({ object: { scale: [1.2, 0.9] } })).toBe('object.scale');
    expect(fieldOf({ object: { mass: [0.5, 'heavy'] } })).toBe('object.mass.1');
    expect(fieldOf({ disturbance: { at_step: [1.5, 3] } })).toBe('disturbance.at_step.0');
    expect(fieldOf({ disturbance: { probability: 2 } })).toBe('disturbance.probability');
    expect(fieldOf({ sensor: { action_delay_steps: -1 } })).toBe('sensor.action_delay_steps');
    expect(fieldOf({ distractors: 'two' })).toBe('distractors');
    expect(fieldOf({ robot: { init_pose_noise: 0.1 } })).toBe('robot.init_pose_noise');
    expect(fieldOf({ colour: 'red' })).toBe('colour');
    expect(fieldOf([1, 2])).toBe('(root)');
  });
});

describe('perturbation effects', () => {
  it('a position shift moves objects by the sampled distance from their nominal spots', () => {
    const task = getTask('spatial/left_cube_in_bowl');
    const p = resolvePerturbation('position-shift');
    let moved = 0;
    for (let seed = 0; seed < 8; seed++) {
      const nominal = planEpisode(task, seed, {}).scene.movables[0]!;
      const shifted = planEpisode(task, seed, p).scene.movables[0]!;
      const d = Math.hypot(shifted.x - nominal.x, shifted.y - nominal.y);
      if (d > 0) {
        moved++;
        expect(d).toBeGreaterThanOrEqual(0.06 - 1e-9);
        expect(d).toBeLessThanOrEqual(0.1 + 1e-9);
      }
    }
    expect(moved).toBeGreaterThanOrEqual(6);
  });

  it('object changes scale, mass and friction within their ranges', () => {
    const scene = planEpisode(getTask('object/green_cube_in_bowl'), 5, resolvePerturbation('object-change')).scene;
    for (const m of scene.movables) {
      expect(m.mass).toBeGreaterThanOrEqual(0.05 - 1e-9);
      expect(m.mass).toBeLessThanOrEqual(0.2 + 1e-9);
      expect(m.friction).toBeGreaterThanOrEqual(0.5);
      expect(m.friction).toBeLessThanOrEqual(1.2);
    }
  });

  it('distractors add objects to the scene but not to the policy observation', () => {
    const nominal = env.resetSync({ task: 'goal/open_drawer', seed: 2 });
    const objects = env.spec().objects.length;
    const plan = planEpisode(getTask('goal/open_drawer'), 2, resolvePerturbation('distractors'));
    expect(plan.scene.movables.filter((m) => m.name.startsWith('distractor_')).length).toBe(2);
    const r = env.resetSync({ task: 'goal/open_drawer', seed: 2, perturbation: resolvePerturbation('distractors') });
    expect(env.spec().objects.length).toBe(objects);
    expect(r.info.resetDigest).not.toBe(nominal.info.resetDigest);
  });

  it('a disturbance displaces the main object mid-episode, at the sampled step', () => {
    const p = parsePerturbation({ disturbance: { probability: 1, at_step: [5, 5], displace_m: [0.06, 0.06] } });
    const r = env.resetSync({ task: 'goal/red_cube_in_bowl', seed: 0, perturbation: p });
    const before = [r.obs.objects[0]!, r.obs.objects[1]!];
    const hold = [0, 0, 0, 0, 0, 0, -1];
    for (let i = 0; i < 5; i++) env.stepSync(hold);
    expect(feature('disturbed')).toBe(0);
    const s = env.stepSync(hold);
    expect(feature('disturbed')).toBe(1);
    expect(Math.hypot(s.obs.objects[0]! - before[0]!, s.obs.objects[1]! - before[1]!)).toBeCloseTo(0.06, 2);
  });

  it('an action delay executes each action that many steps late', () => {
    const p = parsePerturbation({ sensor: { action_delay_steps: 2 } });
    const z0 = env.resetSync({ task: 'goal/press_button', seed: 0, perturbation: p }).obs.state[2]!;
    const up = [0, 0, 0.5, 0, 0, 0, -1];
    const z1 = env.stepSync(up).obs.state[2]!;
    const z2 = env.stepSync(up).obs.state[2]!;
    const z3 = env.stepSync(up).obs.state[2]!;
    expect(Math.abs(z1 - z0)).toBeLessThan(0.002);
    expect(Math.abs(z2 - z0)).toBeLessThan(0.002);
    expect(z3 - z0).toBeGreaterThan(0.01);
  });

  it('state noise perturbs what the policy sees, not the world', () => {
    const p = parsePerturbation({ sensor: { state_noise_std: 0.01 } });
    const r = env.resetSync({ task: 'goal/press_button', seed: 0, perturbation: p });
    const seen = r.obs.state[0]!;
    const truth = feature('eef_x');
    expect(seen).not.toBe(Math.fround(truth));
    expect(Math.abs(seen - truth)).toBeLessThan(0.06);
  });
});
