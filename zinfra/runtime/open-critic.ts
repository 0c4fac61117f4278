// `--critic none | default | FILE` for runs on the embedded tabletop suite: load the bundle (a worker
// thread loads it itself from the path), and set the critic up with the suite's workspace box and
// feature aliases. The embedded suite authorizes privileged features by default: its features()
// exist for the critic and never reach the policy.
import { loadBundle, resolveBundlePath } from '../../critic/bundles/bundle.js';
import { TABLETOP_PRIVILEGED_ALIASES } from '../../critic/index.js';
import { CONTROL_HZ, EEF_BOX } from '../../sim/index.js';
import { CriticRuntime } from './critic-runtime.js';

export interface CriticPlan {
  /** Absolute path of the bundle's manifest (resolve specs with resolveCriticSpec). */
  readonly bundle: string;
  /** The run authorizes privileged simulator features. */
  readonly privileged: boolean;
}

/** `none` → undefined; `default`, a bundle directory or a manifest → a plan with an absolute path. */
export function resolveCriticSpec(spec: string | undefined, privileged = true): CriticPlan | undefined {
  if (spec === undefined || spec === 'none') return undefined;
  return { bundle: resolveBundlePath(spec), privileged };
}

/** The critic for one simulator (one per env: it keeps per-episode state). */
export function openCritic(plan: CriticPlan | undefined): CriticRuntime | undefined {
  if (!plan) return undefined;
  const bundle = loadBundle(plan.bundle, { privileged: plan.privileged });
  return new CriticRuntime({
    bundle,
    privileged: plan.privileged,
    workspace: { min: EEF_BOX.min, max: EEF_BOX.max },
    aliases: TABLETOP_PRIVILEGED_ALIASES,
    controlHz: CONTROL_HZ,
  });
}

/** What the recording's header and the report say about the critic. */
export function criticLabel(critic: CriticRuntime | undefined): string {
  if (!critic) return 'none';
  const b = critic.options.bundle;
  return `${b.manifest.name}@${b.hash} (${b.path}; privileged features ${critic.options.privileged ? 'authorized' : 'not authorized'})`;
}
