// The three arms of a governance result, at the same seeds: the plan's policy alone (no critic),
// the critic alone (every trivial control under the same bundle; per task the best of them counts)
// and policy + critic. The headline is synergy = both − max(policy alone, critic alone), per task
// and as a mean over tasks, with paired bootstrap intervals (paired-bootstrap.ts). A critic whose
// recoveries solve tasks for a policy that does nothing shows up here as a strong critic-alone arm
// and no synergy, however well "both" does.
import { join } from 'node:path';
import { bundleHash as bundleFilesHash } from '../critic/index.js';
import { TRIVIAL_POLICY_SPECS } from '../zinfra/policy/open-policy.js';
import { attribute, type Attribution } from './attribution.js';
import { evaluate, infraFailureReasons, type EvaluationOptions, type EvaluationPlan, type EvaluationResult } from './evaluation.js';
import type { CriticPlan } from '../zinfra/runtime/open-critic.js';
import {
  DEFAULT_BOOTSTRAP_SEED,
  DEFAULT_RESAMPLES,
  pairedSynergy,
  type Estimate,
  type MacroSynergy,
  type SeedOutcomes,
  type TaskSamples,
} from './paired-bootstrap.js';
import type { EpisodeOutcome } from '../zinfra/runtime/run-episode.js';

export type ArmsPlan = EvaluationPlan & {
  readonly critic: CriticPlan;
  /** Record the trivial controls' episodes too (default true; they are long and all alike). */
  readonly recordControls?: boolean;
};

/** One evaluation of the arms: the policy alone, one control under the critic, or both. */
export interface ArmRun {
  readonly arm: 'policy' | 'critic' | 'both';
  readonly policy: string;
  readonly critic: boolean;
}

export interface ArmsOptions extends Pick<EvaluationOptions, 'workers' | 'envsPerWorker' | 'executor'> {
  /** The trivial policies of the critic-alone arm (default TRIVIAL_POLICY_SPECS). */
  readonly controls?: readonly string[];
  readonly resamples?: number;
  readonly bootstrapSeed?: number;
  readonly onArmStart?: (run: ArmRun, index: number, total: number) => void;
  readonly onArmDone?: (run: ArmRun, result: EvaluationResult) => void;
  readonly onEpisode?: (run: ArmRun, outcome: EpisodeOutcome, done: number, total: number) => void;
}

export interface ArmTask {
  readonly successes: number;
  readonly episodes: number;
  readonly rate: number;
  readonly infraFailures: number;
  readonly physicsDivergences: number;
}

export interface ArmReport {
  /** The policy spec; for the critic-alone arm "best of …" (each task's winner is in `perTask`). */
  readonly policy: string;
  readonly critic: boolean;
  readonly tasks: Record<string, ArmTask>;
  /** Mean over tasks of their success rates. */
  readonly macroSuccess: number;
  readonly attribution: Attribution;
  /** Why episodes were lost to the infrastructure, with counts (empty when none were). */
  readonly infraReasons: Record<string, number>;
  /** Episodes run again at the same seed after an infrastructure failure. */
  readonly infraRetries: number;
  readonly wallMs: number;
}

export interface TaskArms {
  readonly policy: Estimate;
  readonly critic: Estimate & { readonly control: string };
  readonly both: Estimate;
  readonly synergy: Estimate;
  /** Each control's rate on this task over all seeds. */
  readonly controls: Record<string, number>;
}

export interface GovernanceArms {
  readonly tasks: readonly string[];
  readonly seeds: readonly number[];
  readonly perturbation: string;
  readonly policy: string;
  /** The critic bundle's manifest path, and its content hash (the same in every arm). */
  readonly critic: string;
  readonly criticHash: string;
  readonly arms: { readonly policy: ArmReport; readonly critic: ArmReport; readonly both: ArmReport };
  /** Every control as it ran, under the critic. */
  readonly controls: Record<string, ArmReport>;
  readonly perTask: Record<string, TaskArms>;
  readonly macro: MacroSynergy;
  readonly bootstrap: { readonly resamples: number; readonly seed: number; readonly confidence: number };
}

export function armRuns(plan: ArmsPlan, controls: readonly string[] = TRIVIAL_POLICY_SPECS): ArmRun[] {
  return [
    { arm: 'policy', policy: plan.policy, critic: false },
    ...controls.map((policy) => ({ arm: 'critic' as const, policy, critic: true })),
    { arm: 'both', policy: plan.policy, critic: true },
  ];
}

export async function runGovernanceArms(plan: ArmsPlan, options: ArmsOptions): Promise<GovernanceArms> {
  const controls = options.controls ?? TRIVIAL_POLICY_SPECS;
  if (controls.length === 0) throw new RangeError('the critic-alone arm needs at least one control');
  const runs = armRuns(plan, controls);
  const results: EvaluationResult[] = [];
  const hash = bundleHash(plan.critic);
  for (const [i, run] of runs.entries()) {
    options.onArmStart?.(run, i, runs.length);
    const r = await evaluate(armPlan(plan, run), {
      workers: options.workers,
      ...(options.envsPerWorker ? { envsPerWorker: options.envsPerWorker } : {}),
      executor: options.executor,
      onEpisode: (o, done, total) => options.onEpisode?.(run, o, done, total),
    });
    // Arms compared against a bundle that changed under them would measure nothing.
    if (bundleHash(plan.critic) !== hash)
      throw new Error(`the critic bundle ${plan.critic.bundle} changed while the arms ran; run them again`);
    options.onArmDone?.(run, r);
    results.push(r);
  }
  return combineArms(plan, controls, results, { ...options, criticHash: hash });
}

function bundleHash(plan: CriticPlan): string {
  return bundleFilesHash(plan.bundle);
}

