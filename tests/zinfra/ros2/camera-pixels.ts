// For the tests of the simulated robot's camera: where a colour is in an image (the centre of its
// pixels), and where the camera's view puts objects whose poses the robot reported.
import { COLOURS } from '../../../sim/tabletop/scene/objects.js';
import type { RgbImage } from '../../../zinfra/ros2/camera-image.js';
import type { Pose } from '../../../zinfra/ros2/messages.js';
import { TABLETOP_CAMERA_VIEW } from '../../../zinfra/ros2/sim-robot-camera.js';
import { TopDownRasterizer } from '../../../zinfra/ros2/top-down-rasterizer.js';

/** The red cubes' colour as the camera draws it (flat: every pixel of a cube seen from above is exactly this). */
export const CUBE_RED = COLOURS.red.slice(0, 3).map((c) => Math.round(c * 255));

export interface ColourPatch {
  readonly pixels: number;
  /** Column and row of the pixels' centre (a pixel's centre at +0.5, as TopDownRasterizer.pixelOf gives). */
  readonly centre: readonly [number, number];
}

/** The pixels of exactly `rgb` in `image`. */
export function colourPatch(image: RgbImage, rgb: readonly number[]): ColourPatch {
  let pixels = 0;
  let cols = 0;
  let rows = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const d = image.data;
    if (d[3 * i] !== rgb[0] || d[3 * i + 1] !== rgb[1] || d[3 * i + 2] !== rgb[2]) continue;
    pixels++;
    cols += (i % image.width) + 0.5;
    rows += Math.floor(i / image.width) + 0.5;
  }
  return { pixels, centre: [cols / pixels, rows / pixels] };
}

/** How many pixels of exactly `rgb` have their centre within `radius` pixels of `centre`. */
export function pixelsNear(image: RgbImage, rgb: readonly number[], centre: readonly [number, number], radius: number): number {
  let n = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const d = image.data;
    if (d[3 * i] !== rgb[0] || d[3 * i + 1] !== rgb[1] || d[3 * i + 2] !== rgb[2]) continue;
    if (Math.hypot((i % image.width) + 0.5 - centre[0], Math.floor(i / image.width) + 0.5 - centre[1]) <= radius) n++;
  }
  return n;
}

/** Where the tabletop camera of that size sees the mean position of `poses`. */
export function seenAt(poses: readonly Pose[], width: number, height: number): [number, number] {
  const x = poses.reduce((s, p) => s + p.position.x, 0) / poses.length;
  const y = poses.reduce((s, p) => s + p.position.y, 0) / poses.length;
  return new TopDownRasterizer(TABLETOP_CAMERA_VIEW, width, height).pixelOf(x, y);
}

export const distance = (a: readonly [number, number], b: readonly [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);
