// The rollout runtime: many episodes at once. A pool of worker threads, each running several
// simulators concurrently, takes episodes from a dispatcher one at a time; every simulator's chunk
// requests go to one policy server whose scheduler batches them together, so a GPU-sized policy
// call serves many robots at once. Episodes go out longest expected first (job-order.ts); outcomes
// are collected by plan index.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PolicyServer, openPolicy } from '../policy/open-policy.js';
import type { Policy } from '../policy/policy.js';
import type { EpisodeJob, EvaluationPlan } from './evaluation-plan.js';
import { LongestFirstJobs } from './job-order.js';
import type { EpisodeOutcome } from './run-episode.js';

export interface RolloutOptions {
  readonly workers: number;
  readonly envsPerWorker: number;
  /** Largest batch the hosted policy server forms. */
  readonly maxBatch?: number;
  /** How long a partial batch waits for company. */
  readonly maxWaitMs?: number;
  /** Host this policy instead of opening plan.policy (e.g. a DelayedPolicy in the benchmarks). */
  readonly hostPolicy?: Policy;
}

export interface RolloutStats {
  readonly batches: number;
  readonly meanBatchSize: number;
  /**
   * The run while every simulator had an episode to run, up to the moment the last job was handed
   * out: how long it took and how many policy requests the hosted server answered in it. After
   * that moment fewer and fewer simulators are busy (the tail), whatever the runtime does.
   */
  readonly saturated?: { readonly ms: number; readonly requests: number };
}

/** Messages between the dispatcher and a worker. */
export type ToWorker = { job: EpisodeJob; slot: number } | { shutdown: true };
export type FromWorker = { want: number } | { outcome: EpisodeOutcome; slot: number; index: number };

const WORKER_URL = new URL('./rollout-worker.js', import.meta.url);
/** Policies a worker can open itself; anything local is hosted here so its calls can be batched. */
const REMOTE = /^(zmq|tcp|ipc|openpi-wss?):/;

export async function runRollouts(
  plan: EvaluationPlan,
  jobs: readonly EpisodeJob[],
  options: RolloutOptions,
  collect: (outcome: EpisodeOutcome, job: EpisodeJob) => void,
): Promise<RolloutStats> {
  if (import.meta.url.endsWith('.ts'))
    throw new Error('rollout workers need the built package (npm run build); use one worker and one env from sources');
  const dir = mkdtempSync(join(tmpdir(), 'zetta-rollout-'));
  const hosted = options.hostPolicy ?? (REMOTE.test(plan.policy) ? undefined : await openPolicy(plan.policy));
  const server = hosted
    ? await PolicyServer.start(hosted, {
        bind: `ipc://${join(dir, 'policy.sock')}`,
        maxBatch: options.maxBatch ?? 32,
        maxWaitMs: options.maxWaitMs ?? 2,
      })
    : undefined;
  const workerPlan: EvaluationPlan = { ...plan, policy: server?.endpoint ?? plan.policy };
  const order = new LongestFirstJobs(jobs);
  const started = performance.now();
  let saturated: RolloutStats['saturated'];
  const nextJob = () => {
    const job = order.next();
    if (!job && !saturated && server) saturated = { ms: performance.now() - started, requests: server.scheduler.stats.batchedRequests };
    return job;
  };
  try {
    await Promise.all(
      Array.from({ length: options.workers }, () =>
        runWorker(workerPlan, options.envsPerWorker, nextJob, (outcome) => {
          const job = jobs[outcome.index]!;
          order.finished(job, outcome.steps);
          collect(outcome, job);
        }),
      ),
    );
    const s = server?.scheduler.stats;
    return {
      batches: s?.batches ?? 0,
      meanBatchSize: s?.batches ? s.batchedRequests / s.batches : Number.NaN,
      ...(saturated ? { saturated } : {}),
    };
  } finally {
    await server?.close();
    if (hosted && !options.hostPolicy) await hosted.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runWorker(
  plan: EvaluationPlan,
  envs: number,
  nextJob: () => EpisodeJob | undefined,
  collect: (o: EpisodeOutcome & { index: number }) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: { plan, envs } });
    let active = envs;
    let finished = false;
    worker.on('message', (m: FromWorker) => {
      if ('outcome' in m) collect({ ...m.outcome, index: m.index });
      const slot = 'want' in m ? m.want : m.slot;
      const job = nextJob();
      if (job) return worker.postMessage({ job, slot } satisfies ToWorker);
      // No more work for this slot. When every slot is idle the worker closes its sockets and exits by
      // itself: terminating a thread with live ZeroMQ sockets aborts the process.
      if (--active === 0) {
        finished = true;
        worker.postMessage({ shutdown: true } satisfies ToWorker);
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (finished && code === 0) resolve();
      else reject(new Error(`rollout worker exited (code ${code}) before its episodes were done`));
    });
  });
}
