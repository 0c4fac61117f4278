// The robot's side of an observation: the latest joint state, end-effector pose, gripper state,
// object poses and camera images, each with the node-clock time it arrived (the watchdog compares
// arrival times, not header stamps, so a robot whose clock differs from ours still works). Writes the
// runtime's observation layout (sim/env.ts): eef_pos(3) + eef_axis_angle(3) + gripper_qpos(2),
// then OBJECT_POSE_DIM numbers per object; all into buffers owned here.
import { OBJECT_POSE_DIM, STATE_DIM, type Observation } from '../../sim/env.js';
import { rotvecFromQuat } from '../../sim/math/quat.js';
import type { NdArray } from '../../protocol/ndarray.js';
import type { NodeClock } from './clock.js';
import type { Ros2Config } from './config.js';
import type { QosProfile, RosGraph } from './graph.js';
import { INPUT_TYPES, msOf, type JointState, type Pose, type PoseArray, type PoseStamped, type TFMessage } from './messages.js';
import { TfChain } from './tf-chain.js';
import {
  compressedToRgb,
  rawToRgb,
  resizeWithPad,
  type CompressedImageMessage,
  type RawImageMessage,
  type RgbImage,
} from './camera-image.js';

/** Called with every input message as it arrives (the recorder's tap). */
export type InputTap = (topic: string, type: string, message: unknown) => void;

const INPUT_QOS: QosProfile = 'sensor-data';

/** One configured camera: the policy key it fills, and the frame in the policy's format (null until one arrives). */
export interface CameraSlot {
  readonly key: string;
  /** height, width the policy takes; null: the camera's own size. */
  readonly size: readonly [number, number] | null;
  image: NdArray<'|u1'> | null;
  /** Why the last frame could not be used (an encoding the node does not read), or null. */
  error: string | null;
}

export class RobotInputs {
  readonly state = new Float32Array(STATE_DIM);
  /** OBJECT_POSE_DIM numbers per name of `objectNames`, in the PoseArray's order. */
  objects: Float32Array;
  objectNames: readonly string[];
  /** Camera images under the policy key they fill (uint8 RGB HWC), one entry per configured camera. */
  readonly images: CameraSlot[];
  /** Arrival times (node clock, ms); −∞ until the first message. */
  poseAt = -Infinity;
  gripperAt = -Infinity;
  objectsAt = -Infinity;
  /** The header stamps (ms) of the latest pose, fingers and objects: a simulated robot's time, for lockstep. */
  readonly stampsMs = { pose: Number.NaN, gripper: Number.NaN, objects: Number.NaN };
  private readonly obs: { state: Float32Array; objects: Float32Array; t: number; prompt: string };
  private readonly position = new Float64Array(3);
  private readonly quat = new Float64Array(4);
  private readonly fingerIndex: [number, number] = [-1, -1];
  private fingerNames: readonly string[] | null = null;

  constructor(
    private readonly config: Ros2Config,
    private readonly clock: NodeClock,
    prompt: string,
  ) {
    this.images = config.inputs.cameras.map((c) => ({ key: c.key, size: c.size ?? null, image: null, error: null }));
    this.objectNames = config.inputs.objects?.names ?? [];
    this.objects = new Float32Array(this.objectNames.length * OBJECT_POSE_DIM);
    this.obs = { state: this.state, objects: this.objects, t: 0, prompt };
  }

  /** What the object poses are this episode (a scene whose objects differ from the config's). Not per step. */
  setObjects(names: readonly string[], prompt: string): void {
    this.objectNames = names;
    if (this.objects.length !== names.length * OBJECT_POSE_DIM)
      this.objects = this.obs.objects = new Float32Array(names.length * OBJECT_POSE_DIM);
    this.obs.prompt = prompt;
    this.objectsAt = -Infinity;
  }

