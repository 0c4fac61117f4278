// `--critic none | default | FILE`: load the bundle for a world (a worker thread loads it itself
// from the path) against the world's feature schema, and set the critic up with the world's
// workspace box and control rate. A simulator authorizes privileged features (its features exist
// for the critic and never reach the policy); a robot does not.
import { loadBundle, resolveBundlePath } from '../../critic/index.js';
import { ROT_SCALE_RAD, TRANS_SCALE_M } from '../../critic/index.js';
import { layoutFor } from '../../critic/index.js';
import type { World } from '../../sim/world.js';
import { CriticRuntime } from '../../critic/index.js';

export interface CriticPlan {
  /** Absolute path of the bundle's manifest (resolve specs with resolveCriticSpec). */
  readonly bundle: string;
  /** The run authorizes privileged simulator features. */
  readonly privileged: boolean;
  /**
   * Tasks that run another bundle (task id → absolute manifest path): the base composed with the
   * skills that apply to that task (`--skills active`). Tasks not named here run `bundle`.
   */
  readonly byTask?: Readonly<Record<string, string>> | undefined;
}

/** The plan one task's episodes run: its own bundle where the plan names one. */
export function criticPlanFor(plan: CriticPlan | undefined, task: string): CriticPlan | undefined {
  const own = plan?.byTask?.[task];
  return plan && own ? { bundle: own, privileged: plan.privileged } : plan;
}

/**
 * `none` → undefined; `default`, a bundle directory or a manifest → a plan with an absolute path.
 * `privileged`: the run authorizes privileged features (pass the world's `authorizesPrivileged`).
 */
export function resolveCriticSpec(spec: string | undefined, privileged = true): CriticPlan | undefined {
  if (spec === undefined || spec === 'none') return undefined;
  return { bundle: resolveBundlePath(spec), privileged };
}

/** The critic for one simulator of `world` (one per env: it keeps per-episode state). */
export function openCritic(plan: CriticPlan | undefined, world: World): CriticRuntime | undefined {
  if (!plan) return undefined;
  const { position, rotation } = world.action.scale;
  // The critic's command features and tools speak LIBERO's scale; a world with another would be misread.
  if (position !== TRANS_SCALE_M || rotation !== ROT_SCALE_RAD) {
    throw new Error(
      `world "${world.name}" scales actions to ${position} m and ${rotation} rad per step; the critic needs ${TRANS_SCALE_M} m and ${ROT_SCALE_RAD} rad`,
    );
  }
  const privileged = plan.privileged && world.authorizesPrivileged;
  const bundle = loadBundle(plan.bundle, { layout: layoutFor(world.features), privileged });
  const [x0, y0, z0] = world.workspace.min;
  const [x1, y1, z1] = world.workspace.max;
  return new CriticRuntime({
    bundle,
    privileged,
    workspace: { min: [x0!, y0!, z0!], max: [x1!, y1!, z1!] },
    controlHz: world.controlHz,
  });
}

/** What the recording's header and the report say about the critic. */
export function criticLabel(critic: CriticRuntime | undefined): string {
  if (!critic) return 'none';
  const b = critic.options.bundle;
  return `${b.manifest.name}@${b.hash} (${b.path}; privileged features ${critic.options.privileged ? 'authorized' : 'not authorized'})`;
}
