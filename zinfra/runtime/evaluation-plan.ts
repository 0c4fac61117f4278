// What an evaluation runs: tasks × seeds of one policy in one world, with or without a critic. Plain
// data, so the rollout runtime can hand it to its worker threads.
import { join } from 'node:path';
import type { Perturbation } from '../../sim/perturbation/schema.js';
import type { WorldRef } from '../../sim/worlds.js';
import type { CriticPlan } from './open-critic.js';

export interface EvaluationPlan {
  /** The world the episodes run in (default: the embedded tabletop). */
  readonly world?: WorldRef | undefined;
  readonly tasks: readonly string[];
  readonly episodesPerTask: number;
  /** Episode i of every task uses seed firstSeed + i. */
  readonly firstSeed: number;
  readonly perturbation?: Perturbation | undefined;
  /** A `--policy` spec (see openPolicy), opened once per worker. */
  readonly policy: string;
  readonly executeSteps: number;
  /** MCAP files go to recordDir/<task>/<seed>.mcap; nothing is recorded without it. */
  readonly recordDir?: string | undefined;
  /** The runtime critic's bundle (each worker loads it from the path); none without it. */
  readonly critic?: CriticPlan | undefined;
  /** Re-runs at the same seed of an episode the infrastructure ended (default 2, see infra-retry.ts). */
  readonly infraRetries?: number | undefined;
}

export interface EpisodeJob {
  readonly index: number;
  readonly task: string;
  readonly seed: number;
}

export function planJobs(plan: EvaluationPlan): EpisodeJob[] {
  const jobs: EpisodeJob[] = [];
  for (const task of plan.tasks) {
    for (let i = 0; i < plan.episodesPerTask; i++) jobs.push({ index: jobs.length, task, seed: plan.firstSeed + i });
  }
  return jobs;
}

export function recordPathFor(plan: EvaluationPlan, job: EpisodeJob): string | undefined {
  return plan.recordDir ? join(plan.recordDir, job.task.replace('/', '__'), `${job.seed}.mcap`) : undefined;
}
