// Running a plan: N episodes per task of a policy in a world, in this thread, on the rollout
// runtime (worker threads with several simulators each, one batched policy server) or through an
// executor (the job queue). Outcomes come back in plan order whatever the workers do; what they
// amount to (rates, intervals, attribution) is measured above (measure/evaluation.ts).
import { loadWorld } from '../../sim/worlds.js';
import { openPolicy } from '../policy/open-policy.js';
import type { Policy } from '../policy/policy.js';
import { openSlot, runJob } from './episode-job.js';
import { planJobs, type EpisodeJob, type EvaluationPlan } from './evaluation-plan.js';
import { runRollouts, type RolloutStats } from './rollout.js';
import type { EpisodeOutcome } from './run-episode.js';

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
export type EpisodeExecutor = (
  plan: EvaluationPlan,
  jobs: readonly EpisodeJob[],
  collect: (outcome: EpisodeOutcome, job: EpisodeJob) => void,
) => Promise<void>;

export interface PlanRun {
  /** In plan order. */
  readonly outcomes: EpisodeOutcome[];
  readonly wallMs: number;
  /** On the rollout runtime; absent when the episodes ran in this thread or through an executor. */
  readonly rollout: RolloutStats | undefined;
}

export async function runPlan(plan: EvaluationPlan, options: EvaluationOptions): Promise<PlanRun> {
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
  else
    rollout = await runRollouts(
      plan,
      jobs,
      { workers, envsPerWorker, ...(options.hostPolicy ? { hostPolicy: options.hostPolicy } : {}) },
      collect,
    );
  return { outcomes, wallMs: performance.now() - started, rollout };
}

async function runInThisThread(
  plan: EvaluationPlan,
  jobs: EpisodeJob[],
  collect: (o: EpisodeOutcome, j: EpisodeJob) => void,
  hosted?: Policy,
): Promise<void> {
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
