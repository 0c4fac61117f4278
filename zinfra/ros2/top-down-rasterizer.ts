// A small software rasterizer for a simulated robot's camera. It looks straight down onto the table
// (an orthographic view: no perspective) and fills, flat in its colour, the outline every solid of
// the simulator's scene (sim/scene-geometry.ts) casts from above, higher solids over lower ones
// (the painter's order by each solid's top). This is a drawing of the simulator's geometry, not a
// photorealistic rendering: no lighting, shading, shadows or texture. The same scene gives the same
// pixels every time. Image orientation: the robot's side of the table (−x) at the bottom, the
// robot's left (+y) on the left.
import type { SceneSolid } from '../../sim/scene-geometry.js';

export interface TopDownView {
  /** The world point (m) under the image's centre. */
  readonly centreX: number;
  readonly centreY: number;
  /** Metres across the image's shorter side. */
  readonly span: number;
}

/** Off the table: a dark floor. */
export const BACKGROUND_RGB: readonly [number, number, number] = [40, 40, 40];

/** Points per circle of a round solid's outline (a cylinder's rim, a capsule's or sphere's end). */
const CIRCLE_POINTS = 16;
/** A cylinder's two rims or a capsule's two ends. */
const MAX_POINTS = 2 * CIRCLE_POINTS;

export class TopDownRasterizer {
  readonly metresPerPixel: number;
  private readonly points = new Float64Array(2 * MAX_POINTS);
  private readonly hull = new Float64Array(2 * (MAX_POINTS + 1));
  private readonly byPosition: number[] = [];
  private order: number[] = [];
  private tops = new Float64Array(0);

  constructor(
    readonly view: TopDownView,
    readonly width: number,
    readonly height: number,
  ) {
    this.metresPerPixel = view.span / Math.min(width, height);
  }

  /** Column and row of the world point (x, y), fractional: a pixel's centre is at +0.5. */
  pixelOf(x: number, y: number): [number, number] {
    return [
      this.width / 2 + (this.view.centreY - y) / this.metresPerPixel,
      this.height / 2 + (this.view.centreX - x) / this.metresPerPixel,
    ];
  }

  /** Draws `solids` into `out` (height × width × 3 bytes, rgb8, rows unpadded) and returns it. */
  draw(solids: readonly SceneSolid[], out: Uint8Array): Uint8Array {
    fillBackground(out);
    for (const i of this.paintingOrder(solids)) {
      const s = solids[i]!;
      const n = this.outline(s);
      const corners = convexHull(this.points, n, this.byPosition, this.hull);
      fillConvex(this.hull, corners, s.rgb, out, this.width, this.height);
    }
    return out;
  }

  /** Indices of `solids`, lowest top first (ties: in the scene's order), so higher ones cover lower ones. */
  private paintingOrder(solids: readonly SceneSolid[]): number[] {
    if (this.tops.length !== solids.length) {
      this.tops = new Float64Array(solids.length);
      this.order = solids.map((_, i) => i);
    }
    for (let i = 0; i < solids.length; i++) {
      this.tops[i] = topOf(solids[i]!);
      this.order[i] = i;
    }
    return this.order.sort((a, b) => this.tops[a]! - this.tops[b]! || a - b);
  }

  /** The solid's outline seen from above, as pixel points in `points`; returns how many. */
  private outline(s: SceneSolid): number {
    const [a, b, c] = s.size;
    const p = s.position;
    const r = s.rotation;
    let n = 0;
    switch (s.shape) {
      case 'box':
        for (const sx of [-a, a])
          for (const sy of [-b, b])
            for (const sz of [-c, c])
              n = this.put(n, p[0]! + r[0]! * sx + r[1]! * sy + r[2]! * sz, p[1]! + r[3]! * sx + r[4]! * sy + r[5]! * sz);
        return n;
      case 'cylinder':
        // Its two rims: radius a around the local z axis, at ±b along it.
        for (const end of [-b, b])
          for (let k = 0; k < CIRCLE_POINTS; k++) {
            const cs = a * Math.cos((2 * Math.PI * k) / CIRCLE_POINTS);
            const sn = a * Math.sin((2 * Math.PI * k) / CIRCLE_POINTS);
            n = this.put(n, p[0]! + r[0]! * cs + r[1]! * sn + r[2]! * end, p[1]! + r[3]! * cs + r[4]! * sn + r[5]! * end);
          }
        return n;
      case 'capsule':
        // A sphere of radius a at each end (±b along local z): each casts a disc.
        for (const end of [-b, b]) n = this.disc(n, p[0]! + r[2]! * end, p[1]! + r[5]! * end, a);
        return n;
      case 'sphere':
        return this.disc(n, p[0]!, p[1]!, a);
    }
  }

