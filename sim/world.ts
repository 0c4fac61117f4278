// The World port: everything the runtime and the critic need to know about a world, and nothing
// behind it. The embedded tabletop is one adapter (sim/tabletop/tabletop-world.ts), the 2-D point
// mass another (sim/point-mass/point-mass-world.ts); a remote env or a ROS 2 robot plugs in the same
// way. A world module exports `world`, so a worker thread can load it by module path (see worlds.ts).
import type { FeatureSchema, FeatureValues } from '../protocol/feature-schema.js';
import type { Observation as PolicyObservation } from '../protocol/ndarray.js';
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

/**
 * What a robot's perception gives the critic in this world's terms: the observed features, computed
 * from the perceived object poses and the task's goal exactly as the simulator computes them.
 */
export interface PerceivedFeatures {
  /** Episode start: which objects the perceived poses are, so the goal's objects are found. */
  begin(taskId: string, objectNames: readonly string[]): void;
  /** This step's features from this step's observation; null before any object pose arrived. */
  update(obs: Observation, objectsSeen: boolean): FeatureValues | null;
}

/** A world whose tasks a real robot can run (the ROS 2 node) says what its perception must report. */
export interface RobotPerception {
  /** The objects a task's goal names, which the robot's perception must report. */
  goalObjects(taskId: string): readonly string[];
  /** A fresh feature writer for one node. */
  features(): PerceivedFeatures;
}

/**
 * A restore program a world offers evolution: an action, never a condition. Its program is in the
 * critic's recoveries format (critic/recovery/schema.ts), with the id left to whoever adds it.
 */
export interface RestoreAction {
  readonly id: string;
  readonly summary: string;
  readonly program: Readonly<Record<string, unknown>>;
}

/** The restore programs of a world, and which one serves a stage. */
export interface WorldRestores {
  readonly actions: readonly RestoreAction[];
  /** The action that puts the robot back where the policy can redo the stage whose milestone is missing. */
  forStage(milestone: string): RestoreAction;
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
  /** Restore programs evolution may pair with the conditions it finds (none: only the critic's own). */
  readonly restores?: WorldRestores;
  /** Present where the world's tasks can run on a robot (the ROS 2 node needs it). */
  readonly perception?: RobotPerception;
}
