// `zetta ros2 --config FILE`: the ROS 2 node between a policy and a robot (zinfra/ros2/README.md).
// The config is validated first (every error names its field), then rclnodejs is looked for; both
// failures are one line on stderr and exit code 2, before any policy server is contacted.
import { loadRos2Config, Ros2ConfigError } from '../../zinfra/ros2/config.js';
import { loadRclnodejs, Ros2Unavailable } from '../../zinfra/ros2/rclnodejs-graph.js';
import { printJsonLine, type Command } from '../command.js';
import { bool, text } from '../flags/flag.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { readFlags } from '../flags/read.js';
import { json } from '../flags/table.js';

const FLAGS = {
  config: text('config', { metavar: 'FILE', help: 'the node config, YAML or JSON (zinfra/ros2/example.yaml)' }).required(
    '--config FILE is required (see zinfra/ros2/example.yaml)',
  ),
  check: bool('check', 'validate the config and exit (no ROS 2 needed)'),
  json: json.with({ help: 'with --check: {"config": …} as parsed; on shutdown: {"bag", "steps"}' }),
};

const HELP = `usage: zetta ros2 --config FILE [--check] [--json]

Runs Zetta as a ROS 2 node: subscribes to the robot's joint state, end-effector pose (a
PoseStamped topic or tf2 frames), gripper state, object poses and cameras; asks the policy for
chunks through the asynchronous action pipeline; governs every action with the critic (observed
features only) and the safety envelope; publishes TwistStamped (MoveIt Servo) or JointTrajectory,
and the gripper command. Status on /diagnostics (1 Hz) and ~/events; services ~/pause, ~/resume,
~/estop (std_srvs/Trigger); the episode is recorded as a ROS 2 MCAP bag. Needs a sourced ROS 2
(Humble or Jazzy) and rclnodejs: see zinfra/ros2/README.md.

${flagHelp(FLAGS)}

Stops on SIGINT or SIGTERM: the robot is held, the bag closed.`;

export const ros2Command: Command = {
  name: 'ros2',
  summary: 'run Zetta as a ROS 2 node between a policy server and a robot',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    try {
      const config = loadRos2Config(f.config);
      const { prepareNode, startRos2Node } = await import('../../zinfra/ros2/start-node.js');
      await prepareNode(config); // the task, the bundle, the goal's objects: refused now, not on the robot
      if (f.check) {
        if (f.json) printJsonLine({ config });
        else
          process.stdout.write(
            `${f.config}: valid (node ${config.node_name}, ${config.control_hz} Hz, task ${config.task.id}, policy ${config.policy})\n`,
          );
        return 0;
      }
      await loadRclnodejs();
      const running = await startRos2Node(config);
      process.stderr.write(
        `zetta ros2: node /${config.node_name} running at ${config.control_hz} Hz (policy ${config.policy}); Ctrl-C stops\n`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      const steps = running.node.step;
      const bag = await running.shutdown();
      if (f.json) printJsonLine({ bag, steps });
      else process.stderr.write(`stopped after ${steps} steps${bag ? `; bag ${bag}` : ''}\n`);
      return 0;
    } catch (err) {
      if (err instanceof Ros2ConfigError || err instanceof Ros2Unavailable) {
        process.stderr.write(`zetta ros2: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
  },
};
