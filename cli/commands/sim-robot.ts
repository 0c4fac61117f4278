// `zetta sim-robot --task T --seed S`: the embedded tabletop as a ROS 2 robot, for trying `zetta
// ros2` before pointing it at an arm (zinfra/ros2/sim-robot.yaml is the node's config for it). It
// publishes JointState, the end-effector PoseStamped and the object poses, takes TwistStamped and
// the gripper command; with /clock it steps in lockstep with a node on use_sim_time (the default),
// or with --realtime at the control rate on the wall clock. One line per episode; exit code 0.
import { loadRclnodejs, Ros2Unavailable } from '../../zinfra/ros2/rclnodejs-graph.js';
import { printJsonLine, type Command } from '../command.js';
import { bool, int } from '../flags/flag.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { perturb, task } from '../flags/scene.js';
import { episodes, json, seed } from '../flags/table.js';

const FLAGS = {
  task: task.required(),
  seed: seed.with({ help: 'the first episode’s seed; episode i uses S + i' }).required(),
  episodes: episodes.with({ help: 'episodes to run, one after another' }).default(1),
  perturb,
  hz: int('hz', { metavar: 'HZ', min: 1, max: 1000, help: 'control rate (the node config’s control_hz)' }).default(20),
  realtime: bool('realtime', 'step at the control rate on the wall clock instead of in lockstep on /clock'),
  json: json.with({ help: 'one {"seed", "success", "steps"} line per episode, then {"episodes": […], "successes"}' }),
};

const HELP = `usage: zetta sim-robot --task T --seed S [--episodes N] [--perturb FILE|NAME] [--hz HZ] [--realtime] [--json]

Runs the embedded tabletop as a ROS 2 robot: publishes /joint_states (sensor_msgs/JointState,
the two finger joints), /ee_pose (geometry_msgs/PoseStamped) and /perception/object_poses
(geometry_msgs/PoseArray); obeys /servo_node/delta_twist_cmds (geometry_msgs/TwistStamped, as
MoveIt Servo does) and /gripper_controller/commands (std_msgs/Float64MultiArray). In lockstep
(the default) it publishes /clock and steps on each command for the current time, so a node
with use_sim_time gives the same episode for a seed every time; each episode starts at t = 0.
Needs a sourced ROS 2 and rclnodejs (zinfra/ros2/README.md).

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
