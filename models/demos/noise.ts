// Execution noise for DART-style demonstrations: the expert's action plus Gaussian noise is what
// the robot executes; the clean action remains the label. Only the six motion dimensions are
// perturbed: the gripper command is a decision, and a noisy one teaches nothing about recovery.
import { ACTION_DIM } from '../../sim/env.js';
import { Rng } from '../../sim/math/rng.js';

const MOTION_DIMS = 6;

export class ExecutionNoise {
  private readonly rng: Rng;
  private readonly out = new Float64Array(ACTION_DIM);

  /** A stream of its own per (task, seed, pass): it never shifts the scene's random choices. */
  constructor(
    task: string,
    seed: number,
    pass: number,
    private readonly std: number,
  ) {
    this.rng = Rng.derive(task, seed, `demos/execution-noise/${pass}`);
  }

  /** The action to execute (a buffer reused on every call), clipped to the action range. */
  apply(clean: ArrayLike<number>): Float64Array {
    for (let i = 0; i < ACTION_DIM; i++) {
      const v = i < MOTION_DIMS && this.std > 0 ? clean[i]! + this.std * this.rng.normal() : clean[i]!;
      this.out[i] = v < -1 ? -1 : v > 1 ? 1 : v;
    }
    return this.out;
  }
}
