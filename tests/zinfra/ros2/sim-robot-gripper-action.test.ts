// The simulated robot's gripper as a control_msgs/GripperCommand action server, on the in-memory
// graph (a test double): a goal's position becomes the gripper command as the array topic's would;
// the node configured with the gripper action drives the robot to the same outcome, step for step,
// as with the gripper topic, episode after episode on one node; its bag records each goal's command.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPolicy } from '../../../zinfra/policy/open-policy.js';
import type { Policy } from '../../../zinfra/policy/policy.js';
import { InMemoryRosBus } from '../../../zinfra/ros2/memory-graph.js';
import type { GripperCommandGoal } from '../../../zinfra/ros2/messages.js';
import { type GripperInterface, TABLETOP_ROBOT_TOPICS } from '../../../zinfra/ros2/tabletop-robot.js';
import { readBag } from './bag-reading.js';
import { nodeOnMemoryGraph, runGraphEpisode } from './node-harness.js';
import { ScriptedPolicy } from './scripted-policy.js';
import { SimulatedTabletopRobot, simulatedRobotConfig } from './simulated-robot.js';

const TASK = 'spatial/left_cube_in_bowl';
const SEEDS = [1000, 1001];
const GRIPPER_ACTION = {
  type: 'control_msgs/GripperCommand',
  action: TABLETOP_ROBOT_TOPICS.gripperAction,
  open_position: -1,
  closed_position: 1,
};

const dir = mkdtempSync(join(tmpdir(), 'zetta-ros2-gripper-action-'));
let policy: Policy;
beforeAll(async () => {
  policy = await openPolicy('embedded');
});
afterAll(async () => {
  await policy?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every seed's episode on one node, the robot's gripper on `gripper` and the node's output to match. */
async function episodes(gripper: GripperInterface) {
  const config =
    gripper === 'action' ? simulatedRobotConfig(TASK, { outputs: { ...outputs(), gripper: GRIPPER_ACTION } }) : simulatedRobotConfig(TASK);
  const h = nodeOnMemoryGraph(config, policy, 'lockstep');
  const robot = await SimulatedTabletopRobot.create(h.bus, 20, { gripper });
  const goals = h.bus.captureGoals<GripperCommandGoal>(TABLETOP_ROBOT_TOPICS.gripperAction);
  try {
    const out = [];
    for (const seed of SEEDS) out.push(await runGraphEpisode(h, robot, { task: TASK, seed }));
    return { outcomes: out.map((e) => [e.success, e.steps]), goals: goals.length };
  } finally {
    await robot.close();
  }
}

function outputs(): Record<string, unknown> {
  return simulatedRobotConfig(TASK).outputs as Record<string, unknown>;
}

describe('the simulated robot’s gripper as a GripperCommand action', () => {
  it('takes a goal’s position as its gripper command, and no longer listens to the gripper topic', async () => {
    const bus = new InMemoryRosBus();
    const robot = await SimulatedTabletopRobot.create(bus, 20, { gripper: 'action' });
    try {
      await robot.reset({ task: TASK, seed: 1000 });
      expect(robot.action[6]).toBe(-1);
      bus
        .node('zetta')
        .actionClient<GripperCommandGoal>(GRIPPER_ACTION.type, GRIPPER_ACTION.action)
        .sendGoal({ command: { position: 0.5, max_effort: 10 } });
      expect(robot.action[6]).toBe(0.5);
      expect(robot.gripperCommandsSinceStep).toBe(1);
      bus.publish('std_msgs/Float64MultiArray', TABLETOP_ROBOT_TOPICS.gripper, { layout: { dim: [], data_offset: 0 }, data: [1] });
      expect(robot.action[6]).toBe(0.5);
    } finally {
      await robot.close();
    }
  });

  it(`gives the node the same outcome and steps as the gripper topic at seeds ${SEEDS.join(', ')}, on one node`, async () => {
    const topic = await episodes('topic');
    const action = await episodes('action');
    expect(action.outcomes).toEqual(topic.outcomes);
    expect(topic.outcomes.some(([success]) => success)).toBe(true); // a success needs a grasp: the gripper closed and opened
    // Goals only when the command changes, yet at least one per episode (each episode starts afresh).
    expect(action.goals).toBeGreaterThanOrEqual(SEEDS.length);
    expect(action.goals).toBeLessThan(action.outcomes.reduce((n, [, steps]) => n + (steps as number), 0) / 2);
  }, 120_000);

  it('sends a goal at the start of each episode, even one repeating the last episode’s (the robot opened its gripper at reset)', async () => {
    const h = nodeOnMemoryGraph(
      simulatedRobotConfig(TASK, { critic: 'none', outputs: { ...outputs(), gripper: GRIPPER_ACTION } }),
      new ScriptedPolicy([0, 0, 0, 0, 0, 0, 1]),
      'lockstep',
    );
    const robot = await SimulatedTabletopRobot.create(h.bus, 20, { gripper: 'action' });
    const goals = h.bus.captureGoals<GripperCommandGoal>(GRIPPER_ACTION.action);
    try {
      for (const seed of SEEDS) {
        const { objects, instruction } = await robot.reset({ task: TASK, seed });
        await h.node.beginEpisode({ objects, instruction, recordPath: null });
        for (let i = 0; i < 3; i++) {
          robot.publishState(h.clock.now());
          await h.node.tick();
          expect(robot.action[6]).toBe(1);
          robot.step();
          h.clock.advance(50);
        }
        await h.node.endEpisode();
      }
    } finally {
      await robot.close();
    }
    expect(goals.map((g) => g.command.position)).toEqual([1, 1]);
  });

  it('records each goal in the node’s bag as the control_msgs/GripperCommand it carries', async () => {
    const h = nodeOnMemoryGraph(
      simulatedRobotConfig(TASK, { critic: 'none', outputs: { ...outputs(), gripper: { ...GRIPPER_ACTION, max_effort: 15 } } }),
      new ScriptedPolicy([0, 0, 0, 0, 0, 0, 1]),
      'lockstep',
    );
    const robot = await SimulatedTabletopRobot.create(h.bus, 20, { gripper: 'action' });
    const path = join(dir, 'goals.mcap');
    try {
      const { objects, instruction } = await robot.reset({ task: TASK, seed: 1000 });
      await h.node.beginEpisode({ objects, instruction, recordPath: path });
      for (let i = 0; i < 5; i++) {
        robot.publishState(h.clock.now());
        await h.node.tick();
        robot.step();
        h.clock.advance(50);
      }
      await h.node.endEpisode();
    } finally {
      await robot.close();
    }
    const bag = await readBag(path);
    expect(await bag.messages(GRIPPER_ACTION.action)).toEqual([{ position: 1, max_effort: 15 }]);
  });
});
