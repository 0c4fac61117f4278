// A plate: a low disc fixed to the table that things are put on.
import { el, type XmlNode } from '../mjcf/xml.js';

export const PLATE = { radius: 0.075, thickness: 0.01 } as const;

export function plateBody(name: string, x: number, y: number): XmlNode {
  return el('body', { name, pos: [x, y, 0] }, [
    el('geom', {
      name,
      type: 'cylinder',
      pos: [0, 0, PLATE.thickness / 2],
      size: [PLATE.radius, PLATE.thickness / 2],
      rgba: [0.95, 0.95, 0.97, 1],
    }),
  ]);
}
