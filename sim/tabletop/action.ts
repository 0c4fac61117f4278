// Actions: validation (before anything reaches WebAssembly) and how a normalized 7-D action moves
// the mocap target and the fingers. Deltas are in the robot base (= world) frame, as in LIBERO's
// OSC_POSE controller: 1.0 means 0.05 m or 0.5 rad in one 20 Hz step.
import { ACTION_DIM } from '../env.js';
import { SimInputError } from '../errors.js';
import { normalizeQuat, quatFromRotvec, quatMul } from '../math/quat.js';
import { GRIPPER } from './scene/gripper.js';
import type { World } from './world.js';

export const POSITION_SCALE = 0.05;
export const ROTATION_SCALE = 0.5;
/** How far the commanded pose may run ahead of the hand; bounds the force when the hand is blocked. */
const MAX_LEAD = 0.05;
/** Where the grip point may be commanded (a Polymetis-style safety box, in metres). */
export const EEF_BOX = { min: [-0.35, -0.45, 0.005], max: [0.5, 0.45, 0.45] } as const;

export function validateAction(action: ArrayLike<number>): void {
  if (action === null || typeof action !== 'object' || typeof action.length !== 'number') {
    throw new SimInputError(`action must be an array of ${ACTION_DIM} numbers`);
  }
  if (action.length !== ACTION_DIM) throw new SimInputError(`action must have ${ACTION_DIM} numbers, got ${action.length}`);
  for (let i = 0; i < ACTION_DIM; i++) {
    const v = action[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new SimInputError(`action[${i}] must be a finite number, got ${String(v)}`);
  }
}

const clip1 = (v: number): number => (v < -1 ? -1 : v > 1 ? 1 : v);

/** Reusable scratch space, so applying an action allocates nothing. */
export class ActionApplier {
  private readonly target = new Float64Array(3);
  private readonly dq = new Float64Array(4);
  private readonly q = new Float64Array(4);

  /** Starts from the hand's current pose (at reset). */
  init(world: World): void {
    const g = world.gripperBody;
    for (let i = 0; i < 3; i++) this.target[i] = world.xpos[3 * g + i]!;
  }

  apply(world: World, a: ArrayLike<number>): void {
    const g = world.gripperBody;
    const mp = world.mocapPos;
    for (let i = 0; i < 3; i++) {
      const hand = world.xpos[3 * g + i]!;
      // Integrate on the previous target (no drift under load), but never further than MAX_LEAD
      // from where the hand actually is (no wind-up when it is blocked).
      let t = this.target[i]! + POSITION_SCALE * clip1(a[i]!);
      t = Math.min(Math.max(t, hand - MAX_LEAD), hand + MAX_LEAD);
      t = Math.min(Math.max(t, EEF_BOX.min[i]), EEF_BOX.max[i]);
      this.target[i] = t;
      mp[i] = t;
    }
    quatFromRotvec(this.dq, ROTATION_SCALE * clip1(a[3]!), ROTATION_SCALE * clip1(a[4]!), ROTATION_SCALE * clip1(a[5]!));
    for (let i = 0; i < 4; i++) this.q[i] = world.xquat[4 * g + i]!;
    quatMul(world.mocapQuat, this.dq, this.q);
    normalizeQuat(world.mocapQuat);
    const opening = (GRIPPER.maxOpening * (1 - clip1(a[6]!))) / 2;
    world.ctrl[0] = opening;
    world.ctrl[1] = opening;
  }
}
