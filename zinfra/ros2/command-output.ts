// The governed 7-D action as the robot's commands. TwistStamped (MoveIt Servo): the delta over one
// control period as a velocity, linear = a[0:3]·0.05 m / period, angular = a[3:6]·0.5 rad / period,
// in the configured frame, capped by the configured speeds. JointTrajectory (ros2_control): the first
// action dimensions as joint deltas added to the measured positions, reached in one period. The
// gripper: a Float64MultiArray with one position, or a control_msgs/GripperCommand goal sent only
// when the command changes (an action server should not get a goal per tick). Messages are built
// once and overwritten, so publishing allocates nothing of ours.
import { ROT_SCALE_RAD, TRANS_SCALE_M } from '../../critic/index.js';
import type { NodeClock } from './clock.js';
import type { Ros2Config } from './config.js';
import type { GoalSender, Publisher, RosGraph } from './graph.js';
import {
  OUTPUT_TYPES,
  header,
  stampOf,
  type Float64MultiArray,
  type GripperCommandGoal,
  type JointTrajectory,
  type TwistStamped,
} from './messages.js';

/** Called with every command as it is published (the recorder's tap). */
export type OutputTap = (topic: string, type: string, message: unknown) => void;

/** Commands are reliable: a dropped command is a robot that keeps moving on the last one. */
const COMMAND_QOS = 'reliable';

export class CommandOutput {
  /** Joint positions the trajectory adds deltas to (the latest JointState, by configured joint). */
  readonly jointPositions: Float64Array;
  private readonly periodS: number;
  private readonly twist: TwistStamped;
  private readonly trajectory: JointTrajectory | undefined;
  private readonly gripperArray: Float64MultiArray = { layout: { dim: [], data_offset: 0 }, data: [0] };
  private readonly goal: GripperCommandGoal = { command: { position: 0, max_effort: 0 } };
  private commandPub!: Publisher<TwistStamped | JointTrajectory>;
  private gripperPub: Publisher<Float64MultiArray> | undefined;
  private gripperGoals: GoalSender<GripperCommandGoal> | undefined;
  private lastGoalPosition = Number.NaN;
  maxLinear: number;
  maxAngular: number;

  constructor(
    private readonly config: Ros2Config,
    private readonly clock: NodeClock,
    private readonly tap: OutputTap,
  ) {
    this.periodS = 1 / config.control_hz;
    this.maxLinear = config.safety.max_linear_mps;
    this.maxAngular = config.safety.max_angular_rps;
    const cmd = config.outputs.command;
    this.twist = { header: header(cmd.frame_id), twist: { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } };
    const joints = cmd.type === OUTPUT_TYPES.trajectory ? cmd.joints : [];
    this.jointPositions = new Float64Array(joints.length);
    if (cmd.type === OUTPUT_TYPES.trajectory) {
      const s = Math.floor(this.periodS);
      this.trajectory = {
        header: header(cmd.frame_id),
        joint_names: [...joints],
        points: [
          {
            positions: joints.map(() => 0),
            velocities: [],
            accelerations: [],
            effort: [],
            time_from_start: { sec: s, nanosec: Math.round((this.periodS - s) * 1e9) },
          },
        ],
      };
    }
  }

  /**
   * A new episode: the next gripper goal goes out whatever the last one was (a simulated robot
   * starting over has opened its gripper, whatever it was last told).
   */
  begin(): void {
    this.lastGoalPosition = Number.NaN;
  }

  advertise(graph: RosGraph): void {
    const cmd = this.config.outputs.command;
    this.commandPub = graph.advertise(cmd.type, cmd.topic, COMMAND_QOS);
    const g = this.config.outputs.gripper;
    if (g.type === OUTPUT_TYPES.gripperArray) this.gripperPub = graph.advertise(g.type, g.topic, COMMAND_QOS);
    else this.gripperGoals = graph.actionClient(g.type, g.action);
  }

