// The simulated robot's camera on the in-memory graph (a test double): a sensor_msgs/Image in rgb8
// at the size asked for, stamped as the state is, that the node's camera decoder reads; the red
// cubes' pixels are where the robot's own object poses put them, and move with them from one seed's
// scene to another's; the same seed gives the same image; no camera, no image; --camera's sizes.
import { afterEach, describe, expect, it } from 'vitest';
import { rawToRgb } from '../../../zinfra/ros2/camera-image.js';
import { InMemoryRosBus } from '../../../zinfra/ros2/memory-graph.js';
import type { ImageMessage, PoseArray } from '../../../zinfra/ros2/messages.js';
import { parseCameraSize } from '../../../zinfra/ros2/sim-robot-camera.js';
import type { TabletopRobot } from '../../../zinfra/ros2/tabletop-robot.js';
import { CUBE_RED, colourPatch, distance, seenAt } from './camera-pixels.js';
import { SIM_TOPICS, SimulatedTabletopRobot } from './simulated-robot.js';

const TASK = 'spatial/left_cube_in_bowl';
const robots: TabletopRobot[] = [];
afterEach(async () => {
  for (const r of robots.splice(0)) await r.close();
});

async function robotWithCamera(width: number, height: number) {
  const bus = new InMemoryRosBus();
  const robot = await SimulatedTabletopRobot.create(bus, 20, { camera: { width, height } });
  robots.push(robot);
  const images = bus.capture<ImageMessage>('sensor_msgs/Image', SIM_TOPICS.camera);
  const poses = bus.capture<PoseArray>('geometry_msgs/PoseArray', SIM_TOPICS.objects);
  /** The first frame of `seed`'s scene, decoded as the node decodes it, with the poses published beside it. */
  const frameOf = async (seed: number, t = 0) => {
    await robot.reset({ task: TASK, seed });
    robot.publishState(t);
    return { message: images.at(-1)!, rgb: rawToRgb(images.at(-1)!), poses: poses.at(-1)!.poses };
  };
  return { robot, frameOf, images };
}

describe('the simulated robot’s camera', () => {
  it('publishes an rgb8 Image of the size asked for, stamped with the state’s time, that the node’s decoder reads', async () => {
    const { frameOf } = await robotWithCamera(160, 120);
    const { message, rgb } = await frameOf(1000, 2050);
    expect(message).toMatchObject({ width: 160, height: 120, encoding: 'rgb8', step: 480, is_bigendian: 0 });
    expect(message.header.stamp).toEqual({ sec: 2, nanosec: 50_000_000 });
    expect(message.data.byteLength).toBe(160 * 120 * 3);
    expect([rgb.width, rgb.height]).toEqual([160, 120]);
  });

  it('draws the red cubes where their poses are, and moves them with the scene from one seed to another', async () => {
    const { frameOf } = await robotWithCamera(128, 128);
    const centres: [number, number][] = [];
    for (const seed of [1000, 1003]) {
      const { rgb, poses } = await frameOf(seed);
      const red = colourPatch(rgb, CUBE_RED);
      // Two cubes of 4 cm seen from above at 6.25 mm a pixel: about 2 × 41 pixels (less where the gripper hides one).
      expect(red.pixels).toBeGreaterThan(40);
      expect(red.pixels).toBeLessThan(120);
      // The cubes are the first two poses (red_cube_1, red_cube_2): their pixels are centred on them.
      expect(distance(red.centre, seenAt(poses.slice(0, 2), 128, 128))).toBeLessThan(1.5);
      centres.push([red.centre[0], red.centre[1]]);
    }
    expect(distance(centres[0]!, centres[1]!)).toBeGreaterThan(1);
  });

  it('gives the same image for the same seed', async () => {
    const { frameOf } = await robotWithCamera(64, 64);
    const first = Buffer.from((await frameOf(1000)).rgb.data);
    await frameOf(1001);
    expect(Buffer.from((await frameOf(1000)).rgb.data).equals(first)).toBe(true);
  });

  it('publishes no image without a camera', async () => {
    const bus = new InMemoryRosBus();
    const robot = await SimulatedTabletopRobot.create(bus);
    robots.push(robot);
    const images = bus.capture<ImageMessage>('sensor_msgs/Image', SIM_TOPICS.camera);
    const poses = bus.capture<PoseArray>('geometry_msgs/PoseArray', SIM_TOPICS.objects);
    await robot.reset({ task: TASK, seed: 1000 });
    robot.publishState(0);
    expect(poses).toHaveLength(1); // the state went out, the image did not
    expect(images).toHaveLength(0);
  });

  it('reads --camera as WIDTHxHEIGHT within bounds, or off', () => {
    expect(parseCameraSize('64x48')).toEqual({ width: 64, height: 48 });
    expect(parseCameraSize('off')).toBeNull();
    for (const bad of ['128', '4x4', '128x2000', '128X128', ' 128x128', '-1x5'])
      expect(() => parseCameraSize(bad)).toThrow(/--camera must be WIDTHxHEIGHT with each side from 8 to 1024/);
  });
});
