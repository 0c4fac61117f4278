// `zetta ros2`'s start-up on the in-memory ROS 2 graph (a test double), in real time, with the
// policy over ZeroMQ: the embedded base policy behind a Zetta policy server, the default critic, the
// simulated tabletop robot stepping on every twist. Chunks arrive through the asynchronous pipeline
// and drive the robot; shutting down holds the robot and closes the bag. No absolute times are
// asserted: only that what was asked for happened.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOnnxFile, EMBEDDED_POLICY_PATH } from '../../../zinfra/policy/open-policy.js';
import { PolicyServer } from '../../../zinfra/policy/zmq/server.js';
import { parseRos2Config } from '../../../zinfra/ros2/config.js';
import { InMemoryRosBus } from '../../../zinfra/ros2/memory-graph.js';
import type { DiagnosticArray, TwistStamped } from '../../../zinfra/ros2/messages.js';
import { startRos2Node } from '../../../zinfra/ros2/start-node.js';
import { SIM_TOPICS, SimulatedTabletopRobot, simulatedRobotConfig } from './simulated-robot.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-ros2-zmq-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('zetta ros2 start-up on the in-memory graph (test double) with a ZeroMQ policy server', () => {
  it('drives the simulated robot with chunks over ZeroMQ in real time, and closes the bag on shutdown', async () => {
    const onnx = await loadOnnxFile(EMBEDDED_POLICY_PATH);
    const server = await PolicyServer.start(onnx, { bind: `ipc://${join(dir, 'policy.sock')}` });
    const bus = new InMemoryRosBus();
    const robot = await SimulatedTabletopRobot.create(bus);
    await robot.reset({ task: 'spatial/left_cube_in_bowl', seed: 1000 });
    const twists = bus.capture<TwistStamped>('geometry_msgs/TwistStamped', SIM_TOPICS.twist);
    const diagnostics = bus.capture<DiagnosticArray>('diagnostic_msgs/DiagnosticArray', '/diagnostics');
    // The robot publishes its state every 10 ms and steps whenever a twist came since its last step.
    const drive = setInterval(() => {
      if (robot.commandsSinceStep > 0) robot.step();
      robot.publishState(performance.now());
    }, 10);
    const config = parseRos2Config(
      simulatedRobotConfig('spatial/left_cube_in_bowl', { policy: server.endpoint, recording: { dir, enabled: true } }),
    );
    const running = await startRos2Node(config, { graph: async (name) => bus.node(name) });
    try {
      while (twists.filter((t) => t.twist.linear.x !== 0 || t.twist.linear.z !== 0).length < 10)
        await new Promise((r) => setTimeout(r, 20));
      expect(running.node.link.answered).toBeGreaterThan(0);
      expect(running.node.link.lastError).toBeNull();
    } finally {
      clearInterval(drive);
      const bag = await running.shutdown();
      await server.close();
      await onnx.close();
      await robot.close();
      expect(bag).not.toBeNull();
      expect(existsSync(bag!)).toBe(true);
    }
    const last = twists.at(-1)!.twist;
    expect([last.linear.x, last.linear.y, last.linear.z, last.angular.x, last.angular.y, last.angular.z]).toEqual([0, 0, 0, 0, 0, 0]);
    expect(diagnostics[0]!.status.find((s) => s.name === 'zetta: policy link')).toBeDefined();
  }, 60_000);

  it('holds the robot while the policy server is gone and drives again when it comes back on the same address', async () => {
    const onnx = await loadOnnxFile(EMBEDDED_POLICY_PATH);
    const endpoint = `ipc://${join(dir, 'policy-restart.sock')}`;
    let server = await PolicyServer.start(onnx, { bind: endpoint });
    const bus = new InMemoryRosBus();
    const robot = await SimulatedTabletopRobot.create(bus);
    await robot.reset({ task: 'spatial/left_cube_in_bowl', seed: 1001 });
    const twists = bus.capture<TwistStamped>('geometry_msgs/TwistStamped', SIM_TOPICS.twist);
    const drive = setInterval(() => {
      if (robot.commandsSinceStep > 0) robot.step();
      robot.publishState(performance.now());
    }, 10);
    const moving = (t: TwistStamped) => t.twist.linear.x !== 0 || t.twist.linear.y !== 0 || t.twist.linear.z !== 0;
    const until = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 20));
    };
    const config = parseRos2Config(simulatedRobotConfig('spatial/left_cube_in_bowl', { policy: endpoint, recording: { enabled: false } }));
    const running = await startRos2Node(config, { graph: async (name) => bus.node(name) });
    try {
      await until(() => twists.filter(moving).length >= 5);
      await server.close();
      // Once the queued actions are spent, every command is a hold, for as long as the server is away.
      const gone = twists.length;
      await until(() => twists.length >= gone + 40);
      expect(twists.slice(gone + 20).some(moving)).toBe(false);
      server = await PolicyServer.start(onnx, { bind: endpoint });
      const back = twists.length;
      await until(() => twists.slice(back).some(moving));
    } finally {
      clearInterval(drive);
      await running.shutdown();
      await server.close();
      await onnx.close();
      await robot.close();
    }
  }, 60_000);
});