/**
 * The arms' results → rates, synergy and intervals. `results` holds the policy alone, then each
 * control in order, then both (as runGovernanceArms produces them); exported for reports that
 * already have the evaluations.
 */
export function combineArms(
  plan: ArmsPlan,
  controls: readonly string[],
  results: readonly EvaluationResult[],
  options: Pick<ArmsOptions, 'resamples' | 'bootstrapSeed'> & { readonly criticHash?: string } = {},
): GovernanceArms {
  if (results.length !== controls.length + 2) throw new RangeError(`expected ${controls.length + 2} evaluations, got ${results.length}`);
  const policyAlone = results[0]!;
  const both = results[results.length - 1]!;
  const controlResults = results.slice(1, -1);
  const seeds = Array.from({ length: plan.episodesPerTask }, (_, i) => plan.firstSeed + i);
  const samples: TaskSamples[] = plan.tasks.map((task) => ({
    policy: seedOutcomes(policyAlone.outcomes, task, seeds),
    controls: controlResults.map((r) => seedOutcomes(r.outcomes, task, seeds)),
    both: seedOutcomes(both.outcomes, task, seeds),
  }));
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.bootstrapSeed ?? DEFAULT_BOOTSTRAP_SEED;
  const estimate = pairedSynergy(samples, { resamples, seed });
  const perTask: Record<string, TaskArms> = {};
  const winners: EvaluationResult[] = [];
  plan.tasks.forEach((task, i) => {
    const t = estimate.tasks[i]!;
    winners.push(controlResults[t.control]!);
    perTask[task] = {
      policy: t.policy,
      critic: { ...t.critic, control: controls[t.control]! },
      both: t.both,
      synergy: t.synergy,
      controls: Object.fromEntries(controls.map((c, j) => [c, t.controlRates[j]!])),
    };
  });
  return {
    tasks: [...plan.tasks],
    seeds,
    perturbation: plan.perturbation?.name ?? (plan.perturbation ? 'custom' : 'nominal'),
    policy: plan.policy,
    critic: plan.critic.bundle,
    criticHash: options.criticHash ?? bundleHash(plan.critic),
    arms: {
      policy: armReport(plan.policy, false, policyAlone, plan.tasks),
      critic: winnersReport(
        controls,
        plan.tasks,
        winners,
        controlResults.reduce((ms, r) => ms + r.wallMs, 0),
      ),
      both: armReport(plan.policy, true, both, plan.tasks),
    },
    controls: Object.fromEntries(controls.map((c, j) => [c, armReport(c, true, controlResults[j]!, plan.tasks)])),
    perTask,
    macro: estimate.macro,
    bootstrap: { resamples, seed, confidence: 0.95 },
  };
}

function armPlan(plan: ArmsPlan, run: ArmRun): EvaluationPlan {
  const dir = run.arm === 'critic' ? join('critic-alone', run.policy.replace(/:/g, '-')) : run.arm === 'policy' ? 'policy-alone' : 'both';
  return {
    ...plan,
    policy: run.policy,
    critic: run.critic ? plan.critic : undefined,
    recordDir: plan.recordDir && (run.arm !== 'critic' || plan.recordControls !== false) ? join(plan.recordDir, dir) : undefined,
  };
}

/** The task's outcomes in seed order: 1 success, 0 failure, null for an infrastructure failure. */
/** One task's outcome at each seed, in order (null: lost to the infrastructure); every seed must have run. */
export function seedOutcomes(outcomes: readonly EpisodeOutcome[], task: string, seeds: readonly number[]): SeedOutcomes {
  const bySeed = new Map<number, EpisodeOutcome>();
  for (const o of outcomes) if (o.task === task) bySeed.set(o.seed, o);
  return seeds.map((s) => {
    const o = bySeed.get(s);
    if (!o) throw new RangeError(`no episode of ${task} at seed ${s}`);
    return o.infraFailure !== null ? null : o.success ? 1 : 0;
  });
}

function taskFigures(r: EvaluationResult, task: string): ArmTask {
  const t = r.tasks[task]!;
  return {
    successes: t.successes,
    episodes: t.episodes,
    rate: t.rate,
    infraFailures: t.infraFailures,
    physicsDivergences: t.physicsDivergences,
  };
}

function armReport(policy: string, critic: boolean, r: EvaluationResult, tasks: readonly string[]): ArmReport {
  return {
    policy,
    critic,
    tasks: Object.fromEntries(tasks.map((t) => [t, taskFigures(r, t)])),
    macroSuccess: r.macroSuccess,
    attribution: r.attribution,
    infraReasons: infraFailureReasons(r.outcomes),
    infraRetries: r.infraRetries,
    wallMs: r.wallMs,
  };
}

/** The critic-alone arm: on each task, the winning control's episodes (wallMs: all controls'). */
function winnersReport(
  controls: readonly string[],
  tasks: readonly string[],
  winners: readonly EvaluationResult[],
  wallMs: number,
): ArmReport {
  const figures = tasks.map((t, i) => taskFigures(winners[i]!, t));
  const rates = figures.map((f) => f.rate).filter((x) => Number.isFinite(x));
  const outcomes = tasks.flatMap((t, i) => winners[i]!.outcomes.filter((o) => o.task === t));
  return {
    policy: `best of ${controls.join(', ')}`,
    critic: true,
    tasks: Object.fromEntries(tasks.map((t, i) => [t, figures[i]!])),
    macroSuccess: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : Number.NaN,
    attribution: attribute(outcomes),
    infraReasons: infraFailureReasons(outcomes),
    infraRetries: winners.reduce((n, w, i) => n + (w.tasks[tasks[i]!]?.infraRetries ?? 0), 0),
    wallMs,
  };
}
