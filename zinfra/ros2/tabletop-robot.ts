// The embedded tabletop as a ROS 2 robot on any graph (a real one through rclnodejs for `zetta
// sim-robot`, the in-memory one in tests). It publishes what an arm's drivers publish —
// sensor_msgs/JointState (the two finger joints), the end-effector pose as geometry_msgs/PoseStamped,
// a perception module's object poses as geometry_msgs/PoseArray — and obeys geometry_msgs/TwistStamped
// as MoveIt Servo does (velocity × period = the delta) and the gripper's std_msgs/Float64MultiArray.
// It steps only when told, so its driver decides between lockstep and real time.
import { quatFromRotvec } from '../../sim/math/quat.js';
import type { Env, ResetOptions, StepResult, SyncEnv } from '../../sim/env.js';
import { loadWorld, resolveWorld } from '../../sim/worlds.js';
import type { Publisher, RosGraph } from './graph.js';
import {
  type Float64MultiArray,
  INPUT_TYPES,
  type JointState,
  OUTPUT_TYPES,
  type PoseArray,
  type PoseStamped,
  stampOf,
  type TwistStamped,
} from './messages.js';

export const TABLETOP_ROBOT_TOPICS = {
  jointState: '/joint_states',
  pose: '/ee_pose',
  objects: '/perception/object_poses',
  twist: '/servo_node/delta_twist_cmds',
  gripper: '/gripper_controller/commands',
} as const;

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

  private constructor(
    private readonly env: SyncEnv,
    graph: RosGraph,
    controlHz: number,
    private readonly onCommand: () => void,
  ) {
    this.periodS = 1 / controlHz;
    // The gripper first: where both arrive in one spin, the twist that completes a period comes last.
    graph.subscribe<Float64MultiArray>(OUTPUT_TYPES.gripperArray, TABLETOP_ROBOT_TOPICS.gripper, 'reliable', (m) => {
      this.action[6] = m.data[0]!;
      this.gripperCommandsSinceStep++;
      this.onCommand();
    });
    graph.subscribe<TwistStamped>(OUTPUT_TYPES.twist, TABLETOP_ROBOT_TOPICS.twist, 'reliable', (m) => this.takeTwist(m));
    this.jointPub = graph.advertise(INPUT_TYPES.jointState, TABLETOP_ROBOT_TOPICS.jointState, 'reliable');
    this.posePub = graph.advertise(INPUT_TYPES.pose, TABLETOP_ROBOT_TOPICS.pose, 'reliable');
    this.objectsPub = graph.advertise(INPUT_TYPES.objects, TABLETOP_ROBOT_TOPICS.objects, 'reliable');
  }

  /** `onCommand` is called after every twist or gripper command (a driver may step on it). */
  static async create(graph: RosGraph, controlHz = 20, onCommand: () => void = () => {}): Promise<TabletopRobot> {
    const world = await loadWorld(resolveWorld('tabletop'));
    const env = await world.createEnv();
    if (!isSyncEnv(env)) {
      await env.close();
      throw new Error(`the ${world.name} world's simulator cannot be stepped without awaiting`);
    }
    return new TabletopRobot(env, graph, controlHz, onCommand);
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

  /** Publishes the current state, stamped with `nowMs`. */
  publishState(nowMs: number): void {
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
