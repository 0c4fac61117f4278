// Recording: the scripted expert drives the embedded simulator on nominal scenes, and every step
// is written down the way the policy will later see it (PolicyObservationWriter.fill).
import { ScriptedExpert } from '../../sim/tabletop/expert/expert.js';
import { PolicyObservationWriter } from '../../sim/tabletop/policy-io.js';
import type { TabletopEnv } from '../../sim/tabletop/env.js';
import { getTask } from '../../sim/tabletop/tasks/catalog.js';
import { TaskDemos } from './dataset.js';
import { ExecutionNoise } from './noise.js';
import { demoSchedule, HELD_OUT_SEED_MIN, type DemoEpisodePlan } from './schedule.js';

export interface EpisodeOutcome {
  readonly plan: DemoEpisodePlan;
  readonly success: boolean;
  readonly steps: number;
}

/** One episode into `demos`; kept when it succeeded, or always with `keepFailed`. */
export function recordEpisode(
  env: TabletopEnv,
  writer: PolicyObservationWriter,
  demos: TaskDemos,
  plan: DemoEpisodePlan,
  keepFailed: boolean,
): EpisodeOutcome {
  if (plan.seed >= HELD_OUT_SEED_MIN) throw new RangeError(`training seed ${plan.seed} is in the held-out range (≥ ${HELD_OUT_SEED_MIN})`);
  // No perturbation: demonstrations come from the nominal scene distribution only.
  const reset = env.resetSync({ task: demos.task, seed: plan.seed });
  const expert = ScriptedExpert.forEpisode(env.current);
  const noise = new ExecutionNoise(demos.task, plan.seed, plan.pass, plan.noiseStd);
  const max = env.spec().maxSteps;
  let obs = reset.obs;
  let success = false;
  let steps = 0;
  demos.beginEpisode(plan);
  while (steps < max) {
    const label = expert.act();
    const executed = noise.apply(label);
    demos.addStep(writer.fill(obs, demos.task), label, executed);
    const r = env.stepSync(executed);
    steps++;
    obs = r.obs;
    success = r.info.success;
    if (r.done) break;
  }
  demos.endEpisode(success, success || keepFailed);
  return { plan, success, steps };
}

export interface TaskRecordOptions {
  readonly episodes: number;
  readonly noiseStd: number;
  /** Distinct initial states (seeds 0..n-1); default INITIAL_STATES_PER_TASK. */
  readonly initialStates?: number;
  readonly keepFailed?: boolean;
  readonly onEpisode?: (outcome: EpisodeOutcome) => void;
}

export interface TaskRecordSummary {
  readonly task: string;
  readonly episodes: number;
  readonly kept: number;
  readonly discarded: number;
  readonly failed: number;
  readonly steps: number;
}

/** All scheduled episodes of one task. */
export function recordTask(env: TabletopEnv, task: string, o: TaskRecordOptions): { demos: TaskDemos; summary: TaskRecordSummary } {
  const demos = new TaskDemos(task, getTask(task).instruction);
  const writer = new PolicyObservationWriter();
  let failed = 0;
  const plans = demoSchedule(o.episodes, o.noiseStd, o.initialStates);
  for (const plan of plans) {
    const outcome = recordEpisode(env, writer, demos, plan, o.keepFailed ?? false);
    if (!outcome.success) failed++;
    o.onEpisode?.(outcome);
  }
  const discarded = plans.length - demos.episodes;
  return { demos, summary: { task, episodes: plans.length, kept: demos.episodes, discarded, failed, steps: demos.steps } };
}
