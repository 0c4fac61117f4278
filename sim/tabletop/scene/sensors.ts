// Contact sensors: one per (pad, movable) pair. Reading a number from sensordata is far cheaper
// than walking data.contact (which copies every contact into JavaScript objects).
import { el, type XmlNode } from '../mjcf/xml.js';
import { GRIPPER_NAMES } from './gripper.js';

export const PAD_SENSOR = (side: 0 | 1, movable: string): string => `touch_${side === 0 ? 'l' : 'r'}_${movable}`;

export function padSensors(movables: readonly string[]): XmlNode[] {
  return movables.flatMap((m) =>
    ([0, 1] as const).map((side) =>
      el('contact', { name: PAD_SENSOR(side, m), geom1: GRIPPER_NAMES.pads[side], body2: m, num: 1, data: 'found' }),
    ),
  );
}
