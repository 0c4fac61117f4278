// The phases of each stage kind: pick-and-place, lift, open a drawer by hooking its handle, close
// it by pushing, press a button. All targets come from privileged state (the expert sees truth).
import { yawOf } from '../../math/quat.js';
import { BUTTON } from '../scene/button.js';
import { CABINET } from '../scene/cabinet.js';
import { GRIPPER } from '../scene/gripper.js';
import { UP_HEIGHT, dropPoint, inRegion, resolvePlace, supportHeight } from '../tasks/regions.js';
import type { Stage } from '../tasks/types.js';
import type { MovableRef, World } from '../world.js';
import { graspYaw, handDistance } from './motion.js';
import { recall, remember, type Phase, type PhaseContext } from './phase.js';

const HOVER = 0.15;
const CARRY = 0.16;

export function phasesFor(world: World, stage: Stage): Phase[] {
  switch (stage.kind) {
    case 'place':
      return [...graspPhases(world, world.movable(stage.object)), ...placePhases(world, stage)];
    case 'lift':
      return [...graspPhases(world, world.movable(stage.object)), liftUp(world.movable(stage.object))];
    case 'open':
      return openPhases(world, stage.cabinet);
    case 'close':
      return closePhases(world, stage.cabinet);
    case 'press':
      return pressPhases(world, stage.button);
  }
}

const hand = (ctx: PhaseContext, i: number): number => ctx.world.xpos[3 * ctx.world.gripperBody + i]!;
const body = (ctx: PhaseContext, b: number, i: number): number => ctx.world.xpos[3 * b + i]!;
const handYaw = (ctx: PhaseContext): number => yawOf(ctx.world.xquat.subarray(4 * ctx.world.gripperBody, 4 * ctx.world.gripperBody + 4));
const yawClose = (ctx: PhaseContext, yaw: number): boolean => Math.abs(handYaw(ctx) - yaw) < 0.06;

/** Hover, align, descend around the object, squeeze until the grasp holds, lift. */
function graspPhases(world: World, obj: MovableRef): Phase[] {
  const cube = obj.spec.shape === 'cube';
  const graspZ = (ctx: PhaseContext): number => Math.max(body(ctx, obj.body, 2), GRIPPER.fingertipDrop + 0.004);
  return [
    {
      name: 'hover',
      budget: 60,
      target(ctx, t) {
        const yaw = remember(ctx, 'yaw', graspYaw(world, obj.body, cube, handYaw(ctx)));
        Object.assign(t, { x: body(ctx, obj.body, 0), y: body(ctx, obj.body, 1), z: HOVER, yaw, grip: -1, speed: 0.8 });
      },
      done: (ctx, t) =>
        handDistance(world, t).planar < 0.008 &&
        handDistance(world, t).vertical < 0.03 &&
        yawClose(ctx, t.yaw) &&
        world.fingerOpening() > 0.034,
    },
    {
      name: 'descend',
      budget: 40,
      target(ctx, t) {
        Object.assign(t, {
          x: body(ctx, obj.body, 0),
          y: body(ctx, obj.body, 1),
          z: graspZ(ctx),
          yaw: recall(ctx, 'yaw', 0),
          grip: -1,
          speed: 0.5,
        });
      },
      done: (_ctx, t) => handDistance(world, t).vertical < 0.005 && handDistance(world, t).planar < 0.006,
    },
    {
      name: 'squeeze',
      budget: 20,
      target(ctx, t) {
        Object.assign(t, {
          x: body(ctx, obj.body, 0),
          y: body(ctx, obj.body, 1),
          z: graspZ(ctx),
          yaw: recall(ctx, 'yaw', 0),
          grip: 1,
          speed: 0.2,
        });
      },
      done: (ctx) => world.grasped(obj) && ctx.stepsInPhase >= 6,
    },
    {
      name: 'raise',
      budget: 30,
      target(ctx, t) {
        remember(ctx, 'hold_dz', body(ctx, obj.body, 2) - hand(ctx, 2));
        Object.assign(t, { x: hand(ctx, 0), y: hand(ctx, 1), z: CARRY, yaw: recall(ctx, 'yaw', 0), grip: 1, speed: 0.5 });
      },
      done: (ctx) => hand(ctx, 2) > CARRY - 0.015,
      failed: () => !world.grasped(obj),
    },
  ];
}

