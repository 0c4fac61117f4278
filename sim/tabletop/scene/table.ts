// The table: its top surface is the plane z = 0 of the world (and of the robot base frame).
import { el, type XmlNode } from '../mjcf/xml.js';

export const TABLE = { halfX: 0.5, halfY: 0.55, thickness: 0.04, centerX: 0.05 } as const;

export function tableNodes(): XmlNode[] {
  return [
    el('light', { pos: [0, 0, 1.5], dir: [0, 0, -1], diffuse: [0.8, 0.8, 0.8] }),
    el('geom', {
      name: 'table',
      type: 'box',
      pos: [TABLE.centerX, 0, -TABLE.thickness / 2],
      size: [TABLE.halfX, TABLE.halfY, TABLE.thickness / 2],
      rgba: [0.62, 0.5, 0.38, 1],
      friction: [1, 0.005, 0.0001],
    }),
  ];
}
