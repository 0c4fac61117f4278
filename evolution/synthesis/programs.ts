// Recovery programs the synthesized rules start: one per kind of milestone, each finishing the stage
// the failure stalled in and handing back to the policy. They use only the default tool set and the
// privileged points the embedded suite exposes (object, target), in the style of the default bundle.
import type { RecoveryFileInput } from '../../critic/index.js';

type ProgramInput = RecoveryFileInput['programs'][number];

const REENTRY = { stable_steps: 2, max_speed: 0.05, max_width_rate: 0.0005 };

/** Pick the object up again: reopen, rise, go above it, descend, close until held, lift. */
function pick(id: string): ProgramInput {
  return {
    id, budget: 140, reentry: REENTRY,
    description: 'reopen, go above the task object, descend onto it, close until held, lift it',
    steps: pickSteps(false),
  };
}

/**
 * The steps of a pick. With `passWhenHeld`, each reaching step's `until` also holds while the
 * object is in the hand, so a program that starts with the object held passes over them.
 */
function pickSteps(passWhenHeld: boolean): ProgramInput['steps'] {
  const until = <C extends object>(cond: C) =>
    passWhenHeld ? { op: 'or' as const, args: [{ op: 'eq' as const, feature: 'privileged.grasped', value: 1 }, cond] } : cond;
  return [
    { tool: 'open_gripper', budget: 8, fallback: 'skip', until: until({ op: 'ge', feature: 'derived.gripper_width', value: 0.065 }) },
    { tool: 'lift', params: { speed: 0.5 }, budget: 6, fallback: 'skip', until: until({ op: 'gt', feature: 'robot.eef_z', value: 0.09 }) },
    { tool: 'move_above', params: { point: 'object', height: 0.07, speed: 0.7, xy_tol: 0.008 }, budget: 50,
      until: until({ op: 'always', window: 2, cond: { op: 'lt', feature: 'privileged.object_eef_dist', value: 0.075 } }) },
    { tool: 'descend', params: { point: 'object', offset: 0.004, speed: 0.4 }, budget: 30, fallback: 'skip',
      until: until({ op: 'lt', feature: 'privileged.object_eef_dist', value: 0.008 }) },
    { tool: 'close_gripper', budget: 12, until: { op: 'always', window: 3, cond: { op: 'eq', feature: 'privileged.grasped', value: 1 } },
      fallback: { steps: [{ tool: 'retreat', params: { speed: 0.4 }, budget: 4 }] } },
    { tool: 'lift', params: { speed: 0.5, gripper: 'close' }, budget: 20, until: { op: 'gt', feature: 'privileged.object_height', value: 0.06 } },
  ] as ProgramInput['steps'];
}

/** Lift what is held clear of the table. */
function lift(id: string): ProgramInput {
  return {
    id, budget: 40, reentry: REENTRY,
    description: 'close on the held object and lift it clear of the table',
    steps: [
      { tool: 'close_gripper', budget: 6, fallback: 'skip', until: { op: 'eq', feature: 'privileged.grasped', value: 1 } },
      { tool: 'lift', params: { speed: 0.5, gripper: 'close' }, budget: 30, until: { op: 'gt', feature: 'privileged.object_height', value: 0.08 } },
    ],
  };
}

/** Carry the held object above its place point, lower it, let go, back away. */
function place(id: string): ProgramInput {
  return {
    id, budget: 130, reentry: REENTRY,
    description: 'keep the object, rise, carry it above its place point, lower it, let go, back away',
    steps: [
      { tool: 'lift', params: { gripper: 'close', speed: 0.5 }, budget: 12, fallback: 'skip', until: { op: 'gt', feature: 'privileged.object_height', value: 0.07 } },
      { tool: 'move_above', params: { point: 'target', height: 0.06, speed: 0.6, xy_tol: 0.01, gripper: 'close' }, budget: 60,
        until: { op: 'always', window: 2, cond: { op: 'lt', feature: 'privileged.object_target_dist_xy', value: 0.012 } } },
      { tool: 'lower', params: { point: 'target', offset: 0.01, speed: 0.3 }, budget: 25, fallback: 'skip',
        until: { op: 'stagnant', feature: 'robot.eef_z', window: 3, eps: 0.002 } },
      { tool: 'release', budget: 8, fallback: 'skip', until: { op: 'ge', feature: 'derived.gripper_width', value: 0.06 } },
      { tool: 'retreat', params: { speed: 0.5 }, budget: 4 },
    ],
  };
}

/** Let go and back away. */
function release(id: string): ProgramInput {
  return {
    id, budget: 20, reentry: REENTRY,
    description: 'open the gripper and back away',
    steps: [
      { tool: 'release', budget: 10, fallback: 'skip', until: { op: 'ge', feature: 'derived.gripper_width', value: 0.06 } },
      { tool: 'retreat', params: { speed: 0.5 }, budget: 6 },
    ],
  };
}

/** Lift a little and let the policy plan afresh (stages no specific program covers: drawers, buttons). */
function unstick(id: string): ProgramInput {
  return {
    id, budget: 16, reentry: REENTRY,
    description: 'lift a few centimetres and hand back for a fresh plan',
    steps: [{ tool: 'lift', params: { speed: 0.4 }, budget: 5 }, { tool: 'hold', budget: 3 }],
  };
}

/**
 * Do the whole place stage again from wherever it stands: pick the object up unless it is already
 * held, then carry, lower, let go and back away. A stage that stalls after the grasp has often
 * dropped its object on the way; a program that only carries would then carry nothing.
 */
function pickAndPlace(id: string): ProgramInput {
  return {
    id, budget: 260, reentry: REENTRY,
    description: 'pick the task object up again unless it is held, carry it above its place point, lower it, let go, back away',
    steps: [...pickSteps(true), ...place(id).steps.slice(1)],
  };
}

/**
 * The program that completes the stage whose milestone `milestone` (`subject.kind`) is missing.
 * `placeStage`: the subject's stage ends in a place (its milestones include `subject.placed`).
 */
export function programFor(milestone: string, id: string, placeStage = false): ProgramInput {
  const kind = milestone.slice(milestone.lastIndexOf('.') + 1);
  if (placeStage && ['reached', 'grasped', 'lifted', 'transported', 'placed'].includes(kind)) return pickAndPlace(id);
  switch (kind) {
    case 'reached':
    case 'grasped':
      return milestone.startsWith('button.') ? unstick(id) : pick(id);
    case 'lifted':
    case 'up':
      return lift(id);
    case 'transported':
    case 'placed':
      return place(id);
    case 'released':
      return release(id);
    default:
      return unstick(id);
  }
}