function placePhases(world: World, stage: Extract<Stage, { kind: 'place' }>): Phase[] {
  const obj = world.movable(stage.object);
  const place = resolvePlace(world, stage.target);
  const spot = new Float64Array(2);
  const drop = (): Float64Array => (dropPoint(world, place, spot, stage.offset), spot);
  /** Hand height that puts the object's bottom just above the support. */
  const lowZ = (ctx: PhaseContext): number => supportHeight(world, place) + obj.spec.halfHeight + 0.006 - recall(ctx, 'hold_dz', 0);
  return [
    {
      name: 'carry',
      budget: 80,
      target(ctx, t) {
        const s = drop();
        Object.assign(t, { x: s[0], y: s[1], z: CARRY, yaw: recall(ctx, 'yaw', 0), grip: 1, speed: 0.6 });
      },
      done: (_ctx, t) => handDistance(world, t).planar < 0.006,
      failed: () => !world.grasped(obj),
    },
    {
      name: 'lower',
      budget: 40,
      target(ctx, t) {
        const s = drop();
        Object.assign(t, { x: s[0], y: s[1], z: lowZ(ctx), yaw: recall(ctx, 'yaw', 0), grip: 1, speed: 0.4 });
      },
      done: (_ctx, t) => handDistance(world, t).vertical < 0.006 || inRegion(world, obj, place),
      failed: () => !world.grasped(obj) && !inRegion(world, obj, place),
    },
    {
      name: 'release',
      budget: 20,
      target(ctx, t) {
        Object.assign(t, { x: hand(ctx, 0), y: hand(ctx, 1), z: hand(ctx, 2), yaw: recall(ctx, 'yaw', 0), grip: -1, speed: 0.1 });
      },
      done: () => world.fingerOpening() > 0.03,
    },
    retreat(world),
  ];
}

function retreat(world: World): Phase {
  return {
    name: 'retreat',
    budget: 30,
    target(ctx, t) {
      Object.assign(t, { x: hand(ctx, 0), y: hand(ctx, 1), z: HOVER, yaw: recall(ctx, 'yaw', 0), grip: -1, speed: 0.6 });
    },
    done: (ctx) => hand(ctx, 2) > HOVER - 0.02 && world.fingerOpening() > 0.03,
  };
}

function liftUp(obj: MovableRef): Phase {
  return {
    name: 'hold_up',
    budget: 40,
    target(ctx, t) {
      Object.assign(t, {
        x: hand(ctx, 0),
        y: hand(ctx, 1),
        z: obj.spec.halfHeight + UP_HEIGHT + 0.04 - recall(ctx, 'hold_dz', 0),
        yaw: recall(ctx, 'yaw', 0),
        grip: 1,
        speed: 0.5,
      });
    },
    done: () => false,
    failed: (ctx) => !ctx.world.grasped(obj),
  };
}

/** Lower closed fingers into the gap between the handle bar and the drawer front, pull, lift out. */
function openPhases(world: World, cabinet: string): Phase[] {
  const f = world.fixture(cabinet);
  const handleX = (ctx: PhaseContext): number => body(ctx, f.part, 0) + CABINET.handle.x;
  const hookX = (ctx: PhaseContext): number => handleX(ctx) + 0.0255;
  const y = (ctx: PhaseContext): number => body(ctx, f.part, 1);
  const hookZ = 0.05;
  return [
    {
      name: 'above_handle',
      budget: 60,
      target: (ctx, t) => Object.assign(t, { x: hookX(ctx), y: y(ctx), z: HOVER, yaw: 0, grip: 1, speed: 0.8 }),
      done: (ctx, t) => handDistance(world, t).planar < 0.004 && yawClose(ctx, 0) && world.fingerOpening() < 0.004,
    },
    {
      name: 'hook',
      budget: 40,
      target: (ctx, t) => Object.assign(t, { x: hookX(ctx), y: y(ctx), z: hookZ, yaw: 0, grip: 1, speed: 0.5 }),
      done: (_ctx, t) => handDistance(world, t).vertical < 0.006,
    },
    {
      name: 'pull',
      budget: 60,
      target: (ctx, t) => Object.assign(t, { x: hookX(ctx) - 0.06, y: y(ctx), z: hookZ, yaw: 0, grip: 1, speed: 0.35 }),
      done: () => world.jointTravel(f) >= CABINET.openAbove + 0.02,
    },
    {
      name: 'unhook',
      budget: 30,
      target: (ctx, t) => Object.assign(t, { x: hookX(ctx), y: y(ctx), z: HOVER, yaw: 0, grip: 1, speed: 0.5 }),
      done: (ctx) => hand(ctx, 2) > HOVER - 0.02,
    },
  ];
}

