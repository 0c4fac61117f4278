// Footprints on the table, to keep sampled layouts free of overlaps and reachable. Circles for
// objects and round fixtures; the cabinet keeps clear the rectangle its drawer sweeps when opened.
import { BOWL } from './scene/bowl.js';
import { BUTTON } from './scene/button.js';
import { CABINET } from './scene/cabinet.js';
import { PLATE } from './scene/plate.js';
import type { FixtureKind } from './scene/spec.js';

/** Where item centres may be: the part of the table the gripper reaches comfortably. */
export const WORKSPACE = { xMin: -0.24, xMax: 0.26, yMin: -0.32, yMax: 0.32 } as const;

export interface Footprint {
  /** The item's own position (a layout moves it by writing these). */
  x: number;
  y: number;
  /** Where the rectangle's centre is relative to (x, y) (the cabinet's sweep reaches forward). */
  readonly offsetX: number;
  readonly radius: number;
  /** Half extents of a rectangle (cabinet); zero for circles. */
  readonly halfX: number;
  readonly halfY: number;
  /** Extra clearance this item wants around it (fingers need room around graspable objects). */
  readonly margin: number;
}

export function fixtureFootprint(kind: FixtureKind, x: number, y: number): Footprint {
  switch (kind) {
    case 'bowl':
      return { x, y, offsetX: 0, radius: BOWL.innerRadius + BOWL.wall, halfX: 0, halfY: 0, margin: 0.01 };
    case 'plate':
      return { x, y, offsetX: 0, radius: PLATE.radius, halfX: 0, halfY: 0, margin: 0.01 };
    case 'button':
      return { x, y, offsetX: 0, radius: BUTTON.baseHalf * Math.SQRT2, halfX: 0, halfY: 0, margin: 0.02 };
    case 'cabinet': {
      // From the back of the cabinet to where the fingers are when the drawer is fully open.
      const front = CABINET.depth / 2 + CABINET.travel + 0.1;
      const halfX = (CABINET.depth / 2 + front) / 2;
      return { x, y, offsetX: CABINET.depth / 2 - halfX, radius: 0, halfX, halfY: CABINET.width / 2 + 0.03, margin: 0 };
    }
  }
}

export function movableFootprint(x: number, y: number, halfWidth: number, cube: boolean): Footprint {
  return { x, y, offsetX: 0, radius: cube ? halfWidth * Math.SQRT2 : halfWidth, halfX: 0, halfY: 0, margin: 0.03 };
}

export function overlaps(a: Footprint, b: Footprint): boolean {
  const gap = Math.max(a.margin, b.margin);
  if (a.halfX > 0 || b.halfX > 0) {
    const [rect, circle] = a.halfX > 0 ? [a, b] : [b, a];
    if (circle.halfX > 0) return Math.abs(a.x + a.offsetX - b.x - b.offsetX) < a.halfX + b.halfX && Math.abs(a.y - b.y) < a.halfY + b.halfY;
    const dx = Math.max(Math.abs(circle.x - rect.x - rect.offsetX) - rect.halfX, 0);
    const dy = Math.max(Math.abs(circle.y - rect.y) - rect.halfY, 0);
    return Math.hypot(dx, dy) < circle.radius + gap;
  }
  return Math.hypot(a.x - b.x, a.y - b.y) < a.radius + b.radius + gap;
}

export function insideWorkspace(f: Footprint): boolean {
  if (f.halfX > 0) return true; // the cabinet stands where the task puts it
  return f.x >= WORKSPACE.xMin && f.x <= WORKSPACE.xMax && f.y >= WORKSPACE.yMin && f.y <= WORKSPACE.yMax;
}

/** `f` fits among `others` (skipping index `self`). */
export function fits(f: Footprint, others: readonly Footprint[], self = -1): boolean {
  return insideWorkspace(f) && others.every((o, i) => i === self || !overlaps(f, o));
}
