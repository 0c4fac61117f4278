// Flags that choose who acts and who governs: the policy, the runtime critic, promoted skills.
import { POLICY_SPEC_HELP } from '../../zinfra/policy/open-policy.js';
import { criticLabel, openCritic, resolveCriticSpec, type CriticPlan } from '../../zinfra/runtime/open-critic.js';
import { UsageError } from '../command.js';
import { loaded, text } from './flag.js';

/** A critic as --critic gives it: the plan the workers open, and its label for reports. */
export interface LoadedCritic {
  readonly plan: CriticPlan;
  readonly label: string;
}

export const policy = text('policy', { metavar: 'SPEC', help: POLICY_SPEC_HELP }).default('embedded');

/** Opened here, so a bad bundle is a usage error before any episode runs; none is no critic. */
export const critic = loaded('critic', {
  metavar: 'C',
  help: [
    'the runtime critic: none (default), default (the bundle shipped for the',
    'embedded suite, critic/bundles/default), or a bundle directory / manifest',
    'file. The embedded suite authorizes the privileged features bundles read.',
  ].join('\n'),
  parse: (value): LoadedCritic | null => {
    try {
      const plan = resolveCriticSpec(value);
      return plan ? { plan, label: criticLabel(openCritic(plan)) } : null;
    } catch (err) {
      throw new UsageError(`--critic ${value}: ${(err as Error).message}`);
    }
  },
});

export const skills = loaded('skills', {
  metavar: 'none',
  help: 'promoted skills (only none until skills land)',
  parse: (value): 'none' => {
    if (value !== 'none') throw new UsageError(`--skills ${value}: only "none" is available in this version of zetta`);
    return value;
  },
});
