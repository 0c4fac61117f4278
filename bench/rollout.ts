// The throughput benchmark: a policy server that takes a fixed time per call for any batch up to 32
// (a stand-in for a VLA on a GPU), driven in the same run by
//   sequential — one simulator, one request at a time;
//   runtime    — the rollout runtime: worker threads with several simulators each, one batching server;
// and the runtime once more with the real ONNX policy and no added latency.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DelayedPolicy } from './delayed-policy.js';
import { OnnxPolicy } from '../zinfra/policy/onnx/onnx-policy.js';
import { evaluate, type EvaluationPlan } from '../measure/evaluation.js';
import { benchPolicyModel } from './demo-mlp.js';
import { benchSim } from './sim.js';

/** The largest batch the runtime's policy server forms (rollout.ts), and so the delayed policy's. */
const MAX_BATCH = 32;

/**
 * Simulators for two full batches across the workers: while one batch is in the policy, the other
 * steps, so the policy finds a full batch waiting each time it frees. With 1.5 batches (2 × 24) it
 * waits instead for the simulators it has just answered to step.
 */
export function defaultEnvsPerWorker(workers: number): number {
  return Math.ceil((2 * MAX_BATCH) / workers);
}

export interface RolloutBenchOptions {
  readonly latencyMs: number;
  readonly tasks: readonly string[];
  readonly sequentialEpisodes: number;
  readonly runtimeEpisodes: number;
  readonly workers: number;
  readonly envsPerWorker: number;
  /** Actions executed from each chunk before the policy is asked again (LIBERO's client: 5). */
  readonly executeSteps: number;
  readonly onProgress?: (phase: string, done: number, total: number) => void;
}

export interface RolloutBenchResult {
  policy: string;
  policy_latency_ms: number;
  workers: number;
  envs_per_worker: number;
  execute_steps: number;
  sequential_episodes: number;
  sequential_episodes_per_min: number;
  runtime_episodes: number;
  runtime_episodes_per_min: number;
  ratio: number;
  mean_batch_size: number;
  onnx_runtime_episodes_per_min: number;
  onnx_mean_batch_size: number;
  /** Executed actions per second (episodes/min moves with episode length; this does not). */
  sequential_actions_per_s: number;
  runtime_actions_per_s: number;
  /** runtime / sequential, in actions per second. */
  actions_ratio: number;
  /** What the delayed policy allows: max batch / latency. */
  policy_limit_actions_per_s: number;
  /** What the physics allows: `bench sim` actions/s on one core × the cores the workers can use. */
  physics_limit_actions_per_s: number;
  /** The runtime's actions/s over the lower of the two limits. */
  fraction_of_limit: number;
  /**
   * The same while every simulator had an episode to run (until the last job was handed out),
   * counting k actions per answered request; the tail after it, with fewer and fewer simulators
   * busy, is left out.
   */
  saturated_actions_per_s: number | null;
  saturated_fraction_of_limit: number | null;
  /** Policy calls of the runtime arm's longest episode: each waits for the one before it. */
  longest_episode_calls: number;
  /**
   * The shortest wall time any runtime could take for this workload: its actions at the lower
   * limit, or its longest episode's calls one after another at the policy's latency, whichever is
   * longer. An episode that runs to its step limit alone at the end caps the whole run's rate.
   */
  workload_bound_s: number;
  /** workload_bound_s over the runtime's wall time. */
  fraction_of_workload_bound: number;
}

export async function benchRollout(options: RolloutBenchOptions): Promise<RolloutBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-rollout-bench-'));
  try {
    const { path, label } = benchPolicyModel(dir);
    const plan = (episodes: number): EvaluationPlan => ({
      tasks: options.tasks,
      episodesPerTask: Math.max(1, Math.round(episodes / options.tasks.length)),
      firstSeed: 1000,
      policy: `onnx:${path}`,
      executeSteps: options.executeSteps,
    });
    const delayed = new DelayedPolicy(await OnnxPolicy.load(path), options.latencyMs);
    const progressOf = (phase: string) => (_o: unknown, done: number, total: number) => options.onProgress?.(phase, done, total);
    const sequential = await evaluate(plan(options.sequentialEpisodes), {
      workers: 1,
      hostPolicy: delayed,
      onEpisode: progressOf('sequential'),
    });
    const pool = { workers: options.workers, envsPerWorker: options.envsPerWorker };
    const runtime = await evaluate(plan(options.runtimeEpisodes), { ...pool, hostPolicy: delayed, onEpisode: progressOf('runtime') });
    const onnx = await evaluate(plan(options.runtimeEpisodes), { ...pool, onEpisode: progressOf('runtime, onnx') });
    await delayed.close();
    const sim = await benchSim({ actions: 1500, warmup: 200, onProgress: (d, t) => options.onProgress?.('physics limit', d, t) });
    const actionsPerS = (r: { attribution: { executedSteps: number }; wallMs: number }) => r.attribution.executedSteps / (r.wallMs / 1000);
    const policyLimit = MAX_BATCH / (options.latencyMs / 1000);
    const physicsLimit = sim.actions_per_s * Math.min(options.workers, availableParallelism());
    const runtimeActions = actionsPerS(runtime);
    const lowerLimit = Math.min(policyLimit, physicsLimit);
    const longestCalls = Math.max(...runtime.outcomes.map((o) => o.policyCalls));
    const workloadBoundS = Math.max(runtime.attribution.executedSteps / lowerLimit, (longestCalls * options.latencyMs) / 1000);
    const saturated = runtime.saturated ? (runtime.saturated.requests * options.executeSteps) / (runtime.saturated.ms / 1000) : null;
    return {
      policy: label,
      policy_latency_ms: options.latencyMs,
      workers: options.workers,
      envs_per_worker: options.envsPerWorker,
      execute_steps: options.executeSteps,
      sequential_episodes: sequential.outcomes.length,
      sequential_episodes_per_min: sequential.episodesPerMinute,
      runtime_episodes: runtime.outcomes.length,
      runtime_episodes_per_min: runtime.episodesPerMinute,
      ratio: runtime.episodesPerMinute / sequential.episodesPerMinute,
      mean_batch_size: runtime.meanBatchSize ?? 1,
      onnx_runtime_episodes_per_min: onnx.episodesPerMinute,
      onnx_mean_batch_size: onnx.meanBatchSize ?? 1,
      sequential_actions_per_s: actionsPerS(sequential),
      runtime_actions_per_s: runtimeActions,
      actions_ratio: runtimeActions / actionsPerS(sequential),
      policy_limit_actions_per_s: policyLimit,
      physics_limit_actions_per_s: physicsLimit,
      fraction_of_limit: runtimeActions / lowerLimit,
      saturated_actions_per_s: saturated,
      saturated_fraction_of_limit: saturated === null ? null : saturated / lowerLimit,
      longest_episode_calls: longestCalls,
      workload_bound_s: workloadBoundS,
      fraction_of_workload_bound: workloadBoundS / (runtime.wallMs / 1000),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
