// The outcome of an episode the queue gave up on (it failed on every attempt): an infrastructure
// failure with the job's last error, so it leaves the success denominator and its reason is printed
// with the results, never counted as a task failure.
import type { EpisodeJob } from '../runtime/evaluation-plan.js';
import type { RetriedOutcome } from '../runtime/infra-retry.js';

export function lostEpisode(job: EpisodeJob, reason: string, infraRetries: number): RetriedOutcome {
  return {
    task: job.task,
    seed: job.seed,
    success: false,
    steps: 0,
    milestones: [],
    infraFailure: reason,
    physicsDivergence: false,
    policyActions: 0,
    unmodifiedPolicyActions: 0,
    recoveryActions: 0,
    milestonesDuringRecovery: 0,
    wallMs: 0,
    holdActions: 0,
    policyCalls: 0,
    policyWaitMs: 0,
    lateChunks: 0,
    resetDigest: '',
    recordPath: null,
    recoveries: 0,
    envelopeHits: 0,
    firings: {},
    programStarts: {},
    aborted: false,
    infraRetries,
  };
}
