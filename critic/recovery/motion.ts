// Small motion primitives the tools share: a proportional step toward a goal, speed limiting that
// keeps direction, the gripper modes, and reading a point (three feature slots) from a frame.
import { z } from 'zod';
import { GRIPPER_CLOSE, GRIPPER_INDEX, GRIPPER_OPEN, TRANS_SCALE_M } from '../action.js';
import type { JsonPath } from '../errors.js';
import { FeatureFrame } from '../features/frame.js';
import type { ToolPrepareContext } from './tool.js';

export const GripperModeSchema = z.enum(['keep', 'open', 'close']);
export type GripperMode = z.infer<typeof GripperModeSchema>;

/** A point: a named one (privileged object / target / handle position) or three feature names. */
export const PointSchema = z.union([
  z.enum(['object', 'target', 'handle']),
  z.strictObject({ x: z.string(), y: z.string(), z: z.string() }),
]);
export type PointSpec = z.infer<typeof PointSchema>;

/** Normalized speed: fraction of the full per-step translation (0.05 m). */
export const SpeedSchema = z.number().gt(0).max(1);

const PREV_GRIPPER = FeatureFrame.index('command.prev_gripper');
export const EEF = Int32Array.from(['robot.eef_x', 'robot.eef_y', 'robot.eef_z'].map((n) => FeatureFrame.index(n)));

/** Resolves a point to three slots (privileged ones need the run's authorization). */
export function preparePoint(p: PointSpec, path: JsonPath, ctx: ToolPrepareContext): Int32Array {
  const names = typeof p === 'string' ? (['x', 'y', 'z'] as const).map((a) => `privileged.${p}_${a}`) : [p.x, p.y, p.z];
  return Int32Array.from(names.map((n) => ctx.resolve(n, path)));
}

/**
 * The gripper command a mode means now; "keep" is the last executed command, clipped to [−1, 1]
 * (open if unknown or non-finite).
 */
export function gripperFor(mode: GripperMode, v: Float64Array): number {
  if (mode === 'open') return GRIPPER_OPEN;
  if (mode === 'close') return GRIPPER_CLOSE;
  const g = v[PREV_GRIPPER]!;
  return Number.isFinite(g) ? Math.max(GRIPPER_OPEN, Math.min(GRIPPER_CLOSE, g)) : GRIPPER_OPEN;
}

/**
 * Writes a pure translation (normalized units, rotation zero) whose norm is at most `speed`.
 * Non-finite inputs (a NaN feature) write zero motion: a tool never moves on unknown data.
 */
export function writeTranslation(out: Float32Array, dx: number, dy: number, dz: number, speed: number, gripper: number): void {
  const n = Math.hypot(dx, dy, dz);
  const f = n > speed ? speed / n : 1;
  const ok = Number.isFinite(n);
  out[0] = ok ? dx * f : 0;
  out[1] = ok ? dy * f : 0;
  out[2] = ok ? dz * f : 0;
  out[3] = out[4] = out[5] = 0;
  out[GRIPPER_INDEX] = gripper;
}

/** Normalized translation that would cover `meters` in one step, times `gain`. */
export function toward(meters: number, gain: number): number {
  return (meters / TRANS_SCALE_M) * gain;
}
