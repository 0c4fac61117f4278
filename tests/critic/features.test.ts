import { describe, expect, it } from 'vitest';
import { FrameBuilder } from '../../critic/features/builder.js';
import { FeatureFrame } from '../../critic/features/frame.js';
import { FeatureLayout } from '../../critic/features/layout.js';
import { TABLETOP_LAYOUT } from '../support/tabletop.js';

const FEATURES = TABLETOP_LAYOUT.features;
const featureIndex = (name: string) => TABLETOP_LAYOUT.index(name);
import { relativeRotationAngle } from '../../critic/features/rotation.js';

const state = (x: number, y: number, z: number, q = 0.04, rot: [number, number, number] = [0, 0, 0]) => [x, y, z, ...rot, q, -q];
const act = (dx: number, dy: number, dz: number, g = -1) => [dx, dy, dz, 0, 0, 0, g];

describe('feature registry', () => {
  it('has unique names, a unit, a source and a meaning for each; no success flag', () => {
    const names = FEATURES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of FEATURES) {
      expect(f.name.startsWith(`${f.source}.`)).toBe(true);
      expect(f.unit).not.toBe('');
      expect(f.meaning.length).toBeGreaterThan(10);
    }
    expect(names.some((n) => /success/.test(n))).toBe(false);
  });

  it('names the point features tools need', () => {
    for (const p of ['object', 'target', 'handle'])
      for (const a of 'xyz') expect(featureIndex(`privileged.${p}_${a}`)).toBeGreaterThanOrEqual(0);
  });

  it('frames start all-NaN; by-name access throws on an unknown name', () => {
    const f = new FeatureFrame(TABLETOP_LAYOUT);
    expect(f.values.length).toBe(FEATURES.length);
    expect(f.values.every((x) => Number.isNaN(x))).toBe(true);
    expect(() => f.get('robot.nope')).toThrow('unknown feature "robot.nope"');
  });
});

