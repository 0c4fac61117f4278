// On a machine with a sourced ROS 2 (ROS_DISTRO set) and a loadable rclnodejs: the node on a real
// ROS 2 graph, wall clock, a scripted policy (a test double) — state published by a second node
// reaches it over DDS, twists come back at the control rate, ~/estop and ~/resume answer. Skipped,
// with the reason in its name, everywhere else.
import { describe, expect, it } from 'vitest';
import { world as tabletop } from '../../../sim/tabletop/tabletop-world.js';
import { wallClock } from '../../../zinfra/ros2/clock.js';
import { parseRos2Config } from '../../../zinfra/ros2/config.js';
import type { JointState, PoseStamped, TwistStamped } from '../../../zinfra/ros2/messages.js';
import { runAtRate } from '../../../zinfra/ros2/node-loop.js';
import { RclnodejsGraph } from '../../../zinfra/ros2/rclnodejs-graph.js';
import { openRobotGovernance } from '../../../zinfra/ros2/robot-critic.js';
import { Ros2Node } from '../../../zinfra/ros2/ros2-node.js';
import { realGraphMissing, useDomain } from './real-graph-support.js';
import { ScriptedPolicy } from './scripted-policy.js';
import { FINGER_JOINTS, SIM_TOPICS, simulatedRobotConfig } from './simulated-robot.js';

const missing = await realGraphMissing();
useDomain(11);
const TITLE = missing
  ? `the node on a real ROS 2 graph (skipped: ${missing}; source a ROS 2 installation and install rclnodejs to run it)`
  : `the node on a real ROS 2 ${process.env.ROS_DISTRO} graph through rclnodejs`;

describe.skipIf(missing !== null)(TITLE, () => {
  it('gets robot state over DDS and publishes twists at the control rate; ~/estop holds, ~/resume releases', async () => {
    const config = parseRos2Config(simulatedRobotConfig('spatial/left_cube_in_bowl', { critic: 'none', node_name: 'zetta_it' }));
    const graph = await RclnodejsGraph.open('zetta_it');
    const robotGraph = await RclnodejsGraph.open('zetta_it_robot');
    const node = new Ros2Node({
      config,
      graph,
      clock: wallClock,
      policy: new ScriptedPolicy([0.3, 0, 0, 0, 0, 0, -1]),
      policyLabel: 'scripted',
      encoder: tabletop.policyEncoder(),
      features: tabletop.perception!.features(),
      governance: openRobotGovernance('none', tabletop.features, undefined, 20),
      timing: 'realtime',
      instruction: 'test',
    });
    node.start();
    await node.beginEpisode({ recordPath: null });
    const twists: TwistStamped[] = [];
    robotGraph.subscribe<TwistStamped>('geometry_msgs/TwistStamped', SIM_TOPICS.twist, 'reliable', (m) => twists.push(m));
    const js = robotGraph.advertise<JointState>('sensor_msgs/JointState', SIM_TOPICS.jointState, 'sensor-data');
    const pose = robotGraph.advertise<PoseStamped>('geometry_msgs/PoseStamped', SIM_TOPICS.pose, 'sensor-data');
    const feed = setInterval(() => {
      js.publish({
        header: { stamp: { sec: 0, nanosec: 0 }, frame_id: '' },
        name: [...FINGER_JOINTS],
        position: [0.04, 0.04],
        velocity: [],
        effort: [],
      });
      pose.publish({
        header: { stamp: { sec: 0, nanosec: 0 }, frame_id: 'world' },
        pose: { position: { x: 0.1, y: 0, z: 0.2 }, orientation: { w: 0, x: 1, y: 0, z: 0 } },
      });
    }, 20);
    const loop = runAtRate(() => node.tick(), 20, wallClock);
    try {
      await new Promise((r) => setTimeout(r, 2000));
      expect(twists.length).toBeGreaterThan(25); // ≈ 40 in 2 s; DDS discovery takes some
      // Driving: most ticks carry the policy's +x (a loaded machine may hold a tick on a late state).
      expect(twists.filter((t) => t.twist.linear.x > 0).length).toBeGreaterThan(twists.length / 2);
      node.latch.estopNow();
      await new Promise((r) => setTimeout(r, 300));
      expect(twists.at(-1)!.twist.linear.x).toBe(0);
    } finally {
      clearInterval(feed);
      loop.stop();
      await loop.stopped;
      await node.close();
      await robotGraph.close();
    }
  }, 20_000);
});
