// The embedded tabletop wrapped as a simulated ROS 2 robot on the in-memory graph (a test double):
// it publishes sensor_msgs/JointState (the two finger joints), the end-effector pose as
// geometry_msgs/PoseStamped and the object poses as geometry_msgs/PoseArray, and obeys
// geometry_msgs/TwistStamped (as MoveIt Servo would: velocity × period = the delta) and the gripper's
// std_msgs/Float64MultiArray. It steps only when told, in simulated time.
import { createEnv, type TabletopEnv } from '../../../sim/tabletop/index.js';
import { quatFromRotvec } from '../../../sim/math/quat.js';
import type { ResetOptions, StepResult } from '../../../sim/env.js';
import type { InMemoryRosBus } from '../../../zinfra/ros2/memory-graph.js';
import type { Float64MultiArray, JointState, PoseArray, PoseStamped, TwistStamped } from '../../../zinfra/ros2/messages.js';
import { stampOf } from '../../../zinfra/ros2/messages.js';

export const SIM_TOPICS = {
  jointState: '/joint_states',
  pose: '/ee_pose',
  objects: '/perception/object_poses',
  twist: '/servo_node/delta_twist_cmds',
  gripper: '/gripper_controller/commands',
} as const;

export const FINGER_JOINTS = ['finger_left', 'finger_right'] as const;

/** A node config for this robot (plain JSON, as a user's file would hold it); the objects are spatial/left_cube_in_bowl's. */
export function simulatedRobotConfig(task: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    node_name: 'zetta',
    policy: 'embedded',
    critic: 'default',
    task: { world: 'tabletop', id: task },
    control_hz: 20,
    execute_steps: 5,
    inputs: {
      joint_state: { topic: SIM_TOPICS.jointState, type: 'sensor_msgs/JointState' },
      ee_pose: { topic: SIM_TOPICS.pose, type: 'geometry_msgs/PoseStamped' },
      gripper_state: { joints: [...FINGER_JOINTS] },
      objects: { topic: SIM_TOPICS.objects, type: 'geometry_msgs/PoseArray', names: ['red_cube_1', 'red_cube_2', 'bowl'] },
    },
    outputs: {
      command: { type: 'geometry_msgs/TwistStamped', topic: SIM_TOPICS.twist, frame_id: 'world' },
      gripper: { type: 'std_msgs/Float64MultiArray', topic: SIM_TOPICS.gripper },
    },
    recording: { enabled: false },
    ...overrides,
  };
}

export class SimulatedTabletopRobot {
  /** The action the robot will execute at its next step, from the latest commands. */
  readonly action = new Float32Array(7);
  /** Twists and gripper commands received since the last step (a step with none holds still). */
  commandsSinceStep = 0;
  private readonly periodS: number;
  private readonly joint: JointState = {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: '' },
    name: [...FINGER_JOINTS],
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

  private constructor(
    private readonly env: TabletopEnv,
    private readonly bus: InMemoryRosBus,
    controlHz: number,
  ) {
    this.periodS = 1 / controlHz;
    bus.node('sim_robot').subscribe<TwistStamped>('geometry_msgs/TwistStamped', SIM_TOPICS.twist, 'reliable', (m) => {
      // MoveIt Servo integrates the twist over the period: back to the normalized delta.
      this.action[0] = (m.twist.linear.x * this.periodS) / 0.05;
      this.action[1] = (m.twist.linear.y * this.periodS) / 0.05;
      this.action[2] = (m.twist.linear.z * this.periodS) / 0.05;
      this.action[3] = (m.twist.angular.x * this.periodS) / 0.5;
      this.action[4] = (m.twist.angular.y * this.periodS) / 0.5;
      this.action[5] = (m.twist.angular.z * this.periodS) / 0.5;
      this.commandsSinceStep++;
    });
    bus.node('sim_gripper').subscribe<Float64MultiArray>('std_msgs/Float64MultiArray', SIM_TOPICS.gripper, 'reliable', (m) => {
      this.action[6] = m.data[0]!;
    });
  }

  static async create(bus: InMemoryRosBus, controlHz = 20): Promise<SimulatedTabletopRobot> {
    return new SimulatedTabletopRobot(await createEnv(), bus, controlHz);
  }

  /** A new episode; returns the scene's object names (what the PoseArray's poses are) and the instruction. */
  async reset(options: ResetOptions): Promise<{ objects: readonly string[]; instruction: string }> {
    const r = this.env.resetSync(options);
    this.last = undefined;
    this.action.fill(0);
    this.action[6] = -1;
    return { objects: this.env.spec().objects, instruction: r.info.instruction };
  }

  /** Publishes the current state, stamped with `nowMs`. */
  publishState(nowMs: number): void {
    const obs = this.env.observe();
    const s = obs.state;
    stampOf(nowMs, this.joint.header.stamp);
    (this.joint.position as number[])[0] = s[6]!;
    (this.joint.position as number[])[1] = s[7]!;
    this.bus.publish('sensor_msgs/JointState', SIM_TOPICS.jointState, this.joint);
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
    this.bus.publish('geometry_msgs/PoseStamped', SIM_TOPICS.pose, this.pose);
    const o = obs.objects;
    stampOf(nowMs, this.objects.header.stamp);
    this.objects.poses = [];
    for (let k = 0; k < o.length; k += 7) {
      this.objects.poses.push({
        position: { x: o[k]!, y: o[k + 1]!, z: o[k + 2]! },
        orientation: { w: o[k + 3]!, x: o[k + 4]!, y: o[k + 5]!, z: o[k + 6]! },
      });
    }
    this.bus.publish('geometry_msgs/PoseArray', SIM_TOPICS.objects, this.objects);
  }

  /** Executes the latest commands for one control period (after the episode's end, the robot stays put). */
  step(): StepResult {
    this.commandsSinceStep = 0;
    if (this.last?.done) return this.last;
    this.last = this.env.stepSync(this.action);
    return this.last;
  }

  async close(): Promise<void> {
    await this.env.close();
  }
}
