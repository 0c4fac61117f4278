// The action and state conventions the critic reads and writes (LIBERO / openpi), in one place so
// that features, tools and the envelope agree on scales and indices.

/** `[dx, dy, dz, dax, day, daz, gripper]`, each normalized to [-1, 1]. */
export const ACTION_DIM = 7;
/** `eef_pos(3) + eef_axis_angle(3) + gripper_qpos(2)`. */
export const STATE_DIM = 8;
/** A normalized translation of 1 moves the end effector this far in one step. */
export const TRANS_SCALE_M = 0.05;
/** A normalized rotation of 1 turns the end effector this far in one step. */
export const ROT_SCALE_RAD = 0.5;
export const GRIPPER_INDEX = 6;
export const GRIPPER_OPEN = -1;
export const GRIPPER_CLOSE = 1;

/** Zero motion, gripper unchanged: what "hold" means everywhere in the critic. */
export function writeHold(out: Float32Array, gripper: number): void {
  for (let i = 0; i < 6; i++) out[i] = 0;
  out[GRIPPER_INDEX] = Number.isFinite(gripper) ? gripper : GRIPPER_OPEN;
}

/**
 * The governor's `clamp`: scale the motion part of `action` by `scale` ∈ [0, 1] into `out`, and its
 * horizontal translation (dx, dy) by `xyScale` (default `scale`), keeping the gripper command.
 * Scaling (not clipping per component) keeps the commanded direction within each part.
 */
export function scaleMotion(action: ArrayLike<number>, scale: number, out: Float32Array, xyScale = scale): void {
  const s = unit(scale);
  const h = unit(xyScale);
  out[0] = action[0]! * h;
  out[1] = action[1]! * h;
  for (let i = 2; i < 6; i++) out[i] = action[i]! * s;
  out[GRIPPER_INDEX] = action[GRIPPER_INDEX]!;
}

function unit(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/** Copies a 7-D action into `out` (the governor's `execute`). */
export function copyAction(action: ArrayLike<number>, out: Float32Array): void {
  for (let i = 0; i < ACTION_DIM; i++) out[i] = action[i]!;
}
