// Sliding-window maximum in amortized O(1) per step: a monotonic deque over a preallocated ring.
// Windows are evaluated every step for every rule, so a scan of the whole window (O(window)) would
// dominate temporal rules; this keeps them flat. For a minimum, push −x and negate. Ring indices
// wrap by comparison, not `%` (an integer division per access costs more than the rest).

export class SlidingMax {
  private readonly vals: Float64Array;
  private readonly seqs: Float64Array;
  private head = 0;
  private size = 0;

  constructor(private readonly cap: number) {
    this.vals = new Float64Array(cap);
    this.seqs = new Float64Array(cap);
  }

  clear(): void {
    this.head = this.size = 0;
  }

  /** Adds value `x` observed at step `seq` (strictly increasing). Call `expire` first. */
  push(seq: number, x: number): void {
    const cap = this.cap;
    // Values not above the newcomer can never be the maximum again.
    while (this.size > 0) {
      let last = this.head + this.size - 1;
      if (last >= cap) last -= cap;
      if (this.vals[last]! > x) break;
      this.size--;
    }
    let at = this.head + this.size;
    if (at >= cap) at -= cap;
    this.vals[at] = x;
    this.seqs[at] = seq;
    this.size++;
  }

  /** Drops values observed before step `minSeq`. */
  expire(minSeq: number): void {
    while (this.size > 0 && this.seqs[this.head]! < minSeq) {
      this.head = this.head + 1 === this.cap ? 0 : this.head + 1;
      this.size--;
    }
  }

  /** The maximum of the values in the window, or −Infinity when there are none. */
  max(): number {
    return this.size > 0 ? this.vals[this.head]! : -Infinity;
  }
}
