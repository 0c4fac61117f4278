// Turns "be there, facing this way, with the gripper like this" into one normalized action:
// a proportional step toward the target, capped in speed, in LIBERO's action convention.
import { POSITION_SCALE, ROTATION_SCALE } from '../action.js';
import type { World } from '../world.js';
import { quatFromYaw, quatMul, rotvecFromQuat } from '../../math/quat.js';

export interface Target {
  x: number;
  y: number;
  z: number;
  yaw: number;
  /** −1 open … +1 close. */
  grip: number;
  /** Largest translation per step, as a fraction of the 5 cm action scale. */
  speed: number;
}

/** Fraction of the remaining error commanded per step; < 1 because the hand lags the command. */
const GAIN = 0.7;
const ROT_GAIN = 0.7;

const qTarget = new Float64Array(4);
const qInv = new Float64Array(4);
const qErr = new Float64Array(4);
const rot = new Float64Array(3);

export function actionToward(world: World, t: Target, out: Float64Array): void {
  const g = world.gripperBody;
  const p = world.xpos;
  const dx = t.x - p[3 * g]!;
  const dy = t.y - p[3 * g + 1]!;
  const dz = t.z - p[3 * g + 2]!;
  // Scale the whole vector so the hand moves in a straight line toward the target.
  const len = (Math.hypot(dx, dy, dz) * GAIN) / POSITION_SCALE;
  const k = len > t.speed ? t.speed / len : 1;
  out[0] = (dx * GAIN * k) / POSITION_SCALE;
  out[1] = (dy * GAIN * k) / POSITION_SCALE;
  out[2] = (dz * GAIN * k) / POSITION_SCALE;
  // Rotation error in the world frame: q_err = q_target ⊗ q_hand⁻¹.
  const q = quatFromYaw(t.yaw);
  for (let i = 0; i < 4; i++) qTarget[i] = q[i]!;
  const x = world.xquat;
  qInv[0] = x[4 * g]!;
  qInv[1] = -x[4 * g + 1]!;
  qInv[2] = -x[4 * g + 2]!;
  qInv[3] = -x[4 * g + 3]!;
  quatMul(qErr, qTarget, qInv);
  rotvecFromQuat(rot, qErr);
  for (let i = 0; i < 3; i++) out[3 + i] = clip((rot[i]! * ROT_GAIN) / ROTATION_SCALE);
  out[6] = t.grip;
}

export function handDistance(world: World, t: Target): { planar: number; vertical: number } {
  const g = world.gripperBody;
  const p = world.xpos;
  return { planar: Math.hypot(t.x - p[3 * g]!, t.y - p[3 * g + 1]!), vertical: Math.abs(t.z - p[3 * g + 2]!) };
}

/** The yaw to grasp an object at: cubes are symmetric every 90°, cylinders every angle. */
export function graspYaw(world: World, body: number, cube: boolean, currentYaw: number): number {
  if (!cube) return currentYaw;
  const x = world.xquat;
  const yaw = Math.atan2(
    2 * (x[4 * body]! * x[4 * body + 3]! + x[4 * body + 1]! * x[4 * body + 2]!),
    1 - 2 * (x[4 * body + 2]! ** 2 + x[4 * body + 3]! ** 2),
  );
  const quarter = Math.PI / 2;
  // Nearest of yaw + kπ/2 to the hand's current yaw: the shortest turn.
  return yaw + quarter * Math.round((currentYaw - yaw) / quarter);
}

function clip(v: number): number {
  return v < -1 ? -1 : v > 1 ? 1 : v;
}
