// What a searched condition may start: the critic's world-neutral restore actions, and the restore
// programs the world offers through its port (World.restores). A world declares actions, never
// conditions; which action a condition starts is chosen by a screening rollout
// (campaign/search-step.ts), not by a template. None of these does a stage's work: they stop,
// back off, step aside, rise, slow down or put the hand back where the policy can act, and hand
// back; the policy redoes the stage.
import { ProgramSchema, type RecoveryFileInput, type RuleInput } from '../../critic/index.js';
import type { World } from '../../sim/world.js';

type ProgramInput = RecoveryFileInput['programs'][number];

export interface LibraryAction {
  readonly id: string;
  readonly summary: string;
  /** Where it comes from: the critic (any world) or the world's port. */
  readonly origin: 'critic' | 'world';
  /** What the rule proposes, given the id its program (if any) is added under. */
  propose(recoveryId: string): RuleInput['propose'];
  /** The program it starts, under `recoveryId`; null for a proposal with no program (a clamp). */
  program(recoveryId: string): ProgramInput | null;
}

/** Hands back quickly: the policy re-plans from where the action left the robot. */
const REENTRY = { stable_steps: 1, max_speed: 0.2, max_width_rate: 0.01 };

function programAction(id: string, summary: string, budget: number, steps: readonly unknown[]): LibraryAction {
  return {
    id,
    summary,
    origin: 'critic',
    propose: (recovery) => ({ action: 'recovery', recovery, priority: 3 }),
    program: (recovery) => ({ id: recovery, description: summary, budget, reentry: REENTRY, steps: steps as ProgramInput['steps'] }),
  };
}

/** Back off a little and slide to one side of the policy's heading, a short, a medium and a long way. */
function stepAside(name: string, side: number): LibraryAction[] {
  return [
    { length: 'short', steps: 4 },
    { length: 'medium', steps: 7 },
    { length: 'long', steps: 10 },
  ].map(({ length, steps }) =>
    programAction(
      `step_aside_${name}_${length}`,
      `back off a little and slide ${steps} steps to the ${name} of the policy's heading, then hand back`,
      steps + 2,
      [{ tool: 'step_aside', params: { back: 0.25, side, speed: 1 }, budget: steps }],
    ),
  );
}

/** The critic's restore actions: they read only the robot's state and the policy's own commands. */
export const NEUTRAL_ACTIONS: readonly LibraryAction[] = [
  // re-entry drops the stale chunk, so a short hold is "ask the policy afresh"
  programAction('replan', 'hold still a moment, then ask the policy for a fresh chunk', 4, [{ tool: 'hold', budget: 3 }]),
  programAction('back_off', 'back off along the heading the policy was pushing, then hand back', 8, [
    { tool: 'step_aside', params: { back: 1, side: 0, speed: 1 }, budget: 6 },
  ]),
  ...stepAside('left', 1),
  ...stepAside('right', -1),
  programAction('rise', 'rise a few centimetres, gripper kept, then hand back', 8, [
    { tool: 'lift', params: { speed: 0.5 }, budget: 5 },
    { tool: 'hold', budget: 2 },
  ]),
  {
    id: 'slow_down',
    summary: "halve the policy's motion while the condition holds",
    origin: 'critic',
    propose: () => ({ action: 'clamp', scale: 0.5, axes: 'all', priority: 3 }),
    program: () => null,
  },
];

/** A world's restore that the critic cannot run, or whose id one of the critic's own actions takes. */
export class WorldRestoreError extends Error {
  constructor(world: string, id: string, why: string) {
    super(`world "${world}" declares restore "${id}", which ${why}`);
    this.name = 'WorldRestoreError';
  }
}

/**
 * The critic's actions and the world's, in a fixed order. A world's restore is checked here, once,
 * against the critic's program format: a remote server's spec cannot be, on the floor that reads it.
 */
export function actionLibrary(world: Pick<World, 'restores'> & { readonly name?: string }): LibraryAction[] {
  const declared: LibraryAction[] = (world.restores?.actions ?? []).map((a) => {
    if (NEUTRAL_ACTIONS.some((n) => n.id === a.id))
      throw new WorldRestoreError(world.name ?? '?', a.id, "has the id of one of the critic's own actions");
    const checked = ProgramSchema.safeParse({ ...a.program, id: a.id });
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new WorldRestoreError(world.name ?? '?', a.id, `is not a recovery program: ${issue.path.join('.')}: ${issue.message}`);
    }
    return {
      id: a.id,
      summary: a.summary,
      origin: 'world',
      propose: (recovery) => ({ action: 'recovery', recovery, priority: 3 }),
      program: (recovery) => ({ ...a.program, id: recovery }) as ProgramInput,
    };
  });
  return [...NEUTRAL_ACTIONS, ...declared];
}
