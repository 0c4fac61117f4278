// The embedded tabletop as a ROS 2 robot on any graph (a real one through rclnodejs for `zetta
// sim-robot`, the in-memory one in tests). It publishes what an arm's drivers publish —
// sensor_msgs/JointState (the two finger joints), the end-effector pose as geometry_msgs/PoseStamped,
// a perception module's object poses as geometry_msgs/PoseArray, and optionally a camera's
// sensor_msgs/Image drawn from the simulator's geometry (sim-robot-camera.ts) — and obeys
// geometry_msgs/TwistStamped as MoveIt Servo does (velocity × period = the delta) and the gripper
// as a std_msgs/Float64MultiArray topic or a control_msgs/GripperCommand action server.
// It steps only when told, so its driver decides between lockstep and real time.
import { quatFromRotvec } from '../../sim/math/quat.js';
import type { Env, ResetOptions, StepResult, SyncEnv } from '../../sim/env.js';
import { hasSceneGeometry, type SceneGeometry } from '../../sim/scene-geometry.js';
import { loadWorld, resolveWorld } from '../../sim/worlds.js';
import type { Publisher, RosGraph } from './graph.js';
import {
  type Float64MultiArray,
  type GripperCommandGoal,
  type GripperCommandResult,
  INPUT_TYPES,
  type JointState,
  OUTPUT_TYPES,
  type PoseArray,
  type PoseStamped,
  stampOf,
  type TwistStamped,
} from './messages.js';
import { type CameraSize, SimRobotCamera } from './sim-robot-camera.js';

export const TABLETOP_ROBOT_TOPICS = {
  jointState: '/joint_states',
  pose: '/ee_pose',
  objects: '/perception/object_poses',
  twist: '/servo_node/delta_twist_cmds',
  gripper: '/gripper_controller/commands',
  /** The gripper's control_msgs/GripperCommand action (with `gripper: 'action'`). */
  gripperAction: '/gripper_controller/gripper_cmd',
  camera: '/camera/image_raw',
} as const;

/** How the robot takes gripper commands: the Float64MultiArray topic, or the GripperCommand action. */
export type GripperInterface = 'topic' | 'action';

export interface TabletopRobotOptions {
  /** Called after every twist or gripper command (a driver may step on it). */
  readonly onCommand?: () => void;
  /** Default: the topic. Either way a command's position is the action's gripper value (−1 open … +1 closed). */
  readonly gripper?: GripperInterface;
  /** The camera image's size; absent or null: no camera. */
  readonly camera?: CameraSize | null;
}

export const TABLETOP_FINGER_JOINTS = ['finger_left', 'finger_right'] as const;

/** The twist's scale: a normalized action of 1 moves 0.05 m or 0.5 rad in one period (command-output.ts). */
const POSITION_PER_UNIT_M = 0.05;
const ROTATION_PER_UNIT_RAD = 0.5;

