// The simulated camera's rasterizer, pixel by pixel: a solid's outline seen from above lands where
// the view puts it (the robot's side at the bottom, its left on the left), at its size, in its
// colour; higher solids cover lower ones whatever the list's order; a turned box or a cylinder on its
// side casts the outline it should; what lies off the image is clipped.
import { describe, expect, it } from 'vitest';
import type { SceneSolid, SolidShape } from '../../../sim/scene-geometry.js';
import { BACKGROUND_RGB, TopDownRasterizer } from '../../../zinfra/ros2/top-down-rasterizer.js';

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];
/** 100 × 100 pixels of 1 cm over the world's origin. */
const VIEW = { centreX: 0, centreY: 0, span: 1 };
const SIDE = 100;

function solid(
  shape: SolidShape,
  size: [number, number, number],
  rgb: [number, number, number],
  at: [number, number, number],
  rotation = IDENTITY,
): SceneSolid {
  return { shape, size, rgb, position: Float64Array.from(at), rotation: Float64Array.from(rotation) };
}

/** Rotation about the world z axis by `a` (row-major). */
const yaw = (a: number) => [Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a), 0, 0, 0, 1];

function draw(solids: SceneSolid[]): {
  at(col: number, row: number): number[];
  count(rgb: number[]): number;
  box(rgb: number[]): number[];
} {
  const out = new TopDownRasterizer(VIEW, SIDE, SIDE).draw(solids, new Uint8Array(SIDE * SIDE * 3));
  const at = (col: number, row: number) => [...out.subarray((row * SIDE + col) * 3, (row * SIDE + col) * 3 + 3)];
  const matches = (col: number, row: number, rgb: number[]) => at(col, row).every((v, k) => v === rgb[k]);
  const cells = () => Array.from({ length: SIDE * SIDE }, (_, i) => [i % SIDE, Math.floor(i / SIDE)] as const);
  return {
    at,
    count: (rgb) => cells().filter(([c, r]) => matches(c, r, rgb)).length,
    /** [first column, last column, first row, last row] of the pixels in `rgb`. */
    box: (rgb) => {
      const hits = cells().filter(([c, r]) => matches(c, r, rgb));
      return [
        Math.min(...hits.map(([c]) => c)),
        Math.max(...hits.map(([c]) => c)),
        Math.min(...hits.map(([, r]) => r)),
        Math.max(...hits.map(([, r]) => r)),
      ];
    },
  };
}

const RED = [255, 0, 0];
const GREEN = [0, 255, 0];
const red: [number, number, number] = [1, 0, 0];
const green: [number, number, number] = [0, 1, 0];

describe('the top-down rasterizer of the simulated camera', () => {
  it('fills an upright box as its footprint, in its colour, the rest background', () => {
    // 10 cm × 20 cm (x × y) centred on the origin: 10 rows × 20 columns in the middle
    const img = draw([solid('box', [0.05, 0.1, 0.02], red, [0, 0, 0.02])]);
    expect(img.count(RED)).toBe(200);
    expect(img.box(RED)).toEqual([40, 59, 45, 54]);
    expect(img.at(0, 0)).toEqual([...BACKGROUND_RGB]);
  });

  it('puts +x toward the top of the image and +y toward its left', () => {
    const img = draw([solid('box', [0.02, 0.02, 0.02], red, [0.3, 0, 0.02]), solid('box', [0.02, 0.02, 0.02], green, [0, 0.3, 0.02])]);
    const [redLeft, redRight, redTop, redBottom] = img.box(RED);
    expect([(redLeft + redRight + 1) / 2, (redTop + redBottom + 1) / 2]).toEqual([50, 20]);
    const [greenLeft, greenRight, greenTop, greenBottom] = img.box(GREEN);
    expect([(greenLeft + greenRight + 1) / 2, (greenTop + greenBottom + 1) / 2]).toEqual([20, 50]);
  });

  it('draws higher solids over lower ones whatever their order in the list', () => {
    const low = solid('box', [0.1, 0.1, 0.01], red, [0, 0, 0.01]);
    const high = solid('cylinder', [0.05, 0.05, 0], green, [0, 0, 0.1]);
    for (const order of [
      [low, high],
      [high, low],
    ]) {
      const img = draw(order);
      expect(img.at(50, 50)).toEqual(GREEN);
      expect(img.at(42, 50)).toEqual(RED); // beside the disc, still on the box
      expect(img.count(GREEN)).toBeGreaterThan(70); // a disc of radius 5 px: π·25 ≈ 79
      expect(img.count(GREEN)).toBeLessThan(82);
    }
  });

  it('turns a box with its rotation: a square at 45° reaches its half diagonal', () => {
    const square = (rotation: number[]) => draw([solid('box', [0.1, 0.1, 0.01], red, [0, 0, 0.01], rotation)]);
    // 12.5 cm along +y from the centre: outside the upright square (half side 10 cm), inside the turned one (half diagonal 14 cm)
    expect(square(IDENTITY).at(37, 50)).toEqual([...BACKGROUND_RGB]);
    expect(square(yaw(Math.PI / 4)).at(37, 50)).toEqual(RED);
    // and near the upright square's corner (8.5 cm along x and y) the turned one has cut it away
    expect(square(IDENTITY).at(41, 41)).toEqual(RED);
    expect(square(yaw(Math.PI / 4)).at(41, 41)).toEqual([...BACKGROUND_RGB]);
  });

  it('casts a cylinder on its side as a long rectangle, not a disc', () => {
    // axis along world x (local z → x): radius 2 cm, half length 10 cm → 20 rows × 4 columns
    const alongX = [0, 0, 1, 0, 1, 0, -1, 0, 0];
    const img = draw([solid('cylinder', [0.02, 0.1, 0], green, [0, 0, 0.02], alongX)]);
    expect(img.box(GREEN)).toEqual([48, 51, 40, 59]);
  });

  it('draws a capsule and a sphere as the discs and band they cast', () => {
    const img = draw([
      solid('sphere', [0.05, 0, 0], red, [0.3, 0.3, 0.05]),
      solid('capsule', [0.02, 0.1, 0], green, [0, 0, 0.02], [0, 0, 1, 0, 1, 0, -1, 0, 0]),
    ]);
    expect(img.box(RED)).toEqual([15, 24, 15, 24]);
    // half length 10 cm plus the 2 cm end caps along x
    expect(img.box(GREEN)).toEqual([48, 51, 38, 61]);
  });

  it('clips a solid that lies partly off the image', () => {
    const img = draw([solid('box', [0.1, 0.1, 0.01], red, [0.5, 0.5, 0.01])]);
    expect(img.box(RED)).toEqual([0, 9, 0, 9]);
    expect(img.count(RED)).toBe(100);
  });
});