/** Push the drawer shut by its handle, with closed fingers just in front of the bar. */
function closePhases(world: World, cabinet: string): Phase[] {
  const f = world.fixture(cabinet);
  const handleX = (ctx: PhaseContext): number => body(ctx, f.part, 0) + CABINET.handle.x;
  const closedHandleX = (ctx: PhaseContext): number => body(ctx, f.body, 0) + CABINET.handle.x;
  const y = (ctx: PhaseContext): number => body(ctx, f.part, 1);
  const pushZ = 0.06;
  return [
    {
      name: 'before_handle',
      budget: 60,
      target: (ctx, t) => Object.assign(t, { x: handleX(ctx) - 0.045, y: y(ctx), z: HOVER, yaw: 0, grip: 1, speed: 0.8 }),
      done: (ctx, t) => handDistance(world, t).planar < 0.006 && yawClose(ctx, 0),
    },
    {
      name: 'lower',
      budget: 40,
      target: (ctx, t) => Object.assign(t, { x: handleX(ctx) - 0.045, y: y(ctx), z: pushZ, yaw: 0, grip: 1, speed: 0.5 }),
      done: (_ctx, t) => handDistance(world, t).vertical < 0.006,
    },
    {
      name: 'push',
      budget: 60,
      target: (ctx, t) => Object.assign(t, { x: closedHandleX(ctx) - 0.01, y: y(ctx), z: pushZ, yaw: 0, grip: 1, speed: 0.35 }),
      done: () => world.jointTravel(f) <= CABINET.closedBelow / 2,
    },
    {
      name: 'back_off',
      budget: 30,
      target: (ctx, t) => Object.assign(t, { x: closedHandleX(ctx) - 0.06, y: y(ctx), z: HOVER, yaw: 0, grip: 1, speed: 0.5 }),
      done: (ctx) => hand(ctx, 2) > HOVER - 0.03,
    },
  ];
}

function pressPhases(world: World, button: string): Phase[] {
  const f = world.fixture(button);
  const capTop = BUTTON.baseHeight + 2 * BUTTON.capHalfHeight;
  return [
    {
      name: 'above_button',
      budget: 60,
      target: (ctx, t) => Object.assign(t, { x: body(ctx, f.body, 0), y: body(ctx, f.body, 1), z: 0.12, yaw: 0, grip: 1, speed: 0.8 }),
      done: (_ctx, t) => handDistance(world, t).planar < 0.006 && world.fingerOpening() < 0.004,
    },
    {
      name: 'push_down',
      budget: 40,
      target: (ctx, t) =>
        Object.assign(t, {
          x: body(ctx, f.body, 0),
          y: body(ctx, f.body, 1),
          z: capTop + GRIPPER.fingertipDrop - BUTTON.travel,
          yaw: 0,
          grip: 1,
          speed: 0.4,
        }),
      done: () => world.latchedButtons.has(button),
    },
    {
      name: 'lift_off',
      budget: 30,
      target: (ctx, t) => Object.assign(t, { x: body(ctx, f.body, 0), y: body(ctx, f.body, 1), z: 0.12, yaw: 0, grip: 1, speed: 0.6 }),
      done: (ctx) => hand(ctx, 2) > 0.1,
    },
  ];
}
