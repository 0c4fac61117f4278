// The critic on a robot: the bundle loaded against the robot's feature schema (observed features
// only; privileged ones do not exist here, so a bundle that declares them is refused at start), and
// the safety envelope, which always runs — with a bundle inside the critic runtime, with `none` on
// its own.
import { loadBundle, resolveBundlePath } from '../../critic/index.js';
import { layoutFor } from '../../critic/index.js';
import { SafetyEnvelope } from '../../critic/index.js';
import { CriticRuntime } from '../../critic/index.js';
import type { FeatureSchema } from '../../protocol/feature-schema.js';

/** The embedded tabletop's end-effector box (sim/tabletop/action.ts), the default workspace. */
export const DEFAULT_WORKSPACE = { min: [-0.35, -0.45, 0.005], max: [0.5, 0.45, 0.45] } as const;

export interface RobotGovernance {
  /** The critic runtime, or undefined for `none` (the envelope still runs). */
  readonly critic: CriticRuntime | undefined;
  /** The envelope used when there is no critic. */
  readonly envelope: SafetyEnvelope;
  readonly label: string;
}

/** What a robot has of a world's features: the observed ones, none of the privileged. */
export function robotFeatureSchema(world: FeatureSchema): FeatureSchema {
  return Object.freeze({ world: 'ros2', features: Object.freeze(world.features.filter((f) => f.provenance === 'observed')) });
}

export function openRobotGovernance(
  spec: string,
  features: FeatureSchema,
  workspace: { min: readonly number[]; max: readonly number[] } | undefined,
  controlHz: number,
): RobotGovernance {
  const box = workspace ?? DEFAULT_WORKSPACE;
  const min: [number, number, number] = [box.min[0]!, box.min[1]!, box.min[2]!];
  const max: [number, number, number] = [box.max[0]!, box.max[1]!, box.max[2]!];
  const envelope = new SafetyEnvelope({ workspaceMin: min, workspaceMax: max });
  if (spec === 'none') return { critic: undefined, envelope, label: 'none (safety envelope only)' };
  const bundle = loadBundle(resolveBundlePath(spec), { layout: layoutFor(robotFeatureSchema(features)), privileged: false });
  const critic = new CriticRuntime({ bundle, privileged: false, workspace: { min, max }, controlHz });
  return { critic, envelope, label: `${bundle.manifest.name}@${bundle.hash} (observed features only)` };
}
