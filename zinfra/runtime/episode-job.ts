// One planned episode on an env of the plan's world (in this thread or in a rollout worker), run
// again at its seed after infrastructure failures.
import type { Env } from '../../sim/env.js';
import type { World } from '../../sim/world.js';
import type { Policy } from '../policy/policy.js';
import type { CriticRuntime } from '../../critic/index.js';
import { recordPathFor, type EpisodeJob, type EvaluationPlan } from './evaluation-plan.js';
import { DEFAULT_INFRA_RETRIES, withInfraRetries, type RetriedOutcome } from './infra-retry.js';
import { criticLabel, criticPlanFor, openCritic } from './open-critic.js';
import { runEpisode } from './run-episode.js';

/** The env, policy encoder and critics one simulator slot uses, episode after episode. */
export interface EpisodeSlot {
  readonly env: Env;
  readonly encoder: ReturnType<World['policyEncoder']>;
  /** The critic for a task's episodes (the plan's, or the task's own bundle): opened once, then reused. */
  readonly criticFor: (task: string) => CriticRuntime | undefined;
}

/** One planned episode on `env` (in this thread or in a rollout worker), re-run at its seed after infrastructure failures. */
export function runJob(slot: EpisodeSlot, policy: Policy, plan: EvaluationPlan, job: EpisodeJob): Promise<RetriedOutcome> {
  const { env, encoder } = slot;
  const critic = slot.criticFor(job.task);
  const runOnce = () =>
    runEpisode(
      env,
      policy,
      { task: job.task, seed: job.seed, perturbation: plan.perturbation },
      {
        executeSteps: plan.executeSteps,
        recordPath: recordPathFor(plan, job),
        policyLabel: plan.policy,
        critic,
        criticLabel: criticLabel(critic),
        toPolicyObservation: (obs, task) => encoder.encode(obs, task),
      },
    );
  return withInfraRetries(policy, plan.infraRetries ?? DEFAULT_INFRA_RETRIES, runOnce);
}

/** A fresh env of the world, its policy encoder and the plan's critics (one set per simulator). */
export async function openSlot(world: World, plan: EvaluationPlan): Promise<EpisodeSlot> {
  const byBundle = new Map<string, CriticRuntime | undefined>();
  const criticFor = (task: string) => {
    const taskPlan = criticPlanFor(plan.critic, task);
    const key = taskPlan?.bundle ?? '';
    if (!byBundle.has(key)) byBundle.set(key, openCritic(taskPlan, world));
    return byBundle.get(key);
  };
  return { env: await world.createEnv(), encoder: world.policyEncoder(), criticFor };
}
