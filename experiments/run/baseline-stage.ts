// Stages of the run experiment (`zetta run`): the frozen embedded base policy on every task, on
// nominal scenes and under the LIBERO-Pro-style perturbations, on the rollout runtime — alone (the
// "before" of the report), then governed by the default runtime critic.
import { join } from 'node:path';
import { listTasks, resolvePerturbation } from '../../sim/tabletop/index.js';
import { evaluate, infraFailureReasons, type EpisodeExecutor } from '../../measure/evaluation.js';
import { resolveCriticSpec } from '../../zinfra/runtime/open-critic.js';

export const BASELINE_CONDITIONS = ['nominal', 'position-shift', 'object-change', 'disturbance', 'sensor-noise-delay'] as const;

export const PERTURBED_CONDITIONS = BASELINE_CONDITIONS.filter((c) => c !== 'nominal');

export interface ConditionResult {
  tasks: Record<string, { success: number; episodes: number; infra_failures: number }>;
  macro_success: number;
  /** Executed steps that are the policy's unmodified actions, over every executed step. */
  unmodified_policy_share: number;
  unmodified_policy_share_in_successes: number;
  successes_without_recovery: number;
  physics_divergences: number;
  infra_failures: number;
  /** Why episodes were lost to the infrastructure, with counts. */
  infra_reasons: Record<string, number>;
  /** Episodes run again at the same seed after an infrastructure failure. */
  infra_retries: number;
  episodes_per_min: number;
  recoveries: number;
}

export interface BaselineStageResult {
  policy: string;
  critic: string;
  episodes_per_task: number;
  conditions: Record<string, ConditionResult>;
  /** What made the stage fail, with its figures (empty when ok). */
  problems: string[];
  ok: boolean;
}

/** What every evaluation stage of `zetta run` runs with: the policy, the seeds, the rollout pool. */
export interface StageOptions {
  readonly policy: string;
  /** none, default, or a bundle path. */
  readonly critic: string;
  readonly conditions: readonly string[];
  readonly episodes: number;
  readonly firstSeed: number;
  readonly workers: number;
  readonly envsPerWorker: number;
  readonly recordDir: string;
  readonly onProgress: (condition: string, done: number, total: number) => void;
  /** Runs the episodes elsewhere (`--queue`: worker processes on a Redis job queue). */
  readonly executor?: EpisodeExecutor | undefined;
}

export async function runBaselineStage(o: StageOptions): Promise<BaselineStageResult> {
  const tasks = listTasks().map((t) => t.id);
  const conditions: Record<string, ConditionResult> = {};
  for (const condition of o.conditions) {
    const r = await evaluate(
      {
        tasks,
        episodesPerTask: o.episodes,
        firstSeed: o.firstSeed,
        perturbation: condition === 'nominal' ? undefined : resolvePerturbation(condition),
        policy: o.policy,
        executeSteps: 5,
        critic: resolveCriticSpec(o.critic),
        recordDir: join(o.recordDir, condition),
      },
      {
        workers: o.workers,
        envsPerWorker: o.envsPerWorker,
        executor: o.executor,
        onEpisode: (_e, done, total) => o.onProgress(condition, done, total),
      },
    );
    conditions[condition] = {
      tasks: Object.fromEntries(
        Object.entries(r.tasks).map(([k, t]) => [k, { success: t.successes, episodes: t.episodes, infra_failures: t.infraFailures }]),
      ),
      macro_success: r.macroSuccess,
      unmodified_policy_share: r.attribution.unmodifiedPolicyShare,
      unmodified_policy_share_in_successes: r.attribution.unmodifiedPolicyShareInSuccesses,
      successes_without_recovery: r.attribution.successesWithoutRecovery,
      physics_divergences: r.physicsDivergences,
      infra_failures: r.infraFailures,
      infra_reasons: infraFailureReasons(r.outcomes),
      infra_retries: r.infraRetries,
      episodes_per_min: r.episodesPerMinute,
      recoveries: r.recoveries ?? 0,
    };
  }
  const problems = Object.entries(conditions).flatMap(([name, c]) => infraProblems(name, c.infra_failures, c.infra_reasons));
  return { policy: o.policy, critic: o.critic, episodes_per_task: o.episodes, conditions, problems, ok: problems.length === 0 };
}

/** "position-shift: 3 episodes lost to the infrastructure after re-runs (PolicyUnavailable: … ×3)". */
export function infraProblems(condition: string, failures: number, reasons: Record<string, number>): string[] {
  if (failures === 0) return [];
  const why = Object.entries(reasons)
    .map(([reason, n]) => `${reason} ×${n}`)
    .join('; ');
  return [
    `${condition}: ${failures} episode${failures === 1 ? '' : 's'} lost to the infrastructure after re-runs at the same seed (${why})`,
  ];
}
