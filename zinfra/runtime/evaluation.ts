// Evaluation: N episodes per task of a policy in a world, in this thread or on the
// rollout runtime (worker threads with several simulators each, one batched policy server).
// Results come back in plan order whatever the workers do.
import { loadWorld } from '../../sim/worlds.js';
import { openPolicy } from '../policy/open-policy.js';
import type { Policy } from '../policy/policy.js';
import { attribute, type Attribution } from './attribution.js';
import { openSlot, runJob } from './episode-job.js';
import { planJobs, type EpisodeJob, type EvaluationPlan } from './evaluation-plan.js';
import type { RetriedOutcome } from './infra-retry.js';
import { runRollouts, type RolloutStats } from './rollout.js';
import type { EpisodeOutcome } from './run-episode.js';
import { wilson, type Rate } from './success-rate.js';

export { planJobs, recordPathFor, type EpisodeJob, type EvaluationPlan } from './evaluation-plan.js';

export interface EvaluationOptions {
  readonly workers: number;
  /** Simulators stepping concurrently in each worker (their chunk requests are batched together). */
  readonly envsPerWorker?: number;
  /** Host this policy instead of opening plan.policy (benchmarks wrap the policy, e.g. with a delay). */
  readonly hostPolicy?: Policy;
  readonly onEpisode?: (outcome: EpisodeOutcome, done: number, total: number) => void;
  /** Runs the episodes elsewhere (zinfra/queue: worker processes on a Redis job queue) instead of here. */
  readonly executor?: EpisodeExecutor | undefined;
}

/** Runs a plan's episodes and calls `collect` once per job, in any order; the aggregate is evaluate()'s. */
export type EpisodeExecutor = (plan: EvaluationPlan, jobs: readonly EpisodeJob[], collect: (outcome: EpisodeOutcome, job: EpisodeJob) => void) => Promise<void>;

export interface TaskResult extends Rate {
  /** Episodes ended by the infrastructure: not in `episodes`. */
  readonly infraFailures: number;
  /** Episodes run again at the same seed after an infrastructure failure. */
  readonly infraRetries: number;
  /** Episodes the physics diverged in: counted in `episodes` as failures. */
  readonly physicsDivergences: number;
}

export interface EvaluationResult {
  readonly outcomes: EpisodeOutcome[];
  readonly tasks: Record<string, TaskResult>;
  /** Mean over tasks of their success rates. */
  readonly macroSuccess: number;
  /** Who drove the robot, over every executed step (see attribution.ts). */
  readonly attribution: Attribution;
  readonly infraFailures: number;
  /** Re-runs at the same seed after infrastructure failures, over all episodes. */
  readonly infraRetries: number;
  /** Episodes the physics diverged in (task failures). */
  readonly physicsDivergences: number;
  /** Recovery programs the critic started, over all episodes. */
  readonly recoveries: number;
  readonly wallMs: number;
  readonly episodesPerMinute: number;
  /** Observations per policy call (1 without the rollout runtime). */
  readonly meanBatchSize?: number;
  /** On the rollout runtime: the run while every simulator had work (see RolloutStats.saturated). */
  readonly saturated?: RolloutStats['saturated'];
}

export async function evaluate(plan: EvaluationPlan, options: EvaluationOptions): Promise<EvaluationResult> {
  const started = performance.now();
  const jobs = planJobs(plan);
  const outcomes = new Array<EpisodeOutcome>(jobs.length);
  let done = 0;
  const collect = (o: EpisodeOutcome, job: EpisodeJob) => {
    outcomes[job.index] = o;
    options.onEpisode?.(o, ++done, jobs.length);
  };
  const envsPerWorker = options.envsPerWorker ?? 1;
  const workers = Math.max(1, Math.min(options.workers, Math.ceil(jobs.length / envsPerWorker)));
  let rollout: RolloutStats | undefined;
  if (options.executor) await options.executor(plan, jobs, collect);
  else if (workers === 1 && envsPerWorker === 1) await runInThisThread(plan, jobs, collect, options.hostPolicy);
  else rollout = await runRollouts(plan, jobs, { workers, envsPerWorker, ...(options.hostPolicy ? { hostPolicy: options.hostPolicy } : {}) }, collect);
  return { ...summarize(plan, outcomes, performance.now() - started), meanBatchSize: rollout?.meanBatchSize ?? 1, ...(rollout?.saturated ? { saturated: rollout.saturated } : {}) };
}

async function runInThisThread(plan: EvaluationPlan, jobs: EpisodeJob[], collect: (o: EpisodeOutcome, j: EpisodeJob) => void, hosted?: Policy): Promise<void> {
  const world = await loadWorld(plan.world);
  const slot = await openSlot(world, plan);
  const policy = hosted ?? (await openPolicy(plan.policy));
  try {
    for (const job of jobs) collect(await runJob(slot, policy, plan, job), job);
  } finally {
    if (!hosted) await policy.close();
    await slot.env.close();
  }
}

export function summarize(plan: EvaluationPlan, outcomes: EpisodeOutcome[], wallMs: number): EvaluationResult {
  const tasks: Record<string, TaskResult> = {};
  for (const task of plan.tasks) {
    const mine = outcomes.filter((o) => o.task === task);
    const counted = mine.filter((o) => o.infraFailure === null);
    const physicsDivergences = mine.filter((o) => o.physicsDivergence).length;
    const infraRetries = retriesOf(mine);
    tasks[task] = { ...wilson(counted.filter((o) => o.success).length, counted.length), infraFailures: mine.length - counted.length, infraRetries, physicsDivergences };
  }
  const attribution = attribute(outcomes);
  const rates = Object.values(tasks).map((t) => t.rate).filter((r) => Number.isFinite(r));
  return {
    outcomes,
    tasks,
    macroSuccess: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : Number.NaN,
    attribution,
    infraFailures: attribution.infraFailures,
    infraRetries: retriesOf(outcomes),
    physicsDivergences: attribution.physicsDivergences,
    recoveries: attribution.recoveries,
    wallMs,
    episodesPerMinute: outcomes.length / (wallMs / 60_000),
  };
}

function retriesOf(outcomes: readonly EpisodeOutcome[]): number {
  return outcomes.reduce((n, o) => n + ((o as Partial<RetriedOutcome>).infraRetries ?? 0), 0);
}

/** Why episodes were lost to the infrastructure: each distinct reason with its count. */
export function infraFailureReasons(outcomes: readonly EpisodeOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) if (o.infraFailure !== null) counts[o.infraFailure] = (counts[o.infraFailure] ?? 0) + 1;
  return counts;
}
