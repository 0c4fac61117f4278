// The governance arms as the runtime tests run them: the frozen embedded policy, seeds from 1000
// (scenes it never trained on), LIBERO-style execution (5 actions of each chunk).
import { resolvePerturbation } from '../../sim/tabletop/index.js';
import type { ArmsPlan } from '../../measure/governance-arms.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';

export interface EmbeddedArms {
  /** A bundle: `default`, `oracle`, or a directory. */
  readonly critic: string;
  /** A shipped perturbation's name, or `nominal` for none. */
  readonly perturbation: string;
  readonly tasks: readonly string[];
  readonly episodesPerTask: number;
  /** The run authorizes privileged features (the oracle bundle needs it). */
  readonly privileged?: boolean;
}

export function embeddedArmsPlan(a: EmbeddedArms): ArmsPlan {
  return {
    tasks: a.tasks,
    episodesPerTask: a.episodesPerTask,
    firstSeed: 1000,
    perturbation: a.perturbation === 'nominal' ? undefined : resolvePerturbation(a.perturbation),
    policy: 'embedded',
    executeSteps: 5,
    critic: resolveCriticSpec(a.critic, a.privileged ?? false)!,
  };
}
