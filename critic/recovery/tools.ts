// The tools recovery programs are written with. Each needs only features: positions of the end
// effector, and (for point-seeking tools) privileged positions of the object, target or handle.
// Stop conditions belong to the program (`until`), not the tool: `close_gripper` closes, and the
// program verifies the grasp with e.g. `privileged.grasped eq 1` or `derived.gripper_width`.
import { z } from 'zod';
import { GRIPPER_CLOSE, GRIPPER_OPEN, writeHold } from '../action.js';
import { EEF, GripperModeSchema, PointSchema, SpeedSchema, gripperFor, preparePoint, toward, writeTranslation } from './motion.js';
import { ToolRegistry, parseParams, type ToolDef } from './tool.js';
import { FeatureFrame } from '../features/frame.js';

const Empty = z.strictObject({});

/** A tool that stands still with a fixed or kept gripper. */
function still(name: string, summary: string, gripper: 'keep' | number): ToolDef<null> {
  return {
    name,
    summary,
    prepare: (raw, path, ctx) => (parseParams(Empty, raw, path, ctx), null),
    act: (_p, frame, out) => writeHold(out, gripper === 'keep' ? gripperFor('keep', frame.values) : gripper),
  };
}

const LiftParams = z.strictObject({
  /** Absolute height (m) to rise to; without it, rise at `speed` until the step ends. */
  to_z: z.number().optional(),
  speed: SpeedSchema.default(0.5),
  gain: z.number().gt(0).default(1),
  gripper: GripperModeSchema,
});
type Lift = z.infer<typeof LiftParams>;

/** Straight up, never down: above `to_z` it stands still. */
function lift(name: string, summary: string, gripper: 'keep' | 'open'): ToolDef<Lift> {
  return {
    name,
    summary,
    prepare: (raw, path, ctx) => parseParams(LiftParams, { gripper, ...raw }, path, ctx),
    act: (p, frame, out) => {
      const v = frame.values;
      const dz = p.to_z === undefined ? p.speed : Math.max(0, toward(p.to_z - v[EEF[2]!]!, p.gain));
      writeTranslation(out, 0, 0, dz, p.speed, gripperFor(p.gripper, v));
    },
  };
}

const AboveParams = z.strictObject({
  point: PointSchema,
  /** Height above the point (m). */
  height: z.number().default(0.08),
  speed: SpeedSchema.default(0.5),
  gain: z.number().gt(0).default(1),
  /** Horizontal error (m) above which the tool will not descend (so it never sweeps low). */
  xy_tol: z.number().gt(0).default(0.01),
  gripper: GripperModeSchema.default('keep'),
});

const moveAbove: ToolDef<{ slots: Int32Array } & z.infer<typeof AboveParams>> = {
  name: 'move_above',
  summary: 'move to a height above a point (object, target, handle or three features); never descends while off in xy',
  prepare: (raw, path, ctx) => {
    const p = parseParams(AboveParams, raw, path, ctx);
    return { ...p, slots: preparePoint(p.point, [...path, 'point'], ctx) };
  },
  act: (p, frame, out) => {
    const v = frame.values;
    const ex = v[p.slots[0]!]! - v[EEF[0]!]!;
    const ey = v[p.slots[1]!]! - v[EEF[1]!]!;
    const ez = v[p.slots[2]!]! + p.height - v[EEF[2]!]!;
    const dz = Math.hypot(ex, ey) > p.xy_tol ? Math.max(0, ez) : ez;
    writeTranslation(out, toward(ex, p.gain), toward(ey, p.gain), toward(dz, p.gain), p.speed, gripperFor(p.gripper, v));
  },
};

const DescendParams = z.strictObject({
  /** Descend toward this point's z plus `offset`, correcting xy toward it; or toward `to_z`. */
  point: PointSchema.optional(),
  offset: z.number().default(0),
  to_z: z.number().optional(),
  speed: SpeedSchema.default(0.3),
  gain: z.number().gt(0).default(1),
  gripper: GripperModeSchema,
});
type Descend = z.infer<typeof DescendParams> & { slots: Int32Array | null };

