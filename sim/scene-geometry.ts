// What a simulated scene is made of and where each part is now: the simulator's primitive solids in
// the world frame, with their colours. Enough to draw a simple view of the scene (a simulated
// robot's camera draws from it); not a renderer's input — no materials, lights, textures or meshes.
// An env offers it when it can (the embedded tabletop does); a remote env or a robot does not.
import type { Env } from './env.js';

/** The primitive shapes a drawing handles (MuJoCo's names); anything else is left out of the list. */
export type SolidShape = 'box' | 'cylinder' | 'capsule' | 'sphere';

export interface SceneSolid {
  readonly shape: SolidShape;
  /** MuJoCo's geom size: box half extents; cylinder and capsule radius, half length; sphere radius. */
  readonly size: readonly [number, number, number];
  /** Colour, each channel 0 … 1. */
  readonly rgb: readonly [number, number, number];
  /** Centre (m, world frame), refreshed at every read. */
  readonly position: Float64Array;
  /** The solid's axes in the world frame, row-major 3 × 3 (world = rotation · local), refreshed at every read. */
  readonly rotation: Float64Array;
}

export interface SceneGeometry {
  /**
   * Every visible solid of the current episode, posed as of the latest observation. The list and its
   * arrays are reused by the next call: copy what you keep.
   */
  sceneSolids(): readonly SceneSolid[];
}

/** Whether `env` can say what its scene is made of. */
export function hasSceneGeometry<E extends Env>(env: E): env is E & SceneGeometry {
  return typeof (env as Partial<SceneGeometry>).sceneSolids === 'function';
}
