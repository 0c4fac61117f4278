// Evaluation: N episodes per task of a policy on the embedded suite, in this thread or spread over
// worker threads (each with its own simulator and policy connection), handed out one episode at a
// time so a slow task never idles a worker. Results come back in plan order whatever the workers do.
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { createEnv } from '../../sim/index.js';
import type { Perturbation } from '../../sim/perturbation/schema.js';
import { openPolicy } from '../policy/open-policy.js';
import { runEpisode, type EpisodeOutcome } from './run-episode.js';
import { wilson, type Rate } from './success-rate.js';

export interface EvaluationPlan {
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
}

export interface EvaluationOptions {
  readonly workers: number;
  readonly onEpisode?: (outcome: EpisodeOutcome, done: number, total: number) => void;
}

export interface TaskResult extends Rate {
  readonly infraFailures: number;
}

export interface EvaluationResult {
  readonly outcomes: EpisodeOutcome[];
  readonly tasks: Record<string, TaskResult>;
  /** Mean over tasks of their success rates. */
  readonly macroSuccess: number;
  /** Executed actions that came from the policy rather than a recovery. */
  readonly policyActionShare: number;
  readonly infraFailures: number;
  readonly wallMs: number;
  readonly episodesPerMinute: number;
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

export async function evaluate(plan: EvaluationPlan, options: EvaluationOptions): Promise<EvaluationResult> {
  const started = performance.now();
  const jobs = planJobs(plan);
  const outcomes = new Array<EpisodeOutcome>(jobs.length);
  let done = 0;
  const collect = (o: EpisodeOutcome, job: EpisodeJob) => {
    outcomes[job.index] = o;
    options.onEpisode?.(o, ++done, jobs.length);
  };
  const workers = Math.max(1, Math.min(options.workers, jobs.length));
  if (workers === 1) await runInThisThread(plan, jobs, collect);
  else await runOnWorkers(plan, jobs, workers, collect);
  return summarize(plan, outcomes, performance.now() - started);
}

async function runInThisThread(plan: EvaluationPlan, jobs: EpisodeJob[], collect: (o: EpisodeOutcome, j: EpisodeJob) => void): Promise<void> {
  const env = await createEnv();
  const policy = await openPolicy(plan.policy);
  try {
    for (const job of jobs) {
      const outcome = await runEpisode(env, policy, { task: job.task, seed: job.seed, perturbation: plan.perturbation }, {
        executeSteps: plan.executeSteps,
        recordPath: recordPathFor(plan, job),
        policyLabel: plan.policy,
      });
      collect(outcome, job);
    }
  } finally {
    await policy.close();
    await env.close();
  }
}

/** The worker script only exists compiled; from TypeScript sources (the tests) use one worker. */
const WORKER_URL = new URL('./evaluation-worker.js', import.meta.url);

async function runOnWorkers(plan: EvaluationPlan, jobs: EpisodeJob[], count: number, collect: (o: EpisodeOutcome, j: EpisodeJob) => void): Promise<void> {
  if (import.meta.url.endsWith('.ts')) throw new Error('evaluation workers need the built package (npm run build); use workers: 1 from sources');
  let next = 0;
  const runWorker = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(WORKER_URL, { workerData: plan });
      let current: EpisodeJob | undefined;
      let finished = false;
      const handOut = () => {
        current = jobs[next++];
        if (current) return worker.postMessage(current);
        finished = true;
        void worker.terminate().then(() => resolve());
      };
      // The first message says the worker's env and policy are ready; each later one carries an outcome.
      worker.on('message', (m: { outcome?: EpisodeOutcome }) => {
        if (m.outcome && current) collect(m.outcome, current);
        handOut();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => {
        if (!finished) reject(new Error(`evaluation worker exited (code ${code})${current ? ` during ${current.task}#${current.seed}` : ''}`));
      });
    });
  await Promise.all(Array.from({ length: count }, runWorker));
}

export function summarize(plan: EvaluationPlan, outcomes: EpisodeOutcome[], wallMs: number): EvaluationResult {
  const tasks: Record<string, TaskResult> = {};
  let policyActions = 0;
  let allActions = 0;
  let infra = 0;
  for (const task of plan.tasks) {
    const mine = outcomes.filter((o) => o.task === task);
    const counted = mine.filter((o) => o.infraFailure === null);
    const infraFailures = mine.length - counted.length;
    infra += infraFailures;
    tasks[task] = { ...wilson(counted.filter((o) => o.success).length, counted.length), infraFailures };
  }
  for (const o of outcomes) {
    policyActions += o.policyActions;
    allActions += o.policyActions + o.recoveryActions;
  }
  const rates = Object.values(tasks).map((t) => t.rate).filter((r) => Number.isFinite(r));
  return {
    outcomes,
    tasks,
    macroSuccess: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : Number.NaN,
    policyActionShare: allActions ? policyActions / allActions : Number.NaN,
    infraFailures: infra,
    wallMs,
    episodesPerMinute: outcomes.length / (wallMs / 60_000),
  };
}
