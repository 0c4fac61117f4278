// The simulated robot's camera on a real ROS 2 graph: `zetta sim-robot` (its default 128 × 128
// camera) in lockstep with `zetta ros2` configured with /camera/image_raw as a camera, beside a
// policy server, as three processes. From outside, over DDS: one sensor_msgs/Image per step, stamped
// with the simulated time of the state beside it, that the node's camera decoder reads at 128 × 128;
// the red cubes' pixels sit where the robot's object poses of the same stamp put them, and move as
// the policy carries a cube to the bowl. The node took the frames: /diagnostics says they arrive,
// and its bag holds them. Skipped, with the reason in the name, where ROS 2 or rclnodejs is missing.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RgbImage, rawToRgb } from '../../../zinfra/ros2/camera-image.js';
import type { DiagnosticArray, ImageMessage, PoseArray } from '../../../zinfra/ros2/messages.js';
import { msOf } from '../../../zinfra/ros2/messages.js';
import { RclnodejsGraph } from '../../../zinfra/ros2/rclnodejs-graph.js';
import { readBag } from './bag-reading.js';
import { CUBE_RED, colourPatch, distance, pixelsNear, seenAt } from './camera-pixels.js';
import { realGraphMissing, simRobotEpisodes, policyServerForSuite, startZetta, useDomain } from './real-graph-support.js';
import { SIM_TOPICS, simulatedRobotConfig } from './simulated-robot.js';

const missing = await realGraphMissing();
useDomain(14);
const TITLE = missing
  ? `the simulated robot's camera over DDS (skipped: ${missing}; source a ROS 2 installation and install rclnodejs to run it)`
  : `the simulated robot's camera over DDS on ROS 2 ${process.env.ROS_DISTRO}: zetta sim-robot's images, received by zetta ros2`;

const TASK = 'spatial/left_cube_in_bowl';
const SEED = 1000;
const CAMERA_KEY = 'observation/image';
/** Pixels around a cube's centre that count as its own: 2.5 cm at 6.25 mm a pixel, inside its outline but for the corners. */
const NEAR_PX = 4;

