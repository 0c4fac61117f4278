// Action delay (a sensor/actuation perturbation): the action executed now is the one commanded
// `delay` steps ago. Until the queue fills, the hand holds still with its gripper open.
import { ACTION_DIM } from '../env.js';

export class ActionDelay {
  private readonly ring: Float64Array;
  private head = 0;
  /** The action to execute this step; overwritten by the next push. */
  readonly current = new Float64Array(ACTION_DIM);

  constructor(readonly delay: number) {
    this.ring = new Float64Array((delay + 1) * ACTION_DIM);
    for (let k = 0; k <= delay; k++) this.ring[k * ACTION_DIM + ACTION_DIM - 1] = -1;
  }

  /** Stores `action`; `current` becomes the action commanded `delay` pushes ago. */
  push(action: ArrayLike<number>): Float64Array {
    const w = this.head * ACTION_DIM;
    for (let i = 0; i < ACTION_DIM; i++) this.ring[w + i] = action[i]!;
    // With delay + 1 slots, the slot after the one just written is the oldest.
    this.head = (this.head + 1) % (this.delay + 1);
    const r = this.head * ACTION_DIM;
    for (let i = 0; i < ACTION_DIM; i++) this.current[i] = this.ring[r + i]!;
    return this.current;
  }
}
