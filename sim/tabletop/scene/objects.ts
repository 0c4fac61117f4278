// Graspable objects: cubes and cylinders on free joints, in named colours and a few sizes.
import { quatFromYaw } from '../../math/quat.js';
import { el, type XmlNode } from '../mjcf/xml.js';
import { objectContact } from './contact.js';
import type { MovableSpec, Shape } from './spec.js';

export const COLOURS = {
  red: [0.85, 0.15, 0.12, 1],
  green: [0.2, 0.7, 0.25, 1],
  blue: [0.15, 0.3, 0.85, 1],
  yellow: [0.95, 0.8, 0.1, 1],
  orange: [0.95, 0.5, 0.1, 1],
  purple: [0.55, 0.25, 0.7, 1],
  white: [0.92, 0.92, 0.9, 1],
} as const satisfies Record<string, readonly [number, number, number, number]>;

export type Colour = keyof typeof COLOURS;

/** Nominal sizes: [halfWidth, halfHeight] in metres. */
export const SIZES: Record<Shape, Record<'small' | 'medium', readonly [number, number]>> = {
  cube: { small: [0.02, 0.02], medium: [0.025, 0.025] },
  cylinder: { small: [0.02, 0.03], medium: [0.024, 0.035] },
};

export const NOMINAL_MASS = 0.1;
export const NOMINAL_FRICTION = 1;

export function movableBody(m: MovableSpec): XmlNode {
  const geom =
    m.shape === 'cube'
      ? { type: 'box', size: [m.halfWidth, m.halfWidth, m.halfHeight] }
      : { type: 'cylinder', size: [m.halfWidth, m.halfHeight] };
  return el('body', { name: m.name, pos: [m.x, m.y, m.halfHeight], quat: quatFromYaw(m.yaw) }, [
    el('freejoint', { name: m.name }),
    el('geom', { name: m.name, ...geom, mass: m.mass, rgba: m.rgba, ...objectContact(m.friction) }),
  ]);
}
