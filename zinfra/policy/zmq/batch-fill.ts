// How full a batch should be when the backend frees, and how long it may wait to get there.
//
// Simulators that a batch has just answered are stepping and will ask again within a few
// milliseconds. Sending the next batch at once serves only those that were already waiting, and
// with a slow backend (a VLA on a GPU) the two halves then alternate at half size. So the scheduler
// waits, briefly, for the clients it expects: each session's recent peak of outstanding requests
// says how many robots it drives. The wait is a fraction of the backend's own call time, so a
// fast backend (a small ONNX model) waits for nothing, and a lone client never waits at all.

export interface BatchFillOptions {
  /** The longest a batch may wait to fill, as a fraction of the backend's mean call time. */
  readonly fraction: number;
  /** …and never longer than this. */
  readonly capMs: number;
  /** A session's peak is the highest outstanding count over the last one or two windows. */
  readonly windowMs: number;
}

export const DEFAULT_BATCH_FILL: BatchFillOptions = { fraction: 0.25, capMs: 25, windowMs: 1000 };

interface Peak {
  current: number;
  previous: number;
  windowStart: number;
}

export class BatchFill {
  private callMs = 0;
  private readonly peaks = new Map<string, Peak>();

  constructor(private readonly options: BatchFillOptions = DEFAULT_BATCH_FILL) {}

  /** A backend call took `ms`: the mean (exponentially weighted) sets the fill wait. */
  observeCall(ms: number): void {
    this.callMs = this.callMs === 0 ? ms : 0.8 * this.callMs + 0.2 * ms;
  }

  /** `session` now has `outstanding` requests queued or running. */
  observeOutstanding(session: string, outstanding: number, now: number): void {
    const p = this.peaks.get(session);
    if (!p) {
      this.peaks.set(session, { current: outstanding, previous: 0, windowStart: now });
      return;
    }
    this.rotate(p, now);
    if (outstanding > p.current) p.current = outstanding;
  }

  /** Requests the next batch should hold: every session's recent peak, less those still running. */
  target(maxBatch: number, running: number, now: number): number {
    let expected = 0;
    for (const [session, p] of this.peaks) {
      this.rotate(p, now);
      const peak = Math.max(p.current, p.previous);
      if (peak === 0) this.peaks.delete(session);
      expected += peak;
    }
    return Math.max(1, Math.min(maxBatch, expected - running));
  }

  /** How long a batch short of its target may wait for the rest. */
  waitMs(): number {
    return Math.min(this.options.capMs, this.options.fraction * this.callMs);
  }

  private rotate(p: Peak, now: number): void {
    const windows = Math.floor((now - p.windowStart) / this.options.windowMs);
    if (windows <= 0) return;
    p.previous = windows === 1 ? p.current : 0;
    p.current = 0;
    p.windowStart += windows * this.options.windowMs;
  }
}
