// A cabinet with one sliding drawer and a bar handle. The cabinet's front faces the robot (−x); the
// drawer slides out toward the robot. Its top is open, so an open drawer can be filled from above,
// and the cabinet's top slab leaves room for a cube to ride back in when the drawer closes.
import { el, type XmlNode } from '../mjcf/xml.js';

export const CABINET = {
  depth: 0.2,
  width: 0.22,
  height: 0.12,
  wall: 0.01,
  travel: 0.16,
  /** The drawer counts as open beyond this opening, closed below `closedBelow`. */
  openAbove: 0.12,
  closedBelow: 0.01,
  /** Drawer box in the drawer's frame (which is the cabinet's frame when closed). */
  interior: { xMin: -0.09, xMax: 0.076, halfY: 0.091, floorZ: 0.02, wallTop: 0.08 },
  /** Handle bar in the drawer's frame. */
  handle: { x: -0.145, z: 0.06, halfLength: 0.05, radius: 0.006 },
} as const;

export const DRAWER = (name: string): string => `${name}_drawer`;
export const DRAWER_JOINT = (name: string): string => `${name}_slide`;
export const HANDLE = (name: string): string => `${name}_handle`;

export function cabinetBody(name: string, x: number, y: number): XmlNode {
  const { depth: d, width: w, height: h, wall: t } = CABINET;
  const rgba = [0.55, 0.38, 0.24, 1];
  const box = (suffix: string, pos: number[], size: number[]): XmlNode =>
    el('geom', { name: `${name}_${suffix}`, type: 'box', pos, size, rgba });
  return el('body', { name, pos: [x, y, 0] }, [
    box('side_l', [0, w / 2 - t / 2, h / 2], [d / 2, t / 2, h / 2]),
    box('side_r', [0, -(w / 2 - t / 2), h / 2], [d / 2, t / 2, h / 2]),
    box('back', [d / 2 - t / 2, 0, h / 2], [t / 2, w / 2, h / 2]),
    box('top', [0, 0, h - t / 2], [d / 2, w / 2, t / 2]),
    box('floor', [0, 0, t / 2], [d / 2, w / 2, t / 2]),
    drawerBody(name),
  ]);
}

function drawerBody(name: string): XmlNode {
  const { interior: i, handle: hd, depth: d } = CABINET;
  const rgba = [0.72, 0.55, 0.36, 1];
  const geom = (suffix: string, pos: number[], size: number[], mass: number): XmlNode =>
    el('geom', { name: `${DRAWER(name)}_${suffix}`, type: 'box', pos, size, mass, rgba });
  const midX = (i.xMin + i.xMax) / 2;
  const halfX = (i.xMax - i.xMin) / 2;
  const wallZ = (i.floorZ + i.wallTop) / 2;
  const wallHalfZ = (i.wallTop - i.floorZ) / 2;
  const frontX = -d / 2 + 0.005;
  return el('body', { name: DRAWER(name) }, [
    el('joint', { name: DRAWER_JOINT(name), type: 'slide', axis: [-1, 0, 0], range: [0, CABINET.travel], damping: 8, frictionloss: 0.5 }),
    geom('bottom', [midX, 0, i.floorZ - 0.004], [halfX + 0.005, i.halfY + 0.004, 0.004], 0.15),
    geom('side_l', [midX, i.halfY + 0.004, wallZ], [halfX, 0.004, wallHalfZ], 0.05),
    geom('side_r', [midX, -(i.halfY + 0.004), wallZ], [halfX, 0.004, wallHalfZ], 0.05),
    geom('back', [i.xMax + 0.004, 0, wallZ], [0.004, i.halfY, wallHalfZ], 0.05),
    geom('front', [frontX, 0, 0.06], [0.005, i.halfY + 0.008, 0.048], 0.1),
    el('geom', {
      name: HANDLE(name),
      type: 'capsule',
      fromto: [hd.x, -hd.halfLength, hd.z, hd.x, hd.halfLength, hd.z],
      size: [hd.radius],
      mass: 0.03,
      rgba: [0.8, 0.8, 0.82, 1],
    }),
    geom('post_l', [(hd.x + frontX) / 2, hd.halfLength - 0.006, hd.z], [(frontX - hd.x) / 2, 0.004, 0.004], 0.01),
    geom('post_r', [(hd.x + frontX) / 2, -(hd.halfLength - 0.006), hd.z], [(frontX - hd.x) / 2, 0.004, 0.004], 0.01),
  ]);
}

export function cabinetExcludes(name: string): XmlNode[] {
  return [el('exclude', { body1: name, body2: DRAWER(name) })];
}