describe.skipIf(missing !== null)(TITLE, () => {
  const { dir, endpoint } = policyServerForSuite('zetta-ros2-camera-');

  it('publishes a 128 × 128 rgb8 image each step that zetta ros2 takes, the cubes drawn where they are', async () => {
    const name = `zetta_camera_${process.pid}`;
    const base = simulatedRobotConfig(TASK);
    const config = simulatedRobotConfig(TASK, {
      node_name: name,
      policy: endpoint,
      use_sim_time: true,
      inputs: { ...(base.inputs as object), cameras: [{ key: CAMERA_KEY, topic: SIM_TOPICS.camera, type: 'sensor_msgs/Image' }] },
      recording: { dir: join(dir, 'bags'), enabled: true },
    });
    writeFileSync(join(dir, 'node.json'), JSON.stringify(config));
    const node = startZetta(['ros2', '--config', join(dir, 'node.json')]);
    const graph = await RclnodejsGraph.open(`zetta_camera_listener_${process.pid}`);
    const frames = new Map<number, { message: ImageMessage; rgb: RgbImage }>();
    const poses = new Map<number, PoseArray>();
    const cameraStatus: string[] = [];
    graph.subscribe<ImageMessage>('sensor_msgs/Image', SIM_TOPICS.camera, 'reliable', (m) =>
      frames.set(msOf(m.header.stamp), { message: m, rgb: rawToRgb(m) }),
    );
    graph.subscribe<PoseArray>('geometry_msgs/PoseArray', SIM_TOPICS.objects, 'reliable', (m) => poses.set(msOf(m.header.stamp), m));
    graph.subscribe<DiagnosticArray>('diagnostic_msgs/DiagnosticArray', '/diagnostics', 'reliable', (m) => {
      for (const s of m.status) if (s.name === `${name}: camera ${CAMERA_KEY}`) cameraStatus.push(`${s.level} ${s.message}`);
    });
    try {
      await node.waitFor(new RegExp(`node /${name} running`), 60_000);
      const [episode] = await simRobotEpisodes(TASK, ['--seed', String(SEED)]);
      const steps = episode!.steps;
      // One frame per period the robot published its state: t = 0, 50, …, (steps − 1) × 50 ms.
      expect([...frames.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: steps }, (_, i) => i * 50));
      const first = frames.get(0)!;
      const last = frames.get((steps - 1) * 50)!;
      expect(first.message).toMatchObject({ width: 128, height: 128, encoding: 'rgb8', step: 384 });
      expect([first.rgb.width, first.rgb.height, first.rgb.data.byteLength]).toEqual([128, 128, 128 * 128 * 3]);
      expect(episode!.success).toBe(true);
      // At the start both red cubes are in view: their pixels are centred on their poses.
      const cubesAtStart = poses.get(0)!.poses.slice(0, 2);
      const cubesAtEnd = poses.get((steps - 1) * 50)!.poses.slice(0, 2);
      expect(distance(colourPatch(first.rgb, CUBE_RED).centre, seenAt(cubesAtStart, 128, 128))).toBeLessThan(1.5);
      // The cube the policy carried to the bowl: its red pixels left where it was and came where it went
      // (fewer there: the gripper above it hides part of it).
      const moved = [0, 1].sort(
        (a, b) =>
          distance(seenAt([cubesAtEnd[b]!], 128, 128), seenAt([cubesAtStart[b]!], 128, 128)) -
          distance(seenAt([cubesAtEnd[a]!], 128, 128), seenAt([cubesAtStart[a]!], 128, 128)),
      )[0]!;
      const from = seenAt([cubesAtStart[moved]!], 128, 128);
      const to = seenAt([cubesAtEnd[moved]!], 128, 128);
      const near = (f: { rgb: RgbImage }, at: [number, number]) => pixelsNear(f.rgb, CUBE_RED, at, NEAR_PX);
      console.log(
        `seed ${SEED}: ${episode!.success ? 'success' : 'failure'} after ${steps} steps; cube ${moved + 1} seen at (${from.map((v) => v.toFixed(1))}) → ` +
          `(${to.map((v) => v.toFixed(1))}); red pixels there: ${near(first, from)} → ${near(last, from)} and ${near(first, to)} → ${near(last, to)}`,
      );
      expect(distance(from, to)).toBeGreaterThan(3 * NEAR_PX);
      expect(near(first, from)).toBeGreaterThan(25);
      expect(near(last, from)).toBe(0);
      expect(near(first, to)).toBe(0);
      expect(near(last, to)).toBeGreaterThan(5);
    } finally {
      await graph.close();
      expect(await node.stop('SIGINT')).toBe(0);
    }
    expect(cameraStatus.length).toBeGreaterThan(0);
    expect(cameraStatus.at(-1)).toBe('0 frames arriving');
    const bags = readdirSync(join(dir, 'bags')).filter((f) => f.endsWith('.mcap'));
    const recorded: { logTimeMs: number; message: ImageMessage }[] = [];
    for (const f of bags) {
      const bag = await readBag(join(dir, 'bags', f));
      if (bag.topics.includes(SIM_TOPICS.camera)) recorded.push(...(await bag.records<ImageMessage>(SIM_TOPICS.camera)));
    }
    expect(recorded.length).toBeGreaterThan(0);
    expect(rawToRgb(recorded[0]!.message)).toMatchObject({ width: 128, height: 128 });
    // Recorded on the node's clock, which moves to t at the tick for t: a frame stamped t > 0 recorded
    // before t came in before that tick, so the policy's observation for t could carry it. Said, not
    // required (the node does not wait for frames); t = 0 cannot tell (the clock starts there).
    const after0 = recorded.filter((r) => msOf(r.message.header.stamp) > 0);
    const inTime = after0.filter((r) => r.logTimeMs < msOf(r.message.header.stamp)).length;
    console.log(
      `the node recorded ${recorded.length} frames; of the ${after0.length} after t = 0, ${inTime} came in before the tick of their period`,
    );
  }, 300_000);
});
