// A push button: a cap on a vertical slide joint held up by a spring. Whether it has been pressed
// is latched by the env (like a lamp switched on), since the spring brings the cap back up.
import { el, type XmlNode } from '../mjcf/xml.js';

export const BUTTON = {
  baseHalf: 0.03,
  baseHeight: 0.02,
  capRadius: 0.02,
  capHalfHeight: 0.008,
  travel: 0.012,
  /** Depth at which the button counts as pressed. */
  pressDepth: 0.008,
} as const;

export const BUTTON_JOINT = (name: string): string => `${name}_press`;
export const BUTTON_CAP = (name: string): string => `${name}_cap`;

export function buttonBody(name: string, x: number, y: number): XmlNode {
  const capZ = BUTTON.baseHeight + BUTTON.capHalfHeight;
  return el('body', { name, pos: [x, y, 0] }, [
    el('geom', {
      name: `${name}_base`,
      type: 'box',
      pos: [0, 0, BUTTON.baseHeight / 2],
      size: [BUTTON.baseHalf, BUTTON.baseHalf, BUTTON.baseHeight / 2],
      rgba: [0.25, 0.25, 0.25, 1],
    }),
    el('body', { name: BUTTON_CAP(name), pos: [0, 0, capZ] }, [
      el('joint', {
        name: BUTTON_JOINT(name),
        type: 'slide',
        axis: [0, 0, 1],
        range: [-BUTTON.travel, 0],
        stiffness: 300,
        springref: 0,
        damping: 3,
      }),
      el('geom', {
        name: BUTTON_CAP(name),
        type: 'cylinder',
        size: [BUTTON.capRadius, BUTTON.capHalfHeight],
        mass: 0.02,
        rgba: [0.9, 0.1, 0.1, 1],
      }),
    ]),
  ]);
}

export function buttonExcludes(name: string): XmlNode[] {
  return [el('exclude', { body1: name, body2: BUTTON_CAP(name) })];
}
