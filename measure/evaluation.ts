// Evaluation, measured: a plan's episodes run by the runtime (zinfra/runtime/run-plan.ts), then per
// task the success rate with its Wilson interval, the macro rate, who drove the robot
// (attribution.ts) and what the infrastructure cost.
import { runPlan, type EvaluationOptions } from '../zinfra/runtime/run-plan.js';
import type { EvaluationPlan } from '../zinfra/runtime/evaluation-plan.js';
import type { RetriedOutcome } from '../zinfra/runtime/infra-retry.js';
import type { RolloutStats } from '../zinfra/runtime/rollout.js';
import type { EpisodeOutcome } from '../zinfra/runtime/run-episode.js';
import { attribute, type Attribution } from './attribution.js';
import { wilson, type Rate } from './success-rate.js';

export type { EpisodeExecutor, EvaluationOptions } from '../zinfra/runtime/run-plan.js';
export { planJobs, recordPathFor, type EpisodeJob, type EvaluationPlan } from '../zinfra/runtime/evaluation-plan.js';

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
  const run = await runPlan(plan, options);
  return {
    ...summarize(plan, run.outcomes, run.wallMs),
    meanBatchSize: run.rollout?.meanBatchSize ?? 1,
    ...(run.rollout?.saturated ? { saturated: run.rollout.saturated } : {}),
  };
}

export function summarize(plan: EvaluationPlan, outcomes: EpisodeOutcome[], wallMs: number): EvaluationResult {
  const tasks: Record<string, TaskResult> = {};
  for (const task of plan.tasks) {
    const mine = outcomes.filter((o) => o.task === task);
    const counted = mine.filter((o) => o.infraFailure === null);
    const physicsDivergences = mine.filter((o) => o.physicsDivergence).length;
    const infraRetries = retriesOf(mine);
    tasks[task] = {
      ...wilson(counted.filter((o) => o.success).length, counted.length),
      infraFailures: mine.length - counted.length,
      infraRetries,
      physicsDivergences,
    };
  }
  const attribution = attribute(outcomes);
  const rates = Object.values(tasks)
    .map((t) => t.rate)
    .filter((r) => Number.isFinite(r));
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
