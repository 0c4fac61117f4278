import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_DIM, OBJECT_POSE_DIM, PerturbationError, SimInputError, STATE_DIM, TabletopEnv } from '../../sim/tabletop/index.js';

let env: TabletopEnv;
beforeAll(async () => {
  env = await TabletopEnv.create();
});
afterAll(() => env.closeSync());

describe('bad input is a clear error, never a crash inside WebAssembly', () => {
  it('rejects step and features before any reset', async () => {
    const fresh = await TabletopEnv.create();
    expect(() => fresh.stepSync([0, 0, 0, 0, 0, 0, 0])).toThrow(/reset\(\)/);
    expect(() => fresh.features()).toThrow(SimInputError);
    expect(() => fresh.spec()).toThrow(SimInputError);
    fresh.closeSync();
  });

  it('names the unknown task and lists the known ones', () => {
    expect(() => env.resetSync({ task: 'goal/fly_to_the_moon', seed: 0 })).toThrow(
      /unknown task "goal\/fly_to_the_moon".*spatial\/left_cube_in_bowl/,
    );
  });

  it('rejects seeds that are not non-negative integers', () => {
    for (const seed of [-1, 1.5, Number.NaN]) expect(() => env.resetSync({ task: 'goal/open_drawer', seed })).toThrow(/seed must be/);
  });

  it('rejects actions of the wrong length, with NaN or non-numbers, and keeps working afterwards', () => {
    env.resetSync({ task: 'goal/open_drawer', seed: 0 });
    expect(() => env.stepSync([0, 0, 0])).toThrow(/7 numbers, got 3/);
    expect(() => env.stepSync([0, 0, 0, 0, 0, 0, 0, 0])).toThrow(/got 8/);
    expect(() => env.stepSync([0, 0, Number.NaN, 0, 0, 0, 0])).toThrow(/action\[2\] must be a finite number/);
    expect(() => env.stepSync([0, 0, 0, Infinity, 0, 0, 0])).toThrow(SimInputError);
    expect(() => env.stepSync(['a', 0, 0, 0, 0, 0, 0] as unknown as number[])).toThrow(/action\[0\]/);
    expect(() => env.stepSync(null as unknown as number[])).toThrow(SimInputError);
    const r = env.stepSync(new Float32Array(ACTION_DIM));
    expect(r.obs.t).toBe(1);
    expect(Array.from(r.obs.state).every(Number.isFinite)).toBe(true);
  });

  it('clips out-of-range actions instead of failing', () => {
    env.resetSync({ task: 'goal/open_drawer', seed: 0 });
    const z0 = env.stepSync([0, 0, 0, 0, 0, 0, -1]).obs.state[2]!;
    const z1 = env.stepSync([0, 0, 50, 0, 0, 0, -1]).obs.state[2]!;
    expect(z1 - z0).toBeLessThan(0.0501);
    expect(z1).toBeGreaterThan(z0);
  });

  it('validates a perturbation handed to reset by a JavaScript caller', () => {
    const bad = { object: { mass: [2, 1] } } as never;
    expect(() => env.resetSync({ task: 'goal/open_drawer', seed: 0, perturbation: bad })).toThrow(PerturbationError);
    expect(() => env.resetSync({ task: 'goal/open_drawer', seed: 0, perturbation: bad })).toThrow(/object\.mass/);
  });

  it('reports observations in the documented layout', () => {
    const r = env.resetSync({ task: 'object/blue_cylinder_in_bowl', seed: 2 });
    const spec = env.spec();
    expect(r.obs.state.length).toBe(STATE_DIM);
    expect(r.obs.objects.length).toBe(spec.objects.length * OBJECT_POSE_DIM);
    expect(r.obs.prompt).toBe(spec.instruction);
    expect(spec.maxSteps).toBe(280);
    expect(env.features().values.length).toBe(spec.features.length);
    expect(env.observe()).toBe(r.obs);
  });
});
