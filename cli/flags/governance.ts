// Flags that choose who acts and who governs: the policy, the runtime critic, promoted skills.
import { POLICY_SPEC_HELP } from '../../zinfra/policy/open-policy.js';
import type { World } from '../../sim/world.js';
import { criticLabel, openCritic, resolveCriticSpec, type CriticPlan } from '../../zinfra/runtime/open-critic.js';
import { UsageError } from '../command.js';
import { loaded, text } from './flag.js';

/** A critic as --critic gives it, checked against the world: the plan the workers open, and its label. */
export interface LoadedCritic {
  readonly plan: CriticPlan;
  readonly label: string;
}

/**
 * Loads the bundle against the world's features now, so a bundle that names a feature the world
 * lacks (or reads a privileged one it does not declare) fails in one line before any episode.
 */
export function openCriticFlag(plan: CriticPlan | null | undefined, world: World): LoadedCritic | undefined {
  if (!plan) return undefined;
  // openCritic (here and in every worker) withholds privileged features the world does not authorize
  return { plan, label: criticLabel(openCritic(plan, world)) };
}

export const policy = text('policy', { metavar: 'SPEC', help: POLICY_SPEC_HELP }).default('embedded');

/** Resolved here (a path that names nothing is a usage error); opened against the world by openCriticFlag. */
export const critic = loaded('critic', {
  metavar: 'C',
  help: [
    'the runtime critic: none (default), default (the bundle shipped for the',
    'embedded suite, critic/bundles/default), or a bundle directory / manifest',
    'file. A simulated world authorizes the privileged features a bundle declares.',
  ].join('\n'),
  parse: (value): CriticPlan | null => {
    try {
      return resolveCriticSpec(value) ?? null;
    } catch (err) {
      throw new UsageError(`--critic ${value}: ${(err as Error).message}`);
    }
  },
});

export type SkillsChoice = 'none' | 'active';

export const skills = loaded('skills', {
  metavar: 'none|active',
  help: [
    'promoted skills: none (default), or active: every active skill of the store',
    '(--skills-db) whose guard holds for the task, composed onto the --critic bundle',
  ].join('\n'),
  parse: (value): SkillsChoice => {
    if (value !== 'none' && value !== 'active') throw new UsageError(`--skills ${value}: must be none or active`);
    return value;
  },
});
