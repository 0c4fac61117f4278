// The node's watchdog: the robot state is too old (a sensor or the driver stalled), or no action
// chunk has come for too long (the policy is slow or gone). Either one holds the robot: a state
// that is too old holds before the critic runs (no decision on a stale world); a missing chunk
// already yields the pipeline's hold. The reason is kept for /diagnostics.

export class Watchdog {
  /** Why the watchdog holds now, or null. */
  reason: string | null = null;
  /** Ticks on which it held, since start. */
  trips = 0;
  /** When a chunk's action (or a recovery's) was last executed (node clock, ms). */
  private lastDrivenAt = -Infinity;

  constructor(
    public staleStateMs: number,
    public chunkTimeoutMs: number,
  ) {}

  /** Episode start: the chunk timer starts now, so the first chunk has a full timeout to arrive. */
  begin(now: number): void {
    this.lastDrivenAt = now;
    this.reason = null;
  }

  /** True when the state is too old to act on; sets the reason. */
  stateTooOld(ageMs: number): boolean {
    if (!(ageMs > this.staleStateMs)) return false;
    this.reason = Number.isFinite(ageMs)
      ? `robot state ${Math.round(ageMs)} ms old (limit ${this.staleStateMs} ms)`
      : 'no robot state received yet';
    this.trips++;
    return true;
  }

  /** After a governed step: `driven` when the action came from a chunk or a recovery. */
  afterStep(now: number, driven: boolean): void {
    if (driven) {
      this.lastDrivenAt = now;
      this.reason = null;
      return;
    }
    const waited = now - this.lastDrivenAt;
    if (waited > this.chunkTimeoutMs) {
      this.reason = `no action chunk for ${Math.round(waited)} ms (limit ${this.chunkTimeoutMs} ms): holding`;
      this.trips++;
    } else this.reason = null;
  }
}
