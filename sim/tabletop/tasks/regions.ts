// Where things count as "in" or "on" other things, measured from simulation state. Shared by the
// goal predicates, the milestones and the scripted expert, so all three agree on what "placed" is.
import { BOWL } from '../scene/bowl.js';
import { CABINET } from '../scene/cabinet.js';
import { PLATE } from '../scene/plate.js';
import type { FixtureRef, MovableRef, World } from '../world.js';

export const UP_HEIGHT = 0.08;

export type Place = { readonly kind: 'movable'; readonly ref: MovableRef } | { readonly kind: 'fixture'; readonly ref: FixtureRef };

export function resolvePlace(world: World, name: string): Place {
  const m = world.movables.get(name);
  if (m !== undefined) return { kind: 'movable', ref: m };
  return { kind: 'fixture', ref: world.fixture(name) };
}

/** Horizontal distance between the centres of two bodies. */
export function planarDistance(world: World, a: number, b: number, dx = 0, dy = 0): number {
  const p = world.xpos;
  return Math.hypot(p[3 * a]! - p[3 * b]! - dx, p[3 * a + 1]! - p[3 * b + 1]! - dy);
}

/** The point (x, y) an object should be put down at to end up In/On `place`. */
export function dropPoint(world: World, place: Place, out: Float64Array, offset?: readonly [number, number]): void {
  const p = world.xpos;
  const body = place.kind === 'fixture' && place.ref.spec.kind === 'cabinet' ? place.ref.part : place.ref.body;
  out[0] = p[3 * body]! + (offset?.[0] ?? 0);
  out[1] = p[3 * body + 1]! + (offset?.[1] ?? 0);
  // Into a drawer: near its front, the part that is out of the cabinet when open.
  if (place.kind === 'fixture' && place.ref.spec.kind === 'cabinet') out[0] += CABINET.interior.xMin + 0.065;
}

/** Height of the surface an object is put down on (its bottom rests there). */
export function supportHeight(world: World, place: Place): number {
  if (place.kind === 'movable') return world.xpos[3 * place.ref.body + 2]! + place.ref.spec.halfHeight;
  switch (place.ref.spec.kind) {
    case 'plate':
      return PLATE.thickness;
    case 'bowl':
      return BOWL.base;
    case 'cabinet':
      return CABINET.interior.floorZ;
    case 'button':
      return 0;
  }
}

/** The object lies inside (bowl, drawer) or on (plate, another object) `place`, held or not. */
export function inRegion(world: World, obj: MovableRef, place: Place): boolean {
  const p = world.xpos;
  const o = obj.body;
  const z = p[3 * o + 2]!;
  const bottom = z - obj.spec.halfHeight;
  if (place.kind === 'movable') {
    const t = place.ref;
    const top = p[3 * t.body + 2]! + t.spec.halfHeight;
    return planarDistance(world, o, t.body) < t.spec.halfWidth + 0.006 && Math.abs(bottom - top) < 0.015;
  }
  const f = place.ref;
  switch (f.spec.kind) {
    case 'bowl':
      return planarDistance(world, o, f.body) < BOWL.innerRadius - 0.008 && bottom < BOWL.base + 0.02;
    case 'plate':
      return planarDistance(world, o, f.body) < PLATE.radius - 0.008 && Math.abs(bottom - PLATE.thickness) < 0.015;
    case 'cabinet': {
      const i = CABINET.interior;
      const lx = p[3 * o]! - p[3 * f.part]!;
      const ly = p[3 * o + 1]! - p[3 * f.part + 1]!;
      return lx > i.xMin && lx < i.xMax && Math.abs(ly) < i.halfY && z < i.wallTop;
    }
    case 'button':
      return false;
  }
}
