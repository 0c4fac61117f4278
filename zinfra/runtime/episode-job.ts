// One planned episode on an env of the plan's world (in this thread or in a rollout worker), run
// again at its seed after infrastructure failures.
import type { Env } from '../../sim/env.js';
import type { World } from '../../sim/world.js';
import type { Policy } from '../policy/policy.js';
import type { CriticRuntime } from './critic-runtime.js';
import { recordPathFor, type EpisodeJob, type EvaluationPlan } from './evaluation-plan.js';
import { DEFAULT_INFRA_RETRIES, withInfraRetries, type RetriedOutcome } from './infra-retry.js';
import { criticLabel, openCritic } from './open-critic.js';
import { runEpisode } from './run-episode.js';

/** The env, policy encoder and critic one simulator slot uses, episode after episode. */
export interface EpisodeSlot {
  readonly env: Env;
  readonly encoder: ReturnType<World['policyEncoder']>;
  readonly critic: CriticRuntime | undefined;
}

/** One planned episode on `env` (in this thread or in a rollout worker), re-run at its seed after infrastructure failures. */
export function runJob(slot: EpisodeSlot, policy: Policy, plan: EvaluationPlan, job: EpisodeJob): Promise<RetriedOutcome> {
  const { env, encoder, critic } = slot;
  const runOnce = () =>
    runEpisode(env, policy, { task: job.task, seed: job.seed, perturbation: plan.perturbation }, {
      executeSteps: plan.executeSteps,
      recordPath: recordPathFor(plan, job),
      policyLabel: plan.policy,
      critic,
      criticLabel: criticLabel(critic),
      toPolicyObservation: (obs, task) => encoder.encode(obs, task),
    });
  return withInfraRetries(policy, plan.infraRetries ?? DEFAULT_INFRA_RETRIES, runOnce);
}

/** A fresh env of the world, its policy encoder and the plan's critic (one per simulator). */
export async function openSlot(world: World, plan: EvaluationPlan): Promise<EpisodeSlot> {
  return { env: await world.createEnv(), encoder: world.policyEncoder(), critic: openCritic(plan.critic, world) };
}
