// Who made a set of episodes succeed: the honest share of executed steps that are the policy's own
// unmodified actions (every executed step is in the denominator, whatever ended the episode),
// the same share over successful episodes only, successes with no recovery at all, and task
// milestones first reached while a recovery program drove the robot.
import type { EpisodeSummary } from '../zinfra/recording/episode-record.js';

type Counted = Pick<
  EpisodeSummary,
  'success' | 'steps' | 'unmodifiedPolicyActions' | 'milestonesDuringRecovery' | 'physicsDivergence' | 'infraFailure'
> & {
  readonly recoveries: number;
};

export interface Attribution {
  readonly episodes: number;
  readonly successes: number;
  /** Every step executed, in every episode (infrastructure failures included). */
  readonly executedSteps: number;
  readonly unmodifiedPolicyActions: number;
  /** unmodifiedPolicyActions / executedSteps (NaN without steps). */
  readonly unmodifiedPolicyShare: number;
  /** Executed steps of the successful episodes. */
  readonly successSteps: number;
  readonly successUnmodifiedPolicyActions: number;
  /** successUnmodifiedPolicyActions / successSteps (NaN without a success). */
  readonly unmodifiedPolicyShareInSuccesses: number;
  /** Successes in which the critic started no recovery program. */
  readonly successesWithoutRecovery: number;
  /** Recovery programs started. */
  readonly recoveries: number;
  /** Task milestones first reached on a step a recovery program wrote. */
  readonly milestonesDuringRecovery: number;
  /** Episodes the physics diverged in (task failures). */
  readonly physicsDivergences: number;
  /** Episodes ended by the infrastructure (left out of success rates). */
  readonly infraFailures: number;
}

export function attribute(outcomes: readonly Counted[]): Attribution {
  let successes = 0,
    executedSteps = 0,
    unmodified = 0,
    successSteps = 0,
    successUnmodified = 0;
  let clean = 0,
    recoveries = 0,
    milestones = 0,
    physics = 0,
    infra = 0;
  for (const o of outcomes) {
    executedSteps += o.steps;
    unmodified += o.unmodifiedPolicyActions;
    recoveries += o.recoveries;
    milestones += o.milestonesDuringRecovery;
    if (o.physicsDivergence) physics++;
    if (o.infraFailure !== null) infra++;
    if (!o.success) continue;
    successes++;
    successSteps += o.steps;
    successUnmodified += o.unmodifiedPolicyActions;
    if (o.recoveries === 0) clean++;
  }
  return {
    episodes: outcomes.length,
    successes,
    executedSteps,
    unmodifiedPolicyActions: unmodified,
    unmodifiedPolicyShare: executedSteps ? unmodified / executedSteps : Number.NaN,
    successSteps,
    successUnmodifiedPolicyActions: successUnmodified,
    unmodifiedPolicyShareInSuccesses: successSteps ? successUnmodified / successSteps : Number.NaN,
    successesWithoutRecovery: clean,
    recoveries,
    milestonesDuringRecovery: milestones,
    physicsDivergences: physics,
    infraFailures: infra,
  };
}
