// A bowl: a flat base and a ring of wall segments (MuJoCo has no concave primitives). It is fixed to
// the table; things are put in it.
import { el, type XmlNode } from '../mjcf/xml.js';

export const BOWL = { innerRadius: 0.068, wallHeight: 0.04, wall: 0.006, base: 0.006, segments: 12 } as const;

export function bowlBody(name: string, x: number, y: number): XmlNode {
  const rgba = [0.9, 0.9, 0.88, 1];
  const r = BOWL.innerRadius + BOWL.wall / 2;
  // Segment half-length: cover the ring's circumference with a little overlap at the joints.
  const half = (Math.PI * r) / BOWL.segments + 0.002;
  const walls = Array.from({ length: BOWL.segments }, (_, i) => {
    const a = (2 * Math.PI * i) / BOWL.segments;
    return el('geom', {
      name: `${name}_wall${i}`,
      type: 'box',
      pos: [r * Math.cos(a), r * Math.sin(a), BOWL.wallHeight / 2],
      quat: [Math.cos(a / 2), 0, 0, Math.sin(a / 2)],
      size: [BOWL.wall / 2, half, BOWL.wallHeight / 2],
      rgba,
    });
  });
  return el('body', { name, pos: [x, y, 0] }, [
    el('geom', {
      name: `${name}_base`,
      type: 'cylinder',
      pos: [0, 0, BOWL.base / 2],
      size: [BOWL.innerRadius + BOWL.wall, BOWL.base / 2],
      rgba,
    }),
    ...walls,
  ]);
}
