// Observed features: what a robot's perception would give the critic, computed from the very
// observation the policy receives (the same noisy poses) and from the instruction's goal (which
// objects go where). Nothing here reads the simulator's state: a bundle that reads only these and
// the robot state runs unchanged on a robot with an object detector.
import { OBJECT_POSE_DIM, type Observation } from '../env.js';
import type { TaskDef } from './tasks/types.js';
import { MovedAloneWindow } from './moved-alone.js';

export const OBSERVED_FEATURE_NAMES = [
  'observed.object_x',
  'observed.object_y',
  'observed.object_z',
  'observed.object_eef_dist',
  'observed.object_eef_dist_xy',
  'observed.target_x',
  'observed.target_y',
  'observed.target_z',
  'observed.object_target_dist_xy',
  'observed.objects_left',
  'observed.fixture_eef_dist',
  'observed.object_moved_alone',
  'observed.fixture_x',
  'observed.fixture_y',
  'observed.fixture_z',
  'observed.fixture_eef_dist_xy',
] as const;

/** A goal object closer than this (xy, m) to its receptacle, with the hand away, is where it belongs. */
const PLACED_XY_M = 0.04;
/** The hand is clear of a placed object beyond this distance (m). */
const HAND_CLEAR_M = 0.05;

interface GoalObject {
  /** Slot of the object in the observation's `objects`. */
  readonly slot: number;
  /** Slot of its receptacle, or −1 (a lift goal has none). */
  readonly target: number;
}

export interface TaskGoalSlots {
  readonly objects: readonly GoalObject[];
  /** Slots of the fixtures the goal acts on (a drawer to open or close, a button to press). */
  readonly fixtures: readonly number[];
}

/** What the instruction's goal names, as slots of the observation's object list. */
export function goalSlots(task: TaskDef, objectNames: readonly string[]): TaskGoalSlots {
  const slot = (name: string) => objectNames.indexOf(name);
  const objects: GoalObject[] = [];
  const fixtures: number[] = [];
  for (const p of task.goal) {
    if (p.op === 'In' || p.op === 'On') objects.push({ slot: slot(p.object), target: slot(p.target) });
    else if (p.op === 'Up') objects.push({ slot: slot(p.object), target: -1 });
    else if (!fixtures.includes(slot(p.target))) fixtures.push(slot(p.target));
  }
  return { objects, fixtures };
}

export class ObservedFeatureWriter {
  private readonly goals: readonly GoalObject[];
  private readonly fixtures: readonly number[];
  private readonly motion: MovedAloneWindow;

  constructor(
    goal: TaskGoalSlots,
    /** The frame's values and the index of `observed.object_x` in it (the names follow in order). */
    private readonly values: Float64Array,
    private readonly offset: number,
  ) {
    this.goals = goal.objects;
    this.fixtures = goal.fixtures;
    this.motion = new MovedAloneWindow(goal.objects.map((g) => g.slot * OBJECT_POSE_DIM));
  }

  write(obs: Observation): void {
    const v = this.values;
    const o = this.offset;
    const s = obs.state;
    const p = obs.objects;
    this.motion.push(s, p);
    let best = -1;
    let bestDist = Infinity;
    let left = 0;
    for (let i = 0; i < this.goals.length; i++) {
      const g = this.goals[i]!;
      const a = g.slot * OBJECT_POSE_DIM;
      const d = Math.hypot(p[a]! - s[0]!, p[a + 1]! - s[1]!, p[a + 2]! - s[2]!);
      if (g.target >= 0 && d > HAND_CLEAR_M && planar(p, a, g.target * OBJECT_POSE_DIM) < PLACED_XY_M) continue;
      left++;
      if (d < bestDist) {
        bestDist = d;
        best = i;
      }
    }
    v[o + 9] = left;
    this.writeFixture(s, p);
    if (best < 0) {
      for (let k = 0; k < 9; k++) v[o + k] = Number.NaN;
      v[o + 11] = Number.NaN;
      return;
    }
    v[o + 11] = this.motion.movedAlone(best);
    const g = this.goals[best]!;
    const a = g.slot * OBJECT_POSE_DIM;
    v[o] = p[a]!;
    v[o + 1] = p[a + 1]!;
    v[o + 2] = p[a + 2]!;
    v[o + 3] = bestDist;
    v[o + 4] = Math.hypot(p[a]! - s[0]!, p[a + 1]! - s[1]!);
    if (g.target < 0) {
      v[o + 5] = v[o + 6] = v[o + 7] = v[o + 8] = Number.NaN;
      return;
    }
    const b = g.target * OBJECT_POSE_DIM;
    v[o + 5] = p[b]!;
    v[o + 6] = p[b + 1]!;
    v[o + 7] = p[b + 2]!;
    v[o + 8] = planar(p, a, b);
  }

  /**
   * The nearest fixture the goal acts on: its distance from the hand (+∞ when the goal names none),
   * its position and its horizontal distance from the hand (NaN when none).
   */
  private writeFixture(s: Float32Array, p: Float32Array): void {
    const v = this.values;
    const o = this.offset;
    let d = Infinity;
    let nearest = -1;
    for (const f of this.fixtures) {
      const a = f * OBJECT_POSE_DIM;
      const df = Math.hypot(p[a]! - s[0]!, p[a + 1]! - s[1]!, p[a + 2]! - s[2]!);
      if (df < d) {
        d = df;
        nearest = a;
      }
    }
    v[o + 10] = d;
    if (nearest < 0) {
      v[o + 12] = v[o + 13] = v[o + 14] = v[o + 15] = Number.NaN;
      return;
    }
    v[o + 12] = p[nearest]!;
    v[o + 13] = p[nearest + 1]!;
    v[o + 14] = p[nearest + 2]!;
    v[o + 15] = Math.hypot(p[nearest]! - s[0]!, p[nearest + 1]! - s[1]!);
  }
}

function planar(p: Float32Array, a: number, b: number): number {
  return Math.hypot(p[a]! - p[b]!, p[a + 1]! - p[b + 1]!);
}
