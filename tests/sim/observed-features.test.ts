// The observed features a task's goal gives the critic, from the observation alone: which object it
// is going for, and the fixture the instruction acts on (the button, the drawer handle).
import { describe, expect, it } from 'vitest';
import { OBJECT_POSE_DIM, STATE_DIM, type Observation } from '../../sim/env.js';
import { getTask } from '../../sim/tabletop/tasks/catalog.js';
import { OBSERVED_FEATURE_NAMES, ObservedFeatureWriter, goalSlots } from '../../sim/tabletop/observed-features.js';

/** The task's object list as its episodes report it, and a writer over a fresh frame. */
function writerFor(taskId: string) {
  const task = getTask(taskId);
  const names = [...task.movables.map((m) => m.name), ...task.fixtures.map((f) => f.name)];
  const values = new Float64Array(OBSERVED_FEATURE_NAMES.length);
  const writer = new ObservedFeatureWriter(goalSlots(task, names), values, 0);
  const read = (name: (typeof OBSERVED_FEATURE_NAMES)[number]) => values[OBSERVED_FEATURE_NAMES.indexOf(name)]!;
  return { names, writer, read };
}

/** An observation with the hand at `eef` and each named object at the given position. */
function observation(names: readonly string[], eef: readonly number[], at: Record<string, readonly number[]>): Observation {
  const state = new Float32Array(STATE_DIM);
  state.set(eef);
  const objects = new Float32Array(names.length * OBJECT_POSE_DIM);
  names.forEach((n, i) => objects.set(at[n] ?? [0.5, 0.5, 0.02], i * OBJECT_POSE_DIM));
  return { state, objects, t: 0, prompt: '' } as Observation;
}

describe('observed fixture features', () => {
  it('place the button the goal names and measure the hand from it', () => {
    const { names, writer, read } = writerFor('goal/press_button');
    writer.write(observation(names, [0.1, -0.2, 0.06], { button: [0.22, -0.25, 0.03] }));
    expect(read('observed.objects_left')).toBe(0);
    expect(read('observed.fixture_x')).toBeCloseTo(0.22, 6);
    expect(read('observed.fixture_y')).toBeCloseTo(-0.25, 6);
    expect(read('observed.fixture_z')).toBeCloseTo(0.03, 6);
    expect(read('observed.fixture_eef_dist_xy')).toBeCloseTo(Math.hypot(0.12, 0.05), 6);
    expect(read('observed.fixture_eef_dist')).toBeCloseTo(Math.hypot(0.12, 0.05, 0.03), 6);
  });

  it('are unknown (NaN), and the distance infinite, where the goal names no fixture', () => {
    const { names, writer, read } = writerFor('object/green_cube_in_bowl');
    writer.write(observation(names, [0, 0, 0.2], { green_cube: [0.05, 0, 0.02], bowl: [-0.1, 0.2, 0] }));
    expect(read('observed.objects_left')).toBe(1);
    expect(read('observed.fixture_eef_dist')).toBe(Infinity);
    for (const f of ['observed.fixture_x', 'observed.fixture_y', 'observed.fixture_z', 'observed.fixture_eef_dist_xy'] as const) {
      expect(read(f)).toBeNaN();
    }
  });

  it('are kept once every goal object is where it goes, so a fixture left to push is still known', () => {
    const { names, writer, read } = writerFor('long/press_button_then_green_on_plate');
    // The green cube sits on the plate and the hand is clear of it: nothing is left to move.
    writer.write(
      observation(names, [0, -0.15, 0.08], { green_cube: [-0.11, -0.247, 0.02], plate: [-0.11, -0.247, 0], button: [0.22, -0.25, 0.03] }),
    );
    expect(read('observed.objects_left')).toBe(0);
    expect(read('observed.object_x')).toBeNaN();
    expect(read('observed.fixture_x')).toBeCloseTo(0.22, 6);
    expect(read('observed.fixture_eef_dist_xy')).toBeCloseTo(Math.hypot(0.22, 0.1), 6);
  });
});
