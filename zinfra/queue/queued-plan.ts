// An evaluation plan as it travels through the queue: only names and content, no path or module a
// worker would follow. The world is a name (the worker picks its own module for it), the critic
// bundles are their files (bundle-content.ts), the policy a spec the worker must have been started
// with. The schema is strict: a field this version does not know is a malformed job, not passed on.
import { z } from 'zod';
import { PerturbationSchema } from '../../sim/perturbation/schema.js';
import type { EvaluationPlan } from '../runtime/evaluation-plan.js';
import { BundleContentSchema, readBundleContent, type BundleContent } from './bundle-content.js';

const QueuedCriticSchema = z.strictObject({
  bundle: BundleContentSchema,
  privileged: z.boolean(),
  byTask: z.record(z.string(), BundleContentSchema).optional(),
});

export const QueuedPlanSchema = z.strictObject({
  /** The world's name: a built-in name, or the name of the world the worker was started with. */
  world: z.string().min(1).max(4096).optional(),
  tasks: z.array(z.string()),
  episodesPerTask: z.number().int().nonnegative(),
  firstSeed: z.number().int(),
  perturbation: PerturbationSchema.optional(),
  policy: z.string().min(1).max(4096),
  executeSteps: z.number().int().positive(),
  /** Where the coordinator keeps the recordings: only a folder under the worker's own when shared. */
  recordDir: z.string().min(1).max(4096).optional(),
  critic: QueuedCriticSchema.optional(),
  infraRetries: z.number().int().nonnegative().optional(),
});

export type QueuedPlan = z.infer<typeof QueuedPlanSchema>;
export type QueuedCritic = z.infer<typeof QueuedCriticSchema>;

/** The coordinator's side: the plan with its world named and its bundles read as content. */
export function queuedPlan(plan: EvaluationPlan): QueuedPlan {
  const read = new Map<string, BundleContent>();
  const content = (path: string) => read.get(path) ?? read.set(path, readBundleContent(path)).get(path)!;
  const critic = plan.critic;
  return {
    ...(plan.world ? { world: plan.world.name } : {}),
    tasks: [...plan.tasks],
    episodesPerTask: plan.episodesPerTask,
    firstSeed: plan.firstSeed,
    ...(plan.perturbation ? { perturbation: plan.perturbation } : {}),
    policy: plan.policy,
    executeSteps: plan.executeSteps,
    ...(plan.recordDir ? { recordDir: plan.recordDir } : {}),
    ...(critic
      ? {
          critic: {
            bundle: content(critic.bundle),
            privileged: critic.privileged,
            ...(critic.byTask
              ? { byTask: Object.fromEntries(Object.entries(critic.byTask).map(([task, path]) => [task, content(path)])) }
              : {}),
          },
        }
      : {}),
    ...(plan.infraRetries !== undefined ? { infraRetries: plan.infraRetries } : {}),
  };
}
