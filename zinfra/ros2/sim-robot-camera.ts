// The simulated robot's camera: a sensor_msgs/Image (rgb8) of the tabletop, looking straight down
// onto the table. The embedded simulator has no photorealistic renderer, so the image is drawn from
// the simulator's geometry by a small software rasterizer (top-down-rasterizer.ts): the table, the
// objects, the fixtures and the gripper as the outlines they cast from above, flat in their
// colours. It goes out with the rest of the robot's state, stamped with the same (simulated) time,
// so a seed gives the same images every time. One image buffer, overwritten each step.
import type { SceneSolid } from '../../sim/scene-geometry.js';
import type { Publisher, RosGraph } from './graph.js';
import { INPUT_TYPES, type ImageMessage, stampOf } from './messages.js';
import { TopDownRasterizer, type TopDownView } from './top-down-rasterizer.js';

export interface CameraSize {
  readonly width: number;
  readonly height: number;
}

/** Small by default: a policy resizes it anyway, and a lockstep step should not wait on pixels. */
export const DEFAULT_CAMERA_SIZE: CameraSize = { width: 128, height: 128 };

/** Bounds on each side, so a typo cannot ask for a gigabyte a step. */
export const CAMERA_SIDE_RANGE = { min: 8, max: 1024 } as const;

/** Where the tabletop robot's camera looks: 0.8 m across, the reachable table and the cabinets' anchors in view. */
export const TABLETOP_CAMERA_VIEW: TopDownView = { centreX: 0.04, centreY: 0, span: 0.8 };

export const CAMERA_FRAME_ID = 'top_camera';

/** `WIDTHxHEIGHT` (e.g. `128x128`), or `off` for no camera (null); anything else throws, saying what is expected. */
export function parseCameraSize(text: string): CameraSize | null {
  if (text === 'off') return null;
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(text);
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  const { min, max } = CAMERA_SIDE_RANGE;
  if (!m || width < min || width > max || height < min || height > max)
    throw new Error(`--camera must be WIDTHxHEIGHT with each side from ${min} to ${max} (e.g. 128x128), or off; got "${text}"`);
  return { width, height };
}

export class SimRobotCamera {
  private readonly rasterizer: TopDownRasterizer;
  private readonly image: ImageMessage;
  private readonly publisher: Publisher<ImageMessage>;

  constructor(graph: RosGraph, topic: string, size: CameraSize, view: TopDownView = TABLETOP_CAMERA_VIEW) {
    this.rasterizer = new TopDownRasterizer(view, size.width, size.height);
    this.image = {
      header: { stamp: { sec: 0, nanosec: 0 }, frame_id: CAMERA_FRAME_ID },
      height: size.height,
      width: size.width,
      encoding: 'rgb8',
      is_bigendian: 0,
      step: size.width * 3,
      data: new Uint8Array(size.width * size.height * 3),
    };
    this.publisher = graph.advertise(INPUT_TYPES.image, topic, 'reliable');
  }

  /** Draws `solids` and publishes the image stamped `nowMs`. */
  publish(solids: readonly SceneSolid[], nowMs: number): void {
    this.rasterizer.draw(solids, this.image.data);
    stampOf(nowMs, this.image.header.stamp);
    this.publisher.publish(this.image);
  }
}
