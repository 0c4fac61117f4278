// The node's clock. Everything time-dependent in the node (watchdog ages, the control period, the
// 1 Hz diagnostics, message stamps, recording log times) reads it, so tests drive the node in
// simulated time and assert durations, never absolute times.

export interface NodeClock {
  /** Milliseconds on this clock's own scale. */
  now(): number;
}

/** Real time, for a robot. */
export const wallClock: NodeClock = { now: () => performance.now() + performance.timeOrigin };

/** Simulated time: it moves only when told. */
export class ManualClock implements NodeClock {
  constructor(private t = 0) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`a clock only moves forward, got ${ms} ms`);
    this.t += ms;
  }
}