/** Straight down (never up), optionally aligning xy on a point. No target: down at `speed`. */
function descend(name: string, summary: string, gripper: 'keep' | 'close'): ToolDef<Descend> {
  return {
    name,
    summary,
    prepare: (raw, path, ctx) => {
      const p = parseParams(DescendParams, { gripper, ...raw }, path, ctx);
      return { ...p, slots: p.point === undefined ? null : preparePoint(p.point, [...path, 'point'], ctx) };
    },
    act: (p, frame, out) => {
      const v = frame.values;
      let dx = 0,
        dy = 0,
        dz = -p.speed;
      if (p.slots !== null) {
        dx = toward(v[p.slots[0]!]! - v[EEF[0]!]!, p.gain);
        dy = toward(v[p.slots[1]!]! - v[EEF[1]!]!, p.gain);
        dz = Math.min(0, toward(v[p.slots[2]!]! + p.offset - v[EEF[2]!]!, p.gain));
      } else if (p.to_z !== undefined) {
        dz = Math.min(0, toward(p.to_z - v[EEF[2]!]!, p.gain));
      }
      writeTranslation(out, dx, dy, dz, p.speed, gripperFor(p.gripper, v));
    },
  };
}

const AlongParams = z.strictObject({
  /** Direction in the robot base frame; normalized by the tool. */
  direction: z.tuple([z.number(), z.number(), z.number()]).refine((d) => Math.hypot(...d) > 1e-9, 'direction must not be zero'),
  speed: SpeedSchema.default(0.3),
  gripper: GripperModeSchema,
});
type Along = z.infer<typeof AlongParams> & { ux: number; uy: number; uz: number };

/** Constant motion along a direction (a handle's axis); the program's `until` ends it. */
function along(name: string, summary: string, gripper: 'keep' | 'close'): ToolDef<Along> {
  return {
    name,
    summary,
    prepare: (raw, path, ctx) => {
      const p = parseParams(AlongParams, { gripper, ...raw }, path, ctx);
      const n = Math.hypot(...p.direction);
      return { ...p, ux: p.direction[0] / n, uy: p.direction[1] / n, uz: p.direction[2] / n };
    },
    act: (p, frame, out) =>
      writeTranslation(out, p.ux * p.speed, p.uy * p.speed, p.uz * p.speed, p.speed, gripperFor(p.gripper, frame.values)),
  };
}

const StepAsideParams = z.strictObject({
  /** How much of the motion goes back against the policy's heading (0: none). */
  back: z.number().min(0).max(1).default(0.25),
  /** How much goes across it: to its left when positive, to its right when negative. */
  side: z.number().min(-1).max(1).default(1),
  speed: SpeedSchema.default(1),
  gripper: GripperModeSchema.default('keep'),
});
type StepAside = z.infer<typeof StepAsideParams>;
const HEADING_X = FeatureFrame.index('derived.heading_x');
const HEADING_Y = FeatureFrame.index('derived.heading_y');

/**
 * World-neutral: move in the horizontal plane against and across the heading the policy last
 * commanded (derived.heading_x/y, frozen while a recovery drives), e.g. back off an obstacle and
 * slide past it. With no heading yet (NaN) it writes no motion.
 */
const stepAside: ToolDef<StepAside> = {
  name: 'step_aside',
  summary: "move back against and across the policy's last commanded xy heading, gripper kept",
  prepare: (raw, path, ctx) => parseParams(StepAsideParams, raw, path, ctx),
  act: (p, frame, out) => {
    const v = frame.values;
    const hx = v[HEADING_X]!;
    const hy = v[HEADING_Y]!;
    // left of (hx, hy) is (−hy, hx)
    const dx = -p.back * hx - p.side * hy;
    const dy = -p.back * hy + p.side * hx;
    const n = Math.hypot(dx, dy);
    writeTranslation(out, (dx / n) * p.speed, (dy / n) * p.speed, 0, p.speed, gripperFor(p.gripper, v));
  },
};

/** Every built-in tool. Programs may only name these (or tools a caller registers). */
export function defaultTools(): ToolRegistry {
  return new ToolRegistry()
    .register(still('hold', 'stand still, gripper unchanged', 'keep'))
    .register(still('open_gripper', 'stand still and open the gripper', GRIPPER_OPEN))
    .register(still('close_gripper', "stand still and close the gripper (verify with the step's until)", GRIPPER_CLOSE))
    .register(still('release', 'stand still and open the gripper to let go of a held object', GRIPPER_OPEN))
    .register(lift('lift', 'move straight up (to to_z, or at speed), gripper kept', 'keep'))
    .register(lift('retreat', 'move straight up away from the scene, gripper opened', 'open'))
    .register(moveAbove)
    .register(descend('descend', 'move down, optionally onto a point (pre-grasp approach), gripper kept', 'keep'))
    .register(descend('lower', 'move a held object down, optionally onto a point, gripper closed', 'close'))
    .register(along('pull', 'move along a direction holding a handle, gripper closed', 'close'))
    .register(along('push', 'move along a direction, gripper kept', 'keep'))
    .register(stepAside)
    .register(descend('press', 'move down until contact (end it with until on contact_force / button_pressed)', 'close'));
}
