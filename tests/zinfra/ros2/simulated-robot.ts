// The embedded tabletop as a simulated ROS 2 robot on the in-memory graph (a test double): the same
// robot `zetta sim-robot` runs on a real graph (zinfra/ros2/tabletop-robot.ts) — JointState (the two
// finger joints), the end-effector PoseStamped and the object PoseArray out, TwistStamped (as MoveIt
// Servo would: velocity × period = the delta) and the gripper's Float64MultiArray (or GripperCommand
// goals) in, a camera image out if asked for — as node /sim_robot on the bus. It steps only when
// told, in simulated time.
import type { InMemoryRosBus } from '../../../zinfra/ros2/memory-graph.js';
import {
  TABLETOP_FINGER_JOINTS,
  TABLETOP_ROBOT_TOPICS,
  TabletopRobot,
  type TabletopRobotOptions,
} from '../../../zinfra/ros2/tabletop-robot.js';

export const SIM_TOPICS = TABLETOP_ROBOT_TOPICS;

export const FINGER_JOINTS = TABLETOP_FINGER_JOINTS;

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

export type SimulatedTabletopRobot = TabletopRobot;

export const SimulatedTabletopRobot = {
  create: (bus: InMemoryRosBus, controlHz = 20, options: TabletopRobotOptions = {}): Promise<TabletopRobot> =>
    TabletopRobot.create(bus.node('sim_robot'), controlHz, options),
};
