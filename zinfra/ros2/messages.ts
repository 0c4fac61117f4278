// The ROS 2 messages the node reads and writes, as plain objects in the shape rclnodejs and the CDR
// writer both use (`sec`/`nanosec` stamps, snake_case fields). Only the fields the node touches are
// typed; a robot's messages may carry more.

export interface Time {
  sec: number;
  nanosec: number;
}

export interface Header {
  stamp: Time;
  frame_id: string;
}

export interface Vector3 {
  x: number;
  y: number;
  z: number;
}

export interface Quaternion extends Vector3 {
  w: number;
}

export interface Pose {
  position: Vector3;
  orientation: Quaternion;
}

export interface JointState {
  header: Header;
  name: string[];
  position: ArrayLike<number>;
  velocity: ArrayLike<number>;
  effort: ArrayLike<number>;
}

export interface PoseStamped {
  header: Header;
  pose: Pose;
}

export interface PoseArray {
  header: Header;
  poses: Pose[];
}

export interface TransformStamped {
  header: Header;
  child_frame_id: string;
  transform: { translation: Vector3; rotation: Quaternion };
}

export interface TFMessage {
  transforms: TransformStamped[];
}

export interface TwistStamped {
  header: Header;
  twist: { linear: Vector3; angular: Vector3 };
}

export interface JointTrajectory {
  header: Header;
  joint_names: string[];
  points: {
    positions: number[];
    velocities: number[];
    accelerations: number[];
    effort: number[];
    time_from_start: { sec: number; nanosec: number };
  }[];
}

export interface Float64MultiArray {
  layout: { dim: { label: string; size: number; stride: number }[]; data_offset: number };
  data: number[];
}

export interface GripperCommandGoal {
  command: { position: number; max_effort: number };
}

/** control_msgs/action/GripperCommand's result. */
export interface GripperCommandResult {
  position: number;
  effort: number;
  stalled: boolean;
  reached_goal: boolean;
}

/** sensor_msgs/Image, as a camera driver publishes it (rows of `step` bytes). */
export interface ImageMessage {
  header: Header;
  height: number;
  width: number;
  encoding: string;
  is_bigendian: number;
  step: number;
  data: Uint8Array;
}

export interface StringMessage {
  data: string;
}

export interface KeyValue {
  key: string;
  value: string;
}

export interface DiagnosticStatus {
  level: number;
  name: string;
  message: string;
  hardware_id: string;
  values: KeyValue[];
}

export interface DiagnosticArray {
  header: Header;
  status: DiagnosticStatus[];
}

/** rosgraph_msgs/Clock: a simulator's time, which nodes with use_sim_time run on. */
export interface ClockMessage {
  clock: Time;
}

export interface TriggerResponse {
  success: boolean;
  message: string;
}

/** diagnostic_msgs/DiagnosticStatus levels. */
export const DIAGNOSTIC_LEVEL = { ok: 0, warn: 1, error: 2, stale: 3 } as const;

/** The message types the config may name for each role (anything else is refused at start). */
export const INPUT_TYPES = {
  jointState: 'sensor_msgs/JointState',
  pose: 'geometry_msgs/PoseStamped',
  tf: 'tf2_msgs/TFMessage',
  objects: 'geometry_msgs/PoseArray',
  image: 'sensor_msgs/Image',
  compressedImage: 'sensor_msgs/CompressedImage',
} as const;

export const OUTPUT_TYPES = {
  twist: 'geometry_msgs/TwistStamped',
  trajectory: 'trajectory_msgs/JointTrajectory',
  gripperAction: 'control_msgs/GripperCommand',
  gripperArray: 'std_msgs/Float64MultiArray',
  diagnostics: 'diagnostic_msgs/DiagnosticArray',
  events: 'std_msgs/String',
  trigger: 'std_srvs/Trigger',
} as const;

/** A simulator's clock topic and its type. */
export const CLOCK_TOPIC = '/clock';
export const CLOCK_TYPE = 'rosgraph_msgs/Clock';

/** A clock reading (ms) as a ROS stamp. */
export function stampOf(ms: number, out: Time): Time {
  const sec = Math.floor(ms / 1000);
  out.sec = sec;
  out.nanosec = Math.round((ms - sec * 1000) * 1e6);
  return out;
}

/** A ROS stamp as milliseconds (the inverse of stampOf, exact for stamps stampOf wrote). */
export function msOf(t: Time): number {
  return t.sec * 1000 + t.nanosec / 1e6;
}

export function header(frameId: string): Header {
  return { stamp: { sec: 0, nanosec: 0 }, frame_id: frameId };
}