describe('FrameBuilder', () => {
  it('copies the robot state and the proposed action, and flags non-finite actions', () => {
    const b = new FrameBuilder({ privileged: false });
    const f = b.fill(state(0.1, 0.2, 0.3, 0.02), [0.2, 0, 0, 0, 0, 0.4, 1], null, false);
    expect(f.get('robot.eef_y')).toBeCloseTo(0.2);
    expect(f.get('robot.gripper_q1')).toBeCloseTo(-0.02);
    expect(f.get('derived.gripper_width')).toBeCloseTo(0.04);
    expect(f.get('command.trans_m')).toBeCloseTo(0.01);
    expect(f.get('command.rot_rad')).toBeCloseTo(0.2);
    expect(f.get('command.gripper_close')).toBe(1);
    expect(f.get('command.finite')).toBe(1);
    expect(f.get('command.direction_cosine')).toBeNaN(); // no previous step
    expect(b.fill(state(0.1, 0.2, 0.3), [NaN, 0, 0, 0, 0, 0, 1], null, false).get('command.finite')).toBe(0);
  });

  it('compares the committed command with the realized motion: cosine, ratio, stall', () => {
    const b = new FrameBuilder({ privileged: false });
    b.fill(state(0, 0, 0.2), act(1, 0, 0), null, false);
    b.commit(act(0.5, 0, 0)); // the envelope halved it: 0.025 m along +x
    let f = b.fill(state(0.02, 0, 0.2), act(1, 0, 0), null, false);
    expect(f.get('command.prev_trans_m')).toBeCloseTo(0.025);
    expect(f.get('command.realized_m')).toBeCloseTo(0.02);
    expect(f.get('command.direction_cosine')).toBeCloseTo(1);
    expect(f.get('command.realized_ratio')).toBeCloseTo(0.8);
    expect(f.get('command.stalled')).toBe(0);
    // Without a commit the proposal counts as executed: 0.05 m along +x, but the arm went −y a bit.
    f = b.fill(state(0.02, -0.002, 0.2), act(1, 0, 0), null, false);
    expect(f.get('command.direction_cosine')).toBeCloseTo(0);
    expect(f.get('command.stalled')).toBe(1);
    f = b.fill(state(0.02, -0.002, 0.2), act(0, 0, 0), null, false);
    expect(f.get('command.stalled')).toBe(1);
    expect(f.get('command.stalled_steps')).toBe(2);
    expect(f.get('command.direction_cosine')).toBe(0); // commanded, nothing moved: orthogonal
    f = b.fill(state(0.02, -0.002, 0.2), act(0, 0, 0), null, false);
    expect(f.get('command.stalled')).toBe(0); // nothing was commanded
    expect(f.get('command.direction_cosine')).toBeNaN();
  });

  it('does not judge an unmoved hand stalled before its first commands could have landed', () => {
    const b = new FrameBuilder({ privileged: false });
    b.fill(state(0, 0, 0.2), act(1, 0, 0), null, false);
    // eight steps commanded (the longest lag looked for), and the hand has not moved: late or blocked?
    for (let t = 0; t < 8; t++) {
      const f = b.fill(state(0, 0, 0.2), act(1, 0, 0), null, false);
      expect(f.get('command.stalled')).toBeNaN();
      expect(f.get('command.stalled_steps')).toBe(0);
    }
    // a ninth: no lag is that long, so the hand is blocked
    expect(b.fill(state(0, 0, 0.2), act(1, 0, 0), null, false).get('command.stalled')).toBe(1);
    // on a lagging robot whose hand then moves, stalls are judged again at once
    const late = new FrameBuilder({ privileged: false });
    late.fill(state(0, 0, 0.2), act(1, 0, 0), null, false);
    late.fill(state(0, 0, 0.2), act(1, 0, 0), null, false);
    late.fill(state(0.05, 0, 0.2), act(1, 0, 0), null, false);
    expect(late.fill(state(0.05, 0, 0.2), act(1, 0, 0), null, false).get('command.stalled')).toBe(1);
  });

  it('observes a step before the policy is asked: the lag this observation tells, each command in flight counted once', () => {
    // A robot whose commands land 4 steps late (lag 4): the command sent at step i shows at step i + 5.
    const b = new FrameBuilder({ privileged: false });
    const flight = new Float64Array(3);
    const x = (t: number) => 0.025 * Math.max(0, t - 4); // 0.5 · 0.05 m per landed command
    for (let t = 0; t < 5; t++) {
      b.observe(state(x(t), 0, 0.2));
      b.fill(state(x(t), 0, 0.2), act(0.5, 0, 0), null, false);
      b.commit(act(0.5, 0, 0));
    }
    // before step 5's state is observed, the lag is unknown: a chunk asked for now would start at its first action
    expect(b.measuredLagSteps()).toBe(0);
    b.observe(state(x(5), 0, 0.2)); // the first command has landed
    expect(b.measuredLagSteps()).toBe(4);
    expect(b.motionInFlight()).toBeCloseTo(4 * 0.025, 12); // commands 1–4
    expect(b.motionInFlightVector(flight)[0]).toBeCloseTo(4 * 0.025, 12);
    // fill() after observe() does not observe twice
    expect(b.fill(state(x(5), 0, 0.2), act(0.5, 0, 0), null, false).get('derived.motion_in_flight')).toBeCloseTo(4 * 0.025, 12);
    expect(b.measuredLagSteps()).toBe(4);
    // once sent, command 5 is in flight and command 1 is not (it lands by the next observation)
    b.commit(act(0.7, 0, 0));
    expect(b.motionInFlight()).toBeCloseTo(3 * 0.025 + 0.035, 12);
    expect(b.motionInFlightVector(flight)[0]).toBeCloseTo(3 * 0.025 + 0.035, 12);
  });

  it('counts gripper flips and motion reversals over the window', () => {
    const b = new FrameBuilder({ privileged: false, window: 4 });
    const gs = [-1, 1, -1, 1, 1, 1, 1, 1];
    const flips: number[] = [];
    gs.forEach((g, i) => flips.push(b.fill(state(0, 0, 0.2), act(i % 2 ? 0.5 : -0.5, 0, 0, g), null, false).get('derived.gripper_flips')));
    // Flip of the executed command at step t−1 shows at step t; the window holds 4 steps.
    expect(flips).toEqual([0, 0, 1, 2, 3, 3, 2, 1]);
    expect(b.frame.get('derived.motion_reversals')).toBe(4);
  });

  it('derives speed, net motion over the window, and gripper closing / closed / closed on nothing', () => {
    const b = new FrameBuilder({ privileged: false, window: 2, controlHz: 20 });
    b.fill(state(0, 0, 0.1, 0.03), act(0, 0, 1, 1), null, false);
    let f = b.fill(state(0, 0, 0.11, 0.02), act(0, 0, 1, 1), null, false);
    expect(f.get('derived.eef_speed')).toBeCloseTo(0.2);
    expect(f.get('derived.eef_vz')).toBeCloseTo(0.2);
    expect(f.get('derived.net_motion')).toBeNaN(); // window not yet covered
    expect(f.get('derived.gripper_closing')).toBe(1);
    f = b.fill(state(0, 0, 0.13, 0.001), act(0, 0, 1, 1), null, false);
    expect(f.get('derived.net_motion')).toBeCloseTo(0.03);
    f = b.fill(state(0, 0, 0.13, 0.001), act(0, 0, 1, 1), null, false);
    expect(f.get('derived.gripper_closed')).toBe(1);
    expect(f.get('derived.gripper_closed_empty')).toBe(1);
    expect(f.get('derived.gripper_closing')).toBe(0);
  });

  it('a grip that held something and then closed on nothing is lost; one that never held is not, and opening ends the grasp', () => {
    const b = new FrameBuilder({ privileged: false });
    const close = act(0, 0, 0, 1);
    const open = act(0, 0, 0, -1);
    const lost = (q: number, a = close) => b.fill(state(0, 0, 0.15, q), a, null, false).get('derived.grip_lost');
    // closes on nothing: empty, but never held (the first step has no history)
    expect([lost(0.01), lost(0.001), lost(0.001), lost(0.001)]).toEqual([Number.NaN, 0, 0, 0]);
    expect(b.frame.get('derived.gripper_closed_empty')).toBe(1);
    // opens, closes on an object (settles at 2 cm and holds it), then the object is knocked out
    lost(0.04, open);
    expect([lost(0.04), lost(0.02), lost(0.02), lost(0.001), lost(0.001)]).toEqual([0, 0, 0, 0, 1]);
    // a close that lands late: the fingers stay open and settled first, then close on nothing
    lost(0.04, open);
    expect([lost(0.04), lost(0.04), lost(0.04), lost(0.02), lost(0.001), lost(0.001)]).toEqual([0, 0, 0, 0, 0, 0]);
    // opening ends it; closing on nothing again is plain empty
    lost(0.001, open);
    expect([lost(0.001), lost(0.001)]).toEqual([0, 0]);
  });

  it('angular speed goes through quaternions (no jump across ±π)', () => {
    expect(relativeRotationAngle(0, 0, 0, 0, 0, 0.1)).toBeCloseTo(0.1);
    expect(relativeRotationAngle(0, 0, Math.PI - 0.01, 0, 0, -(Math.PI - 0.01))).toBeCloseTo(0.02, 6);
  });

  it('counts episode steps, recoveries and steps since a recovery', () => {
    const b = new FrameBuilder({ privileged: false });
    const rec = [false, false, true, true, false, false, true, false];
    const rows = rec.map((r) => {
      const f = b.fill(state(0, 0, 0.2), act(0, 0, 0), null, r);
      return ['step', 'in_recovery', 'recovery_steps', 'recoveries', 'steps_since_recovery', 'policy_steps'].map((n) =>
        f.get(`episode.${n}`),
      );
    });
    expect(rows).toEqual([
      [0, 0, 0, 0, 0, 0],
      [1, 0, 0, 0, 1, 1],
      [2, 1, 0, 1, 0, 2],
      [3, 1, 1, 1, 0, 2],
      [4, 0, 0, 1, 0, 2],
      [5, 0, 0, 1, 1, 3],
      [6, 1, 0, 2, 0, 4],
      [7, 0, 0, 2, 0, 4],
    ]);
    b.reset();
    expect(b.fill(state(0, 0, 0.2), act(0, 0, 0), null, false).get('episode.step')).toBe(0);
  });

  it('privileged features: copied when authorized (booleans as 0/1, unknown keys ignored, missing NaN), NaN otherwise', () => {
    // keyed as the tabletop's frames carry them (`subject_lift` is privileged.object_height)
    const env = { grasped: true, subject_lift: 0.07, success: true, bogus: 3, subject_x: 0.5 };
    const on = new FrameBuilder({ layout: TABLETOP_LAYOUT, privileged: true }).fill(state(0, 0, 0.2), act(0, 0, 0), env, false);
    expect(on.get('privileged.grasped')).toBe(1);
    expect(on.get('privileged.object_height')).toBeCloseTo(0.07);
    expect(on.get('privileged.object_x')).toBeCloseTo(0.5);
    expect(on.get('privileged.contact_force')).toBeNaN();
    expect(featureIndex('privileged.success')).toBe(-1);
    const off = new FrameBuilder({ layout: TABLETOP_LAYOUT, privileged: false }).fill(state(0, 0, 0.2), act(0, 0, 0), env, false);
    for (const f of FEATURES.filter((x) => x.source === 'privileged')) expect(off.get(f.name)).toBeNaN();
  });

  it('privileged features from a names/values frame, under the keys the schema names; success never maps', () => {
    const names = ['subject_x', 'eef_subject_dist', 'grasped', 'success', 'goal_progress', 'finger_opening'];
    const env = { names, values: Float64Array.of(0.3, 0.02, 1, 1, 0.9, 0.05) };
    const b = new FrameBuilder({ layout: TABLETOP_LAYOUT, privileged: true });
    let f = b.fill(state(0, 0, 0.2), act(0, 0, 0), env, false);
    expect(f.get('privileged.object_x')).toBeCloseTo(0.3);
    expect(f.get('privileged.object_eef_dist')).toBeCloseTo(0.02);
    expect(f.get('privileged.grasped')).toBe(1);
    expect(f.get('privileged.finger_gap')).toBeCloseTo(0.05);
    expect(f.get('privileged.object_y')).toBeNaN();
    env.values[2] = 0;
    f = b.fill(state(0, 0, 0.2), act(0, 0, 0), env, false);
    expect(f.get('privileged.grasped')).toBe(0);
    const clash = {
      name: 'robot.eef_x',
      unit: 'm',
      kind: 'number',
      meaning: 'a world claiming a critic feature',
      provenance: 'observed',
    } as const;
    expect(() => new FeatureLayout({ world: 'w', features: [clash] })).toThrow(/one of the critic's own features/);
  });
});
