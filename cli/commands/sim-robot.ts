// `zetta sim-robot --task T --seed S`: the embedded tabletop as a ROS 2 robot, for trying `zetta
// ros2` before pointing it at an arm (zinfra/ros2/sim-robot.yaml is the node's config for it). It
// publishes JointState, the end-effector PoseStamped, the object poses and a camera image drawn from
// the simulator's geometry, takes TwistStamped and the gripper command (a topic, or a GripperCommand
// action with --gripper action); with /clock it steps in lockstep with a node on use_sim_time (the
// default), or with --realtime at the control rate on the wall clock. One line per episode; exit code 0.
import { loadRclnodejs, Ros2Unavailable } from '../../zinfra/ros2/rclnodejs-graph.js';
import { CAMERA_SIDE_RANGE, DEFAULT_CAMERA_SIZE, parseCameraSize } from '../../zinfra/ros2/sim-robot-camera.js';
import type { GripperInterface } from '../../zinfra/ros2/tabletop-robot.js';
import { printJsonLine, type Command, UsageError } from '../command.js';
import { bool, int, loaded } from '../flags/flag.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { perturb, task } from '../flags/scene.js';
import { episodes, json, seed } from '../flags/table.js';

const GRIPPER_INTERFACES: readonly GripperInterface[] = ['topic', 'action'];

const FLAGS = {
  task: task.required(),
  seed: seed.with({ help: 'the first episode’s seed; episode i uses S + i' }).required(),
  episodes: episodes.with({ help: 'episodes to run, one after another' }).default(1),
  perturb,
  hz: int('hz', { metavar: 'HZ', min: 1, max: 1000, help: 'control rate (the node config’s control_hz)' }).default(20),
  realtime: bool('realtime', 'step at the control rate on the wall clock instead of in lockstep on /clock'),
  camera: loaded('camera', {
    metavar: 'WxH|off',
    help: [
      `the camera image on /camera/image_raw (sensor_msgs/Image, rgb8), WIDTHxHEIGHT with each side`,
      `${CAMERA_SIDE_RANGE.min} to ${CAMERA_SIDE_RANGE.max}, drawn from the simulator's geometry; off: no camera`,
    ].join('\n'),
    parse: (t) => ({ size: parseCameraSize(t) }),
  }).default({ size: DEFAULT_CAMERA_SIZE }, `${DEFAULT_CAMERA_SIZE.width}x${DEFAULT_CAMERA_SIZE.height}`),
  gripper: loaded('gripper', {
    metavar: 'topic|action',
    help: [
      'topic: obey /gripper_controller/commands (std_msgs/Float64MultiArray); action: serve',
      '/gripper_controller/gripper_cmd (control_msgs/GripperCommand); a position of −1 opens, +1 closes',
    ].join('\n'),
    parse: (t): GripperInterface => {
      if (!(GRIPPER_INTERFACES as readonly string[]).includes(t))
        throw new UsageError(`--gripper must be ${GRIPPER_INTERFACES.join(' or ')}, got "${t}"`);
      return t as GripperInterface;
    },
  }).default('topic'),
  json: json.with({ help: 'one {"seed", "success", "steps"} line per episode, then {"episodes": […], "successes"}' }),
};

const HELP = `usage: zetta sim-robot --task T --seed S [--episodes N] [--perturb FILE|NAME] [--hz HZ] [--realtime]
                       [--camera WxH|off] [--gripper topic|action] [--json]

Runs the embedded tabletop as a ROS 2 robot: publishes /joint_states (sensor_msgs/JointState,
the two finger joints), /ee_pose (geometry_msgs/PoseStamped), /perception/object_poses
(geometry_msgs/PoseArray) and /camera/image_raw (sensor_msgs/Image, rgb8); obeys
/servo_node/delta_twist_cmds (geometry_msgs/TwistStamped, as MoveIt Servo does) and the gripper:
/gripper_controller/commands (std_msgs/Float64MultiArray) or, with --gripper action, the action
/gripper_controller/gripper_cmd (control_msgs/GripperCommand). The camera looks straight down onto
the table; its image is drawn from the simulator's geometry (the objects, fixtures and gripper as
outlines in their colours), not rendered photorealistically. In lockstep (the default) it publishes
/clock and steps on each command for the current time, so a node with use_sim_time gives the same
episode for a seed every time; each episode starts at t = 0. Needs a sourced ROS 2 and rclnodejs
(zinfra/ros2/README.md).

${flagHelp(FLAGS)}

  zetta serve-policy --onnx models/embedded-bc.onnx --bind tcp://127.0.0.1:5555 &
  zetta ros2 --config zinfra/ros2/sim-robot.yaml &
  zetta sim-robot --task spatial/left_cube_in_bowl --seed 1000 --episodes 10`;

export const simRobotCommand: Command = {
  name: 'sim-robot',
  summary: 'run the embedded tabletop as a ROS 2 robot (a simulated arm for zetta ros2)',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    try {
      await loadRclnodejs();
    } catch (err) {
      if (!(err instanceof Ros2Unavailable)) throw err;
      process.stderr.write(`zetta sim-robot: ${err.message}\n`);
      return 2;
    }
    const { serveSimRobot } = await import('../../zinfra/ros2/sim-robot-process.js');
    const seeds = Array.from({ length: f.episodes }, (_, i) => f.seed + i);
    const results = await serveSimRobot(
      { task: f.task, seeds, controlHz: f.hz, lockstep: !f.realtime, ...(f.perturb ? { perturbation: f.perturb.spec } : {}) },
      { camera: f.camera.size, gripper: f.gripper },
      (e) => {
        if (f.json) printJsonLine(e);
        else process.stdout.write(`seed ${e.seed}: ${e.success ? 'success' : 'failure'} after ${e.steps} steps\n`);
      },
    );
    if (results === 'interrupted') return 130;
    const successes = results.filter((e) => e.success).length;
    if (f.json) printJsonLine({ episodes: results, successes });
    else process.stderr.write(`${successes}/${results.length} episodes succeeded\n`);
    return 0;
  },
};
