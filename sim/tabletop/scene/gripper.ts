// The floating parallel-jaw gripper. A mocap body is moved by the controller; a weld drags the
// gripper after it (the Fetch-style approach), so the hand is stopped by what it hits instead of
// passing through it. The gripper's frame has its origin at the grip point between the pads, z up
// (the fingers hang below the palm), so at rest the end-effector rotation is the identity.
import type { Vec3 } from '../../math/quat.js';
import { quatFromYaw } from '../../math/quat.js';
import { el, type XmlNode } from '../mjcf/xml.js';
import { GRASP_CONDIM, GRASP_FRICTION, PAD_SOLIMP, PAD_SOLREF } from './contact.js';

export const GRIPPER = {
  /** Finger joint travel: 0 closed (pads touch), 0.04 open (8 cm between pads). */
  maxOpening: 0.04,
  /** Lowest point of the fingers below the grip point. */
  fingertipDrop: 0.022,
  padHalfHeight: 0.02,
  fingerHalfThickness: 0.01,
  kp: 1000,
  forceLimit: 10,
  weldSolref: [0.02, 1] as const,
} as const;

export const GRIPPER_NAMES = {
  mocap: 'gripper_mocap',
  body: 'gripper',
  fingers: ['finger_left', 'finger_right'] as const,
  pads: ['pad_left', 'pad_right'] as const,
} as const;

export function gripperBodies(pos: Vec3, yaw: number): XmlNode[] {
  const quat = quatFromYaw(yaw);
  const mocap = el('body', { name: GRIPPER_NAMES.mocap, mocap: true, pos, quat });
  const hand = el('body', { name: GRIPPER_NAMES.body, pos, quat, gravcomp: 1 }, [
    el('freejoint', { name: 'gripper_free' }),
    el('geom', { name: 'palm', type: 'box', pos: [0, 0, 0.072], size: [0.012, 0.055, 0.01], mass: 0.3, rgba: [0.2, 0.2, 0.22, 1] }),
    finger(0),
    finger(1),
  ]);
  return [mocap, hand];
}

/** side 0 is +y (left, seen from the robot), side 1 is −y. */
function finger(side: 0 | 1): XmlNode {
  const s = side === 0 ? 1 : -1;
  const t = GRIPPER.fingerHalfThickness;
  return el('body', { name: GRIPPER_NAMES.fingers[side], gravcomp: 1 }, [
    el('joint', { name: GRIPPER_NAMES.fingers[side], type: 'slide', axis: [0, s, 0], range: [0, GRIPPER.maxOpening], damping: 0.5 }),
    el('geom', {
      name: GRIPPER_NAMES.pads[side],
      type: 'box',
      pos: [0, s * 0.003, 0],
      size: [t, 0.003, GRIPPER.padHalfHeight],
      mass: 0.01,
      rgba: [0.1, 0.1, 0.1, 1],
      condim: GRASP_CONDIM,
      friction: GRASP_FRICTION,
      solref: PAD_SOLREF,
      solimp: PAD_SOLIMP,
    }),
    el('geom', {
      name: `${GRIPPER_NAMES.fingers[side]}_link`,
      type: 'box',
      pos: [0, s * 0.009, 0.02],
      size: [t, 0.003, 0.042],
      mass: 0.05,
      rgba: [0.35, 0.35, 0.38, 1],
    }),
  ]);
}

export function gripperActuators(): XmlNode[] {
  return GRIPPER_NAMES.fingers.map((joint) =>
    el('position', {
      name: joint,
      joint,
      kp: GRIPPER.kp,
      dampratio: 1,
      ctrlrange: [0, GRIPPER.maxOpening],
      forcerange: [-GRIPPER.forceLimit, GRIPPER.forceLimit],
    }),
  );
}

/** The weld to the mocap body, and the coupling that keeps both fingers symmetric. */
export function gripperEqualities(): XmlNode[] {
  return [
    el('weld', { name: 'gripper_weld', body1: GRIPPER_NAMES.mocap, body2: GRIPPER_NAMES.body, solref: GRIPPER.weldSolref }),
    el('joint', { name: 'finger_coupling', joint1: GRIPPER_NAMES.fingers[0], joint2: GRIPPER_NAMES.fingers[1], polycoef: [0, 1, 0, 0, 0] }),
  ];
}

export function gripperExcludes(): XmlNode[] {
  return [el('exclude', { body1: GRIPPER_NAMES.fingers[0], body2: GRIPPER_NAMES.fingers[1] })];
}
