// Stage of `zetta run`: the frozen embedded base policy on every task, on nominal scenes and under
// the LIBERO-Pro-style perturbations, on the rollout runtime. This is the "before" of the report.
import { join } from 'node:path';
import { listTasks, resolvePerturbation } from '../../sim/index.js';
import { evaluate } from '../../zinfra/runtime/evaluation.js';

export const BASELINE_CONDITIONS = ['nominal', 'position-shift', 'object-change', 'disturbance'] as const;

export interface ConditionResult {
  tasks: Record<string, { success: number; episodes: number; infra_failures: number }>;
  macro_success: number;
  policy_action_share: number;
  infra_failures: number;
  episodes_per_min: number;
}

export interface BaselineStageResult {
  policy: string;
  episodes_per_task: number;
  conditions: Record<string, ConditionResult>;
  ok: boolean;
}

export interface BaselineOptions {
  readonly policy: string;
  readonly episodes: number;
  readonly firstSeed: number;
  readonly workers: number;
  readonly envsPerWorker: number;
  readonly recordDir: string;
  readonly onProgress: (condition: string, done: number, total: number) => void;
}

export async function runBaselineStage(o: BaselineOptions): Promise<BaselineStageResult> {
  const tasks = listTasks().map((t) => t.id);
  const conditions: Record<string, ConditionResult> = {};
  for (const condition of BASELINE_CONDITIONS) {
    const r = await evaluate(
      {
        tasks,
        episodesPerTask: o.episodes,
        firstSeed: o.firstSeed,
        perturbation: condition === 'nominal' ? undefined : resolvePerturbation(condition),
        policy: o.policy,
        executeSteps: 5,
        recordDir: join(o.recordDir, condition),
      },
      { workers: o.workers, envsPerWorker: o.envsPerWorker, onEpisode: (_e, done, total) => o.onProgress(condition, done, total) },
    );
    conditions[condition] = {
      tasks: Object.fromEntries(Object.entries(r.tasks).map(([k, t]) => [k, { success: t.successes, episodes: t.episodes, infra_failures: t.infraFailures }])),
      macro_success: r.macroSuccess,
      policy_action_share: r.policyActionShare,
      infra_failures: r.infraFailures,
      episodes_per_min: r.episodesPerMinute,
    };
  }
  return { policy: o.policy, episodes_per_task: o.episodes, conditions, ok: Object.values(conditions).every((c) => c.infra_failures === 0) };
}
