// The Env contract: what the control loop needs from any simulator, embedded or remote.
// Layouts follow LIBERO: a 7-D normalized delta end-effector action and an 8-D robot state.
import type { Perturbation } from './perturbation/schema.js';

/** Action layout: [dx, dy, dz, dax, day, daz, gripper], each in [-1, 1]; gripper −1 open, +1 close. */
export const ACTION_DIM = 7;
/** Robot state layout: eef_pos(3) + eef_axis_angle(3) + gripper_qpos(2). */
export const STATE_DIM = 8;
/** Each reported object is position(3) + quaternion w,x,y,z (4). */
export const OBJECT_POSE_DIM = 7;

export const STATE_NAMES = ['eef_x', 'eef_y', 'eef_z', 'eef_ax', 'eef_ay', 'eef_az', 'gripper_q0', 'gripper_q1'] as const;

export interface EnvSpec {
  readonly task: string;
  readonly suite: string;
  readonly instruction: string;
  readonly actionDim: typeof ACTION_DIM;
  /** Metres and radians per step that an action of 1 means. */
  readonly actionScale: { readonly position: number; readonly rotation: number };
  readonly stateDim: typeof STATE_DIM;
  readonly stateNames: readonly string[];
  /** Names of the objects whose poses the observation carries, in order. */
  readonly objects: readonly string[];
  readonly controlHz: number;
  readonly maxSteps: number;
  /** Milestones of the task, in the order they are reached. */
  readonly milestones: readonly string[];
  /** Names of the privileged features, one per slot of `features().values`. */
  readonly features: readonly string[];
}

/** What the policy sees. Arrays are owned by the env and overwritten by the next step: copy to keep. */
export interface Observation {
  readonly state: Float32Array;
  /** OBJECT_POSE_DIM numbers per object of `spec().objects`, as a perception module reports them. */
  readonly objects: Float32Array;
  /** Steps taken in this episode. */
  readonly t: number;
  readonly prompt: string;
}

export interface ResetOptions {
  readonly task: string;
  readonly seed: number;
  readonly perturbation?: Perturbation;
}

export interface ResetResult {
  readonly obs: Observation;
  readonly info: {
    /** sha256 (hex) of the initial state and every sampled parameter of the episode. */
    readonly resetDigest: string;
    readonly instruction: string;
  };
}

export interface StepResult {
  readonly obs: Observation;
  /** 1 on the step the goal holds, else 0. */
  readonly reward: number;
  /** The goal holds, or the step limit is reached. */
  readonly done: boolean;
  readonly info: {
    readonly success: boolean;
    /** Milestones reached so far, in order. */
    readonly milestones: readonly string[];
  };
}

/** Privileged state for the critic: one number per name of `spec().features`, refreshed each step. */
export interface FeatureFrame {
  readonly names: readonly string[];
  readonly values: Float64Array;
}

export interface Env {
  /** Valid after the first reset (it describes the current task). */
  spec(): EnvSpec;
  reset(options: ResetOptions): Promise<ResetResult>;
  step(action: ArrayLike<number>): Promise<StepResult>;
  /** The latest observation (the one the last reset or step returned), without stepping. */
  observe(): Observation;
  features(): FeatureFrame;
  close(): Promise<void>;
}

/** An env that can also be driven without awaiting (the embedded simulator). */
export interface SyncEnv extends Env {
  resetSync(options: ResetOptions): ResetResult;
  stepSync(action: ArrayLike<number>): StepResult;
}