  /** The outline of a disc of `radius` around the world point (x, y), from point `n` on; returns the new count. */
  private disc(n: number, x: number, y: number, radius: number): number {
    for (let k = 0; k < CIRCLE_POINTS; k++)
      n = this.put(n, x + radius * Math.cos((2 * Math.PI * k) / CIRCLE_POINTS), y + radius * Math.sin((2 * Math.PI * k) / CIRCLE_POINTS));
    return n;
  }

  /** The world point (x, y) as pixel point `n` of `points`; returns n + 1. */
  private put(n: number, x: number, y: number): number {
    const [u, v] = this.pixelOf(x, y);
    this.points[2 * n] = u;
    this.points[2 * n + 1] = v;
    return n + 1;
  }
}

function fillBackground(out: Uint8Array): void {
  const [r, g, b] = BACKGROUND_RGB;
  for (let i = 0; i < out.length; i += 3) {
    out[i] = r;
    out[i + 1] = g;
    out[i + 2] = b;
  }
}

/** The highest point of the solid (m, world z). */
function topOf(s: SceneSolid): number {
  const [a, b, c] = s.size;
  const r = s.rotation;
  const z = s.position[2]!;
  switch (s.shape) {
    case 'box':
      return z + Math.abs(r[6]!) * a + Math.abs(r[7]!) * b + Math.abs(r[8]!) * c;
    case 'cylinder':
      return z + Math.abs(r[8]!) * b + a * Math.sqrt(Math.max(0, 1 - r[8]! * r[8]!));
    case 'capsule':
      return z + Math.abs(r[8]!) * b + a;
    case 'sphere':
      return z + a;
  }
}

/**
 * The convex hull of the first `n` points (x, y pairs) into `hull`, counter-clockwise in pixel
 * coordinates (Andrew's monotone chain); returns its corner count.
 */
function convexHull(points: Float64Array, n: number, scratch: number[], hull: Float64Array): number {
  scratch.length = n;
  for (let i = 0; i < n; i++) scratch[i] = i;
  scratch.sort((i, j) => points[2 * i]! - points[2 * j]! || points[2 * i + 1]! - points[2 * j + 1]!);
  const cross = (o: number, i: number) =>
    (hull[2 * (o + 1)]! - hull[2 * o]!) * (points[2 * i + 1]! - hull[2 * o + 1]!) -
    (hull[2 * (o + 1) + 1]! - hull[2 * o + 1]!) * (points[2 * i]! - hull[2 * o]!);
  let k = 0;
  const push = (i: number) => {
    hull[2 * k] = points[2 * i]!;
    hull[2 * k + 1] = points[2 * i + 1]!;
    k++;
  };
  for (let s = 0; s < n; s++) {
    while (k >= 2 && cross(k - 2, scratch[s]!) <= 0) k--;
    push(scratch[s]!);
  }
  for (let s = n - 2, lower = k + 1; s >= 0; s--) {
    while (k >= lower && cross(k - 2, scratch[s]!) <= 0) k--;
    push(scratch[s]!);
  }
  return Math.max(0, k - 1); // the last point repeats the first
}

/** Fills the pixels whose centres lie inside the convex polygon `corners` long, clipped to the image. */
function fillConvex(
  poly: Float64Array,
  corners: number,
  rgb: readonly [number, number, number],
  out: Uint8Array,
  width: number,
  height: number,
): void {
  if (corners < 3) return;
  let top = Infinity;
  let bottom = -Infinity;
  for (let i = 0; i < corners; i++) {
    top = Math.min(top, poly[2 * i + 1]!);
    bottom = Math.max(bottom, poly[2 * i + 1]!);
  }
  const r = Math.round(Math.min(1, Math.max(0, rgb[0])) * 255);
  const g = Math.round(Math.min(1, Math.max(0, rgb[1])) * 255);
  const b = Math.round(Math.min(1, Math.max(0, rgb[2])) * 255);
  const firstRow = Math.max(0, Math.ceil(top - 0.5));
  const lastRow = Math.min(height - 1, Math.floor(bottom - 0.5));
  for (let row = firstRow; row <= lastRow; row++) {
    const yc = row + 0.5;
    let left = Infinity;
    let right = -Infinity;
    for (let i = 0; i < corners; i++) {
      const j = (i + 1) % corners;
      const y0 = poly[2 * i + 1]!;
      const y1 = poly[2 * j + 1]!;
      if ((y0 <= yc && y1 > yc) || (y1 <= yc && y0 > yc)) {
        const x = poly[2 * i]! + ((yc - y0) * (poly[2 * j]! - poly[2 * i]!)) / (y1 - y0);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
    const firstCol = Math.max(0, Math.ceil(left - 0.5));
    const lastCol = Math.min(width - 1, Math.floor(right - 0.5));
    for (let col = firstCol, o = (row * width + firstCol) * 3; col <= lastCol; col++, o += 3) {
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
    }
  }
}
