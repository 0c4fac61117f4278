// The World port: everything the runtime and the critic need to know about a world, and nothing
// behind it. The embedded tabletop is one adapter (sim/tabletop/world.ts), the 2-D point mass
// another (sim/point-mass/world.ts); a remote env or a ROS 2 robot plugs in the same way. A world
// module exports `world`, so a worker thread can load it by module path (see worlds.ts).
import type { FeatureSchema } from '../zinfra/protocol/feature-schema.js';
import type { Observation as PolicyObservation } from '../zinfra/protocol/ndarray.js';
import type { Env, Observation } from './env.js';
import type { Perturbation } from './perturbation/schema.js';

/** The runtime's action layout (LIBERO's): 7 normalized deltas, the last one the gripper. */
export interface ActionLayout {
  readonly dim: 7;
  readonly names: readonly string[];
  /** Metres and radians per step that an action of 1 means. */
  readonly scale: { readonly position: number; readonly rotation: number };
}

export interface WorldTask {
  readonly id: string;
  readonly suite: string;
  readonly instruction: string;
  readonly maxSteps: number;
  /** The task's milestones, in the order they are reached. */
  readonly milestones: readonly string[];
}

/** Turns the world's observation into the named arrays a policy receives. Reuses its buffers. */
export interface PolicyEncoder {
  encode(obs: Observation, task: string): PolicyObservation;
}

export interface World {
  readonly name: string;
  /** One line for listings. */
  readonly summary: string;
  readonly action: ActionLayout;
  readonly controlHz: number;
  /** Where the end effector may go (robot base frame, m): the safety envelope's box. */
  readonly workspace: { readonly min: readonly number[]; readonly max: readonly number[] };
  /** Every feature the world provides, with its provenance. */
  readonly features: FeatureSchema;
  /**
   * The feature keys a failure's signature compares, each with the change that counts as
   * different (its unit). Failure clustering reads these from recordings.
   */
  readonly signature: Readonly<Record<string, number>>;
  /** A simulator may feed privileged features to a bundle that declares them; a robot never. */
  readonly authorizesPrivileged: boolean;
  readonly suites: readonly string[];
  tasks(suite?: string): readonly WorldTask[];
  /** The task with this id; throws a RangeError naming the known ones. */
  task(id: string): WorldTask;
  createEnv(): Promise<Env>;
  policyEncoder(): PolicyEncoder;
  /** The perturbation a name (a shipped one) or a file path stands for. */
  resolvePerturbation(spec: string): Perturbation;
  readonly perturbationNames: readonly string[];
}
