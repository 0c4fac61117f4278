// `observed.object_moved_alone`: a knocked object moves, a resting or carried one does not. The
// disturbance template of the evolution loop watches it; it used to watch raw object speed, which
// peaks while the policy lifts the object, so its program dropped every object just picked up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePerturbation, ScriptedExpert, TabletopEnv } from '../../sim/tabletop/index.js';
import { MOVED_ALONE_WINDOW, MovedAloneWindow } from '../../sim/tabletop/moved-alone.js';

describe('MovedAloneWindow', () => {
  const at = (x: number, y: number, z: number) => [x, y, z];

  it('reads 0 for an object at rest while the hand moves, and for one carried by the hand', () => {
    const w = new MovedAloneWindow([0, 3]);
    for (let t = 0; t < 10; t++) w.push(at(0.01 * t, 0, 0.2), [...at(0.1, 0.1, 0.02), ...at(0.01 * t, 0, 0.15)]);
    expect(w.movedAlone(0)).toBe(0);
    expect(w.movedAlone(1)).toBeCloseTo(0, 12);
  });

  it('reads how far a knocked object went, over the window only', () => {
    const w = new MovedAloneWindow([0]);
    for (let t = 0; t < 4; t++) w.push(at(0, 0, 0.2), at(0, 0, 0.1));
    w.push(at(0, 0, 0.2), at(0.05, 0, 0.02));
    expect(w.movedAlone(0)).toBeCloseTo(Math.hypot(0.05, 0.08), 12);
    for (let t = 0; t < MOVED_ALONE_WINDOW; t++) w.push(at(0, 0, 0.2), at(0.05, 0, 0.02));
    expect(w.movedAlone(0)).toBe(0);
  });

  it('reads 0 before it has seen two steps', () => {
    const w = new MovedAloneWindow([0]);
    expect(w.movedAlone(0)).toBe(0);
    w.push(at(0, 0, 0), at(1, 1, 1));
    expect(w.movedAlone(0)).toBe(0);
  });
});

describe('observed.object_moved_alone in the simulator (scripted expert, seeded)', () => {
  let env: TabletopEnv;
  beforeAll(async () => {
    env = await TabletopEnv.create();
  });
  afterAll(() => env.closeSync());

  /**
   * The largest value of two features over an expert episode until it lets go of the object (a
   * released object drops a centimetre on its own), and the step the object was lifted.
   */
  function trace(seed: number, perturbation?: unknown) {
    env.resetSync({
      task: 'spatial/right_cube_on_plate',
      seed,
      ...(perturbation ? { perturbation: parsePerturbation(perturbation) } : {}),
    });
    const expert = ScriptedExpert.forEpisode(env.current);
    const names = env.features().names;
    const movedAt = names.indexOf('observed.object_moved_alone');
    const speedAt = names.indexOf('subject_speed');
    expect(movedAt).toBeGreaterThanOrEqual(0);
    let moved = 0;
    let speed = 0;
    let lifted = -1;
    for (let t = 0; t < 220; t++) {
      const r = env.stepSync(expert.act());
      if (r.done || r.info.milestones.some((m) => m.endsWith('.released'))) break;
      const v = env.features().values;
      moved = Math.max(moved, v[movedAt]!);
      speed = Math.max(speed, v[speedAt]!);
      if (lifted < 0 && r.info.milestones.some((m) => m.endsWith('.lifted'))) lifted = t;
    }
    return { moved, speed, lifted };
  }

  it('stays near 0 through a clean grasp, lift, carry and place, where raw object speed peaks', () => {
    for (const seed of [0, 1, 2]) {
      const t = trace(seed);
      expect(t.lifted).toBeGreaterThan(0);
      expect(t.moved, `seed ${seed}`).toBeLessThan(0.01);
      expect(t.speed, `seed ${seed}`).toBeGreaterThan(0.25);
    }
  });

  it('rises past a few centimetres when a disturbance knocks the object away', () => {
    // step 25: the expert has just lifted the cube
    const knock = { disturbance: { probability: 1, at_step: [25, 25], displace_m: [0.06, 0.06] } };
    expect(trace(0, knock).moved).toBeGreaterThan(0.03);
  });
});
