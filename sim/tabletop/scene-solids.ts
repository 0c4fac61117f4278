// The tabletop's geoms as SceneSolids (sim/scene-geometry.ts): what a simulated camera draws. The
// shapes, sizes and colours are the compiled model's and are copied once per episode (a view into
// WebAssembly memory goes empty when the memory grows); the poses are MuJoCo's geom_xpos and
// geom_xmat, read at each call, as of the latest step — the same kinematics the observation reports.
import type { MainModule } from 'mujoco-js';
import type { SceneSolid, SolidShape } from '../scene-geometry.js';
import type { World } from './world.js';

interface MutableSolid extends SceneSolid {
  /** The geom's index in the model. */
  readonly geom: number;
}

export class SceneSolidReader {
  private readonly solids: MutableSolid[] = [];

  constructor(
    mj: MainModule,
    private readonly world: World,
  ) {
    const g = mj.mjtGeom;
    const shapes = new Map<number, SolidShape>([
      [g.mjGEOM_BOX.value, 'box'],
      [g.mjGEOM_CYLINDER.value, 'cylinder'],
      [g.mjGEOM_CAPSULE.value, 'capsule'],
      [g.mjGEOM_SPHERE.value, 'sphere'],
    ]);
    const m = world.model;
    const types = m.geom_type as Int32Array;
    const sizes = m.geom_size as Float64Array;
    const rgba = m.geom_rgba as Float32Array;
    for (let i = 0; i < m.ngeom; i++) {
      const shape = shapes.get(types[i]!);
      // Invisible geoms (alpha 0) are for contacts only: a camera would not see them.
      if (shape === undefined || rgba[4 * i + 3]! <= 0) continue;
      this.solids.push({
        geom: i,
        shape,
        size: [sizes[3 * i]!, sizes[3 * i + 1]!, sizes[3 * i + 2]!],
        rgb: [rgba[4 * i]!, rgba[4 * i + 1]!, rgba[4 * i + 2]!],
        position: new Float64Array(3),
        rotation: new Float64Array(9),
      });
    }
  }

  /** The solids posed as of the latest step (the list and its arrays are reused). */
  read(): readonly SceneSolid[] {
    const d = this.world.data;
    const xpos = d.geom_xpos as Float64Array;
    const xmat = d.geom_xmat as Float64Array;
    for (const s of this.solids) {
      s.position.set(xpos.subarray(3 * s.geom, 3 * s.geom + 3));
      s.rotation.set(xmat.subarray(9 * s.geom, 9 * s.geom + 9));
    }
    return this.solids;
  }
}