export class TabletopRobot {
  /** The action the robot will execute at its next step, from the latest commands. */
  readonly action = new Float32Array(7);
  /** Twists received since the last step (a step with none holds still). */
  commandsSinceStep = 0;
  /** Gripper commands received since the last step. */
  gripperCommandsSinceStep = 0;
  /** Stamp (ms) of the latest twist's header. */
  lastTwistStampMs = Number.NaN;
  private readonly periodS: number;
  private readonly joint: JointState = {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: '' },
    name: [...TABLETOP_FINGER_JOINTS],
    position: [0, 0],
    velocity: [],
    effort: [],
  };
  private readonly pose: PoseStamped = {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'world' },
    pose: { position: { x: 0, y: 0, z: 0 }, orientation: { w: 1, x: 0, y: 0, z: 0 } },
  };
  private readonly objects: PoseArray = { header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'world' }, poses: [] };
  private readonly q = [1, 0, 0, 0];
  private last: StepResult | undefined;
  private readonly jointPub: Publisher<JointState>;
  private readonly posePub: Publisher<PoseStamped>;
  private readonly objectsPub: Publisher<PoseArray>;
  private readonly camera: SimRobotCamera | null;
  private readonly onCommand: () => void;

  private constructor(
    private readonly env: SyncEnv & SceneGeometry,
    graph: RosGraph,
    controlHz: number,
    options: TabletopRobotOptions,
  ) {
    this.periodS = 1 / controlHz;
    this.onCommand = options.onCommand ?? (() => {});
    // The gripper first: where both arrive in one spin, the twist that completes a period comes last.
    this.listenToGripper(graph, options.gripper ?? 'topic');
    graph.subscribe<TwistStamped>(OUTPUT_TYPES.twist, TABLETOP_ROBOT_TOPICS.twist, 'reliable', (m) => this.takeTwist(m));
    this.camera = options.camera ? new SimRobotCamera(graph, TABLETOP_ROBOT_TOPICS.camera, options.camera) : null;
    this.jointPub = graph.advertise(INPUT_TYPES.jointState, TABLETOP_ROBOT_TOPICS.jointState, 'reliable');
    this.posePub = graph.advertise(INPUT_TYPES.pose, TABLETOP_ROBOT_TOPICS.pose, 'reliable');
    this.objectsPub = graph.advertise(INPUT_TYPES.objects, TABLETOP_ROBOT_TOPICS.objects, 'reliable');
  }

  static async create(graph: RosGraph, controlHz = 20, options: TabletopRobotOptions = {}): Promise<TabletopRobot> {
    const world = await loadWorld(resolveWorld('tabletop'));
    const env = await world.createEnv();
    if (!isSyncEnv(env) || !hasSceneGeometry(env)) {
      await env.close();
      const why = isSyncEnv(env)
        ? 'cannot say what its scene is made of (its camera draws from that)'
        : 'cannot be stepped without awaiting';
      throw new Error(`the ${world.name} world's simulator ${why}`);
    }
    return new TabletopRobot(env, graph, controlHz, options);
  }

  /** A new episode; returns the scene's object names (what the PoseArray's poses are) and the instruction. */
  async reset(options: ResetOptions): Promise<{ objects: readonly string[]; instruction: string }> {
    const r = this.env.resetSync(options);
    this.last = undefined;
    this.action.fill(0);
    this.action[6] = -1;
    this.commandsSinceStep = this.gripperCommandsSinceStep = 0;
    return { objects: this.env.spec().objects, instruction: r.info.instruction };
  }

  /** Publishes the current state (the camera's image first, then JointState, pose, objects), stamped with `nowMs`. */
  publishState(nowMs: number): void {
    // The image before the state a node in lockstep ticks on: the largest message has the longest
    // way, and this gives it the best chance to be in by the tick (the node does not wait for it).
    this.camera?.publish(this.env.sceneSolids(), nowMs);
    const obs = this.env.observe();
    const s = obs.state;
    stampOf(nowMs, this.joint.header.stamp);
    (this.joint.position as number[])[0] = s[6]!;
    (this.joint.position as number[])[1] = s[7]!;
    this.jointPub.publish(this.joint);
    stampOf(nowMs, this.pose.header.stamp);
    const p = this.pose.pose;
    p.position.x = s[0]!;
    p.position.y = s[1]!;
    p.position.z = s[2]!;
    quatFromRotvec(this.q, s[3]!, s[4]!, s[5]!);
    p.orientation.w = this.q[0]!;
    p.orientation.x = this.q[1]!;
    p.orientation.y = this.q[2]!;
    p.orientation.z = this.q[3]!;
    this.posePub.publish(this.pose);
    const o = obs.objects;
    stampOf(nowMs, this.objects.header.stamp);
    this.objects.poses = [];
    for (let k = 0; k < o.length; k += 7) {
      this.objects.poses.push({
        position: { x: o[k]!, y: o[k + 1]!, z: o[k + 2]! },
        orientation: { w: o[k + 3]!, x: o[k + 4]!, y: o[k + 5]!, z: o[k + 6]! },
      });
    }
    this.objectsPub.publish(this.objects);
  }

  /** Executes the latest commands for one control period (after the episode's end, the robot stays put). */
  step(): StepResult {
    this.commandsSinceStep = this.gripperCommandsSinceStep = 0;
    if (this.last?.done) return this.last;
    this.last = this.env.stepSync(this.action);
    return this.last;
  }

  /** The latest step's result (undefined before the first step of an episode). */
  get lastStep(): StepResult | undefined {
    return this.last;
  }

  async close(): Promise<void> {
    await this.env.close();
  }

  private listenToGripper(graph: RosGraph, gripper: GripperInterface): void {
    if (gripper === 'topic') {
      graph.subscribe<Float64MultiArray>(OUTPUT_TYPES.gripperArray, TABLETOP_ROBOT_TOPICS.gripper, 'reliable', (m) =>
        this.takeGripper(m.data[0]!),
      );
      return;
    }
    const action = TABLETOP_ROBOT_TOPICS.gripperAction;
    graph.serveGoals<GripperCommandGoal, GripperCommandResult>(OUTPUT_TYPES.gripperAction, action, (g) => {
      this.takeGripper(g.command.position);
      // The setpoint is taken at once and the fingers get there over the next steps, which the
      // result does not wait for (the node never asks for it): it reports the setpoint, not reached.
      return { position: g.command.position, effort: 0, stalled: false, reached_goal: false };
    });
  }

  private takeGripper(position: number): void {
    this.action[6] = position;
    this.gripperCommandsSinceStep++;
    this.onCommand();
  }

  private takeTwist(m: TwistStamped): void {
    // MoveIt Servo integrates the twist over the period: back to the normalized delta.
    this.action[0] = (m.twist.linear.x * this.periodS) / POSITION_PER_UNIT_M;
    this.action[1] = (m.twist.linear.y * this.periodS) / POSITION_PER_UNIT_M;
    this.action[2] = (m.twist.linear.z * this.periodS) / POSITION_PER_UNIT_M;
    this.action[3] = (m.twist.angular.x * this.periodS) / ROTATION_PER_UNIT_RAD;
    this.action[4] = (m.twist.angular.y * this.periodS) / ROTATION_PER_UNIT_RAD;
    this.action[5] = (m.twist.angular.z * this.periodS) / ROTATION_PER_UNIT_RAD;
    this.lastTwistStampMs = m.header.stamp.sec * 1000 + m.header.stamp.nanosec / 1e6;
    this.commandsSinceStep++;
    this.onCommand();
  }
}

function isSyncEnv(env: Env): env is SyncEnv {
  return typeof (env as Partial<SyncEnv>).stepSync === 'function' && typeof (env as Partial<SyncEnv>).resetSync === 'function';
}
