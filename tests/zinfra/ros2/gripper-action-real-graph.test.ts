// The gripper as a control_msgs/GripperCommand action on a real ROS 2 graph: `zetta ros2` configured
// with the gripper action drives `zetta sim-robot --gripper action` (the action server) through
// closed-loop episodes in lockstep (a perturbed task), beside a policy server, as three processes —
// and every seed ends as it does with the gripper topic (`zetta sim-robot --gripper topic`, the node on the array topic),
// in the same number of steps. Seen from outside: the action server reports the node's goals
// succeeded, and no gripper command goes over the topic. Skipped, with the reason in the name,
// where ROS 2 or rclnodejs is missing (CI).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RclnodejsGraph } from '../../../zinfra/ros2/rclnodejs-graph.js';
import { TABLETOP_ROBOT_TOPICS } from '../../../zinfra/ros2/tabletop-robot.js';
import {
  type RobotEpisode,
  realGraphMissing,
  simRobotEpisodes,
  startPolicyServer,
  startZetta,
  useDomain,
  type ZettaProcess,
} from './real-graph-support.js';
import { simulatedRobotConfig } from './simulated-robot.js';

const missing = await realGraphMissing();
useDomain(15);
const TITLE = missing
  ? `the gripper as a GripperCommand action over DDS (skipped: ${missing}; source a ROS 2 installation and install rclnodejs to run it)`
  : `the gripper as a GripperCommand action over DDS on ROS 2 ${process.env.ROS_DISTRO}: zetta ros2 and zetta sim-robot --gripper action`;

const TASK = 'spatial/left_cube_in_bowl';
const FIRST_SEED = 1000;
const EPISODES = 5;
/** Perturbed, so that not every seed ends the same way. */
const PERTURBATION = 'position-shift';
/** action_msgs/GoalStatus: the goal ran to its end. */
const STATUS_SUCCEEDED = 4;

interface GoalStatusArray {
  status_list: { goal_info: { goal_id: { uuid: ArrayLike<number> } }; status: number }[];
}

describe.skipIf(missing !== null)(TITLE, () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-ros2-gripper-action-'));
  const endpoint = `ipc://${join(dir, 'policy.sock')}`;
  let server: ZettaProcess;
  let graph: RclnodejsGraph;
  const succeededGoals = new Set<string>();
  let topicCommands = 0;

  beforeAll(async () => {
    server = await startPolicyServer(endpoint);
    graph = await RclnodejsGraph.open(`zetta_gripper_listener_${process.pid}`);
    graph.subscribe<GoalStatusArray>(
      'action_msgs/GoalStatusArray',
      `${TABLETOP_ROBOT_TOPICS.gripperAction}/_action/status`,
      'reliable',
      (m) => {
        for (const s of m.status_list)
          if (s.status === STATUS_SUCCEEDED) succeededGoals.add(Array.from(s.goal_info.goal_id.uuid).join('.'));
      },
    );
    graph.subscribe('std_msgs/Float64MultiArray', TABLETOP_ROBOT_TOPICS.gripper, 'reliable', () => topicCommands++);
  }, 90_000);

  afterAll(async () => {
    await graph?.close();
    await server?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** `zetta ros2` with the gripper on `gripper`, then the robot's episodes on the same interface. */
  async function episodesWith(gripper: 'topic' | 'action'): Promise<RobotEpisode[]> {
    const name = `zetta_gripper_${gripper}_${process.pid}`;
    const outputs = simulatedRobotConfig(TASK).outputs as Record<string, unknown>;
    const config = simulatedRobotConfig(TASK, {
      node_name: name,
      policy: endpoint,
      use_sim_time: true,
      ...(gripper === 'action'
        ? {
            outputs: {
              ...outputs,
              gripper: {
                type: 'control_msgs/GripperCommand',
                action: TABLETOP_ROBOT_TOPICS.gripperAction,
                open_position: -1,
                closed_position: 1,
              },
            },
          }
        : {}),
    });
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify(config));
    const node = startZetta(['ros2', '--config', path]);
    try {
      await node.waitFor(new RegExp(`node /${name} running`), 60_000);
      return await simRobotEpisodes(TASK, [
        '--seed',
        String(FIRST_SEED),
        '--episodes',
        String(EPISODES),
        '--perturb',
        PERTURBATION,
        '--gripper',
        gripper,
        '--camera',
        'off',
      ]);
    } finally {
      expect(await node.stop('SIGINT')).toBe(0);
    }
  }

  it(`drives the robot through the gripper action to the same outcome and steps as the gripper topic at ${EPISODES} seeds under ${PERTURBATION}`, async () => {
    const overTopic = await episodesWith('topic');
    const commandsOverTopic = topicCommands;
    const overAction = await episodesWith('action');
    const steps = overAction.reduce((n, e) => n + e.steps, 0);
    console.log(
      `gripper topic ${overTopic.filter((e) => e.success).length}/${EPISODES}, gripper action ${overAction.filter((e) => e.success).length}/${EPISODES}; ` +
        `${succeededGoals.size} goals succeeded over ${steps} steps; ${commandsOverTopic} topic commands in the topic run`,
    );
    expect(overAction.map((e) => [e.seed, e.success, e.steps])).toEqual(overTopic.map((e) => [e.seed, e.success, e.steps]));
    expect(overTopic.some((e) => e.success)).toBe(true); // a success needs the gripper to close on the cube
    expect(commandsOverTopic).toBeGreaterThan(0);
    expect(topicCommands).toBe(commandsOverTopic); // none in the action run
    // Goals only when the command changes, yet at least one per episode: each episode starts afresh.
    expect(succeededGoals.size).toBeGreaterThanOrEqual(EPISODES);
    expect(succeededGoals.size).toBeLessThan(steps / 2);
  }, 600_000);
});