  /**
   * Publishes the gripper command, then the motion part of `action`: the motion command closes the
   * period (a simulated robot in lockstep steps on it), so the gripper's goes out first.
   */
  publish(action: Float32Array): void {
    const cmd = this.config.outputs.command;
    this.publishGripper(action[6]!);
    if (this.trajectory) this.publishTrajectory(action);
    else {
      const t = this.twist;
      stampOf(this.clock.now(), t.header.stamp);
      const lin = capScale(action[0]!, action[1]!, action[2]!, TRANS_SCALE_M / this.periodS, this.maxLinear);
      const ang = capScale(action[3]!, action[4]!, action[5]!, ROT_SCALE_RAD / this.periodS, this.maxAngular);
      t.twist.linear.x = action[0]! * lin;
      t.twist.linear.y = action[1]! * lin;
      t.twist.linear.z = action[2]! * lin;
      t.twist.angular.x = action[3]! * ang;
      t.twist.angular.y = action[4]! * ang;
      t.twist.angular.z = action[5]! * ang;
      this.commandPub.publish(t);
      this.tap(cmd.topic, cmd.type, t);
    }
  }

  /** Zero motion, gripper as last commanded: the watchdog's and e-stop's hold. */
  hold(): void {
    const cmd = this.config.outputs.command;
    if (this.trajectory) {
      const p = this.trajectory.points[0]!;
      for (let i = 0; i < p.positions.length; i++) p.positions[i] = this.jointPositions[i]!;
      stampOf(this.clock.now(), this.trajectory.header.stamp);
      this.commandPub.publish(this.trajectory);
      this.tap(cmd.topic, cmd.type, this.trajectory);
      return;
    }
    const t = this.twist;
    stampOf(this.clock.now(), t.header.stamp);
    t.twist.linear.x = t.twist.linear.y = t.twist.linear.z = 0;
    t.twist.angular.x = t.twist.angular.y = t.twist.angular.z = 0;
    this.commandPub.publish(t);
    this.tap(cmd.topic, cmd.type, t);
  }

  private publishTrajectory(action: Float32Array): void {
    const cmd = this.config.outputs.command;
    if (cmd.type !== OUTPUT_TYPES.trajectory) return;
    const traj = this.trajectory!;
    const p = traj.points[0]!;
    const cap = this.maxAngular * this.periodS;
    for (let i = 0; i < p.positions.length; i++) {
      const delta = Math.max(-cap, Math.min(cap, action[i]! * cmd.rad_per_unit));
      p.positions[i] = this.jointPositions[i]! + delta;
    }
    stampOf(this.clock.now(), traj.header.stamp);
    this.commandPub.publish(traj);
    this.tap(cmd.topic, cmd.type, traj);
  }

  private publishGripper(command: number): void {
    const g = this.config.outputs.gripper;
    const position = g.open_position + ((Math.max(-1, Math.min(1, command)) + 1) / 2) * (g.closed_position - g.open_position);
    if (this.gripperPub && g.type === OUTPUT_TYPES.gripperArray) {
      this.gripperArray.data[0] = position;
      this.gripperPub.publish(this.gripperArray);
      this.tap(g.topic, g.type, this.gripperArray);
    } else if (this.gripperGoals && g.type === OUTPUT_TYPES.gripperAction && position !== this.lastGoalPosition) {
      this.lastGoalPosition = position;
      this.goal.command.position = position;
      this.goal.command.max_effort = g.max_effort;
      this.gripperGoals.sendGoal(this.goal);
      // Recorded as what the type names: the goal's control_msgs/GripperCommand, not the goal around it.
      this.tap(g.action, g.type, this.goal.command);
    }
  }
}

/** Units per action unit, shrunk so that the vector's speed stays within `max`. */
function capScale(x: number, y: number, z: number, perUnit: number, max: number): number {
  const speed = Math.hypot(x, y, z) * perUnit;
  return speed > max ? (perUnit * max) / speed : perUnit;
}