  /** Subscribes to every configured input. */
  subscribe(graph: RosGraph, tap: InputTap): void {
    const inputs = this.config.inputs;
    const on = <T>(type: string, topic: string, handle: (m: T) => void) =>
      graph.subscribe<T>(type, topic, INPUT_QOS, (m) => {
        handle(m);
        tap(topic, type, m);
      });
    const gripperTopic = inputs.gripper_state.topic;
    on<JointState>(INPUT_TYPES.jointState, inputs.joint_state.topic, (m) => {
      if (gripperTopic === undefined || gripperTopic === inputs.joint_state.topic) this.takeFingers(m);
    });
    if (gripperTopic !== undefined && gripperTopic !== inputs.joint_state.topic)
      on<JointState>(INPUT_TYPES.jointState, gripperTopic, (m) => this.takeFingers(m));
    const pose = inputs.ee_pose;
    if (pose.type === INPUT_TYPES.pose)
      on<PoseStamped>(pose.type, pose.topic, (m) => {
        this.takePose(m.pose);
        this.stampsMs.pose = msOf(m.header.stamp);
      });
    else {
      const chain = new TfChain(pose.parent_frame, pose.child_frame);
      on<TFMessage>(pose.type, pose.topic, (m) => {
        if (!(chain.absorb(m) && chain.lookup(this.position, this.quat))) return;
        this.writePose();
        const last = m.transforms.at(-1);
        if (last) this.stampsMs.pose = msOf(last.header.stamp);
      });
    }
    const objects = inputs.objects;
    if (objects)
      on<PoseArray>(objects.type, objects.topic, (m) => {
        this.takeObjects(m);
        this.stampsMs.objects = msOf(m.header.stamp);
      });
    for (const [i, cam] of inputs.cameras.entries()) {
      const slot = this.images[i]!;
      if (cam.type === INPUT_TYPES.image) on<RawImageMessage>(cam.type, cam.topic, (m) => takeFrame(slot, () => rawToRgb(m)));
      else on<CompressedImageMessage>(cam.type, cam.topic, (m) => takeFrame(slot, () => compressedToRgb(m)));
    }
  }

  /** How old the older of pose and fingers is (ms on the node clock); +∞ until both have arrived. */
  stateAge(): number {
    return this.clock.now() - Math.min(this.poseAt, this.gripperAt);
  }

  /** The latest observation for step `t` (the arrays are this object's, overwritten by new input). */
  observation(t: number): Observation {
    this.obs.t = t;
    return this.obs;
  }

  /** The two finger joints' positions; their indices are looked up again only when the name list changes. */
  private takeFingers(m: JointState): void {
    if (m.name !== this.fingerNames) {
      const [a, b] = this.config.inputs.gripper_state.joints;
      this.fingerIndex[0] = m.name.indexOf(a);
      this.fingerIndex[1] = m.name.indexOf(b);
      this.fingerNames = m.name;
    }
    const [i, j] = this.fingerIndex;
    if (i < 0 || j < 0) return; // another joint group on the same topic
    this.state[6] = m.position[i]!;
    this.state[7] = m.position[j]!;
    this.gripperAt = this.clock.now();
    this.stampsMs.gripper = msOf(m.header.stamp);
  }

  private takePose(p: Pose): void {
    this.position[0] = p.position.x;
    this.position[1] = p.position.y;
    this.position[2] = p.position.z;
    this.quat[0] = p.orientation.w;
    this.quat[1] = p.orientation.x;
    this.quat[2] = p.orientation.y;
    this.quat[3] = p.orientation.z;
    this.writePose();
  }

  private writePose(): void {
    this.state[0] = this.position[0]!;
    this.state[1] = this.position[1]!;
    this.state[2] = this.position[2]!;
    rotvecFromQuat(this.state, this.quat, 3); // the same convention as the simulator's state
    this.poseAt = this.clock.now();
  }

  private takeObjects(m: PoseArray): void {
    const n = Math.min(m.poses.length, this.objects.length / OBJECT_POSE_DIM);
    for (let k = 0; k < n; k++) {
      const p = m.poses[k]!;
      const o = k * OBJECT_POSE_DIM;
      this.objects[o] = p.position.x;
      this.objects[o + 1] = p.position.y;
      this.objects[o + 2] = p.position.z;
      this.objects[o + 3] = p.orientation.w;
      this.objects[o + 4] = p.orientation.x;
      this.objects[o + 5] = p.orientation.y;
      this.objects[o + 6] = p.orientation.z;
    }
    this.objectsAt = this.clock.now();
  }
}

/** The frame as the policy takes it; a frame that cannot be read keeps the last good one and says why. */
function takeFrame(slot: CameraSlot, decode: () => RgbImage): void {
  let rgb: RgbImage;
  try {
    rgb = decode();
  } catch (err) {
    slot.error = (err as Error).message;
    return;
  }
  slot.error = null;
  if (!slot.size) {
    slot.image = { dtype: '|u1', shape: [rgb.height, rgb.width, 3], data: rgb.data };
    return;
  }
  const [h, w] = slot.size;
  // the policy's frame is reused: the observation is encoded before the next frame arrives
  const out = slot.image?.data.byteLength === h * w * 3 ? slot.image.data : new Uint8Array(h * w * 3);
  slot.image = { dtype: '|u1', shape: [h, w, 3], data: resizeWithPad(rgb, h, w, out) };
}
