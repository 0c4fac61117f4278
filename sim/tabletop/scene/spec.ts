// What a scene contains, as plain data. A task samples one of these per episode; the builders in
// this folder turn it into MJCF. Everything that varies between episodes lives here, so the XML
// text (and with it the reset digest) is a pure function of the spec.
import type { Vec3 } from '../../math/quat.js';

export type Shape = 'cube' | 'cylinder';
export type FixtureKind = 'bowl' | 'plate' | 'cabinet' | 'button';

export interface MovableSpec {
  readonly name: string;
  readonly shape: Shape;
  /** Half the edge of a cube, or the radius of a cylinder (m). */
  readonly halfWidth: number;
  readonly halfHeight: number;
  readonly rgba: readonly [number, number, number, number];
  readonly mass: number;
  /** Sliding friction coefficient (MuJoCo's first friction number). */
  readonly friction: number;
  /** Where it rests: x, y on the table; z is derived from halfHeight. */
  readonly x: number;
  readonly y: number;
  readonly yaw: number;
}

export interface FixtureSpec {
  readonly kind: FixtureKind;
  readonly name: string;
  readonly x: number;
  readonly y: number;
}

export interface SceneSpec {
  readonly movables: readonly MovableSpec[];
  readonly fixtures: readonly FixtureSpec[];
  /** Initial grip point of the gripper and its heading. */
  readonly gripper: { readonly pos: Vec3; readonly yaw: number };
}
