// What both closed-loop tests (the in-memory graph and the real one over DDS) compare the node
// against: `zetta eval` of the default bundle, in process, on the same task, perturbations and seeds.
import { evaluate, type EvaluationResult } from '../../../measure/evaluation.js';
import { world as tabletop } from '../../../sim/tabletop/tabletop-world.js';
import type { Policy } from '../../../zinfra/policy/policy.js';
import { resolveCriticSpec } from '../../../zinfra/runtime/open-critic.js';

export const TASK = 'spatial/left_cube_in_bowl';
export const PERTURBATIONS = ['position-shift', 'sensor-noise-delay'] as const;
export const EPISODES = 10;
export const FIRST_SEED = 1000;

/** The reference run under `perturbationName`, on the policy the node also asks. */
export function evalReference(perturbationName: string, policy: Policy): Promise<EvaluationResult> {
  return evaluate(
    {
      tasks: [TASK],
      episodesPerTask: EPISODES,
      firstSeed: FIRST_SEED,
      perturbation: tabletop.resolvePerturbation(perturbationName),
      policy: 'embedded',
      executeSteps: 5,
      recordDir: undefined,
      critic: resolveCriticSpec('default'),
    },
    { workers: 1, hostPolicy: policy },
  );
}
