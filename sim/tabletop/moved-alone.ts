// "The object moved on its own": how far a perceived object moved over a short window in a way
// that neither resting nor riding in the hand explains. A resting object does not move; a carried
// one moves with the hand; an object knocked away, slipping or rolling does neither. Raw object
// speed cannot tell a knock from a lift, so a rule watching it fires on every grasp.

/** Window length (steps): at 20 Hz, a quarter second, long enough to rise above sensor noise. */
export const MOVED_ALONE_WINDOW = 5;

/** Ring buffers of the hand's and some objects' perceived positions over the last window. */
export class MovedAloneWindow {
  private readonly hand: Float64Array;
  private readonly objects: Float64Array;
  private readonly slots = MOVED_ALONE_WINDOW + 1;
  private written = 0;

  constructor(
    /** Where each tracked object's position starts in an observation's `objects` array. */
    private readonly offsets: readonly number[],
  ) {
    this.hand = new Float64Array(3 * this.slots);
    this.objects = new Float64Array(3 * this.slots * offsets.length);
  }

  /** Appends this step's perceived hand position (`state[0..2]`) and the tracked objects'. */
  push(state: ArrayLike<number>, objects: ArrayLike<number>): void {
    const s = this.written % this.slots;
    for (let k = 0; k < 3; k++) this.hand[3 * s + k] = state[k]!;
    for (let i = 0; i < this.offsets.length; i++) {
      const a = 3 * (i * this.slots + s);
      for (let k = 0; k < 3; k++) this.objects[a + k] = objects[this.offsets[i]! + k]!;
    }
    this.written++;
  }

  /**
   * min(‖Δobject‖, ‖Δobject − Δhand‖) between the oldest position in the window and the newest
   * (m); 0 before two steps were seen.
   */
  movedAlone(object: number): number {
    if (this.written < 2) return 0;
    const now = (this.written - 1) % this.slots;
    const then = Math.max(0, this.written - this.slots) % this.slots;
    let obj2 = 0;
    let rel2 = 0;
    for (let k = 0; k < 3; k++) {
      const dObj = this.objects[3 * (object * this.slots + now) + k]! - this.objects[3 * (object * this.slots + then) + k]!;
      const dHand = this.hand[3 * now + k]! - this.hand[3 * then + k]!;
      obj2 += dObj * dObj;
      rel2 += (dObj - dHand) * (dObj - dHand);
    }
    return Math.sqrt(Math.min(obj2, rel2));
  }
}
