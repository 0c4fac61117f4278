// The policy's observation: the 8-D robot state and object poses as a perception module would
// report them, with the perturbation's Gaussian noise on positions. Filled in place every step.
import { OBJECT_POSE_DIM, STATE_DIM, type Observation } from '../env.js';
import { rotvecFromQuat } from '../math/quat.js';
import type { Rng } from '../math/rng.js';
import { CABINET } from './scene/cabinet.js';
import type { World } from './world.js';

interface Reported {
  /** Body whose position and orientation are reported. */
  readonly body: number;
  /** Offset added to the position in the world frame (the cabinet reports its drawer handle). */
  readonly dx: number;
  readonly dz: number;
}

export class ObservationWriter {
  readonly state = new Float32Array(STATE_DIM);
  readonly objects: Float32Array;
  private readonly reported: Reported[];
  readonly obs: { state: Float32Array; objects: Float32Array; t: number; prompt: string };

  constructor(
    private readonly world: World,
    names: readonly string[],
    prompt: string,
    private readonly noiseStd: number,
    private readonly noise: Rng,
  ) {
    this.reported = names.map((n) => this.resolve(n));
    this.objects = new Float32Array(names.length * OBJECT_POSE_DIM);
    this.obs = { state: this.state, objects: this.objects, t: 0, prompt };
  }

  write(t: number): Observation {
    const w = this.world;
    const g = w.gripperBody;
    for (let i = 0; i < 3; i++) this.state[i] = w.xpos[3 * g + i]! + this.jitter();
    rotvecFromQuat(this.state, w.xquat, 3, 4 * g);
    this.state[6] = w.qpos[w.fingerAdr[0]]!;
    this.state[7] = w.qpos[w.fingerAdr[1]]!;
    for (let k = 0; k < this.reported.length; k++) {
      const r = this.reported[k]!;
      const o = k * OBJECT_POSE_DIM;
      this.objects[o] = w.xpos[3 * r.body]! + r.dx + this.jitter();
      this.objects[o + 1] = w.xpos[3 * r.body + 1]! + this.jitter();
      this.objects[o + 2] = w.xpos[3 * r.body + 2]! + r.dz + this.jitter();
      for (let i = 0; i < 4; i++) this.objects[o + 3 + i] = w.xquat[4 * r.body + i]!;
    }
    this.obs.t = t;
    return this.obs;
  }

  private jitter(): number {
    return this.noiseStd > 0 ? this.noiseStd * this.noise.normal() : 0;
  }

  private resolve(name: string): Reported {
    const m = this.world.movables.get(name);
    if (m !== undefined) return { body: m.body, dx: 0, dz: 0 };
    const f = this.world.fixture(name);
    if (f.spec.kind === 'cabinet') return { body: f.part, dx: CABINET.handle.x, dz: CABINET.handle.z };
    if (f.spec.kind === 'button') return { body: f.part, dx: 0, dz: 0 };
    return { body: f.body, dx: 0, dz: 0 };
  }
}
