// Everything about an episode that is decided before the first physics step, as plain data:
// the scene and every sampled perturbation value. (task, seed, perturbation) → the same plan.
import type { Vec3 } from '../math/quat.js';
import { sampleObjectParams, sampleRuntime, type SampledPerturbation } from '../perturbation/sample.js';
import type { Perturbation } from '../perturbation/schema.js';
import type { SceneSpec } from './scene/spec.js';
import type { TaskDef } from './tasks/types.js';
import { distractorSpecs, fixtureSpecs, movableSpecs, sampleLayout } from './layout.js';

/** Where the grip point starts: above the near edge of the workspace, fingers down. */
export const HOME: Vec3 = [-0.12, 0, 0.2];

export interface EpisodePlan {
  readonly task: TaskDef;
  readonly seed: number;
  readonly scene: SceneSpec;
  readonly sampled: SampledPerturbation;
  readonly swapped: readonly [string, string] | null;
}

export function planEpisode(task: TaskDef, seed: number, p: Perturbation): EpisodePlan {
  const objects = sampleObjectParams(
    p,
    task.id,
    seed,
    task.movables.map((m) => m.name),
  );
  const layout = sampleLayout(task, seed, p, objects);
  const movables = movableSpecs(task, layout, objects);
  const fixtures = fixtureSpecs(task, layout);
  const distractors = distractorSpecs(task, seed, p.distractors ?? 0, movables, fixtures);
  const runtime = sampleRuntime(p, task.id, seed);
  const o = runtime.robotOffset;
  const gripper = { pos: [HOME[0] + o[0], HOME[1] + o[1], HOME[2] + o[2]] as Vec3, yaw: 0 };
  return {
    task,
    seed,
    scene: { movables: [...movables, ...distractors], fixtures, gripper },
    sampled: { objects, ...runtime },
    swapped: layout.swapped,
  };
}
