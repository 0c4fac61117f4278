// Liveness of a remote server, judged from what a client could actually hear.
//
// Silence only counts while the client was listening: when our own event loop stalls (a busy
// machine, a long simulator step), replies may sit unread in the socket, so each tick adds at most
// two intervals of silence however late it runs. Any frame from the server (a reply, a pong) is
// life. The timeout stretches with the measured round trip, so a server that is merely slow is not
// declared dead; a dead process or a refused connection is seen by the socket's events instead.

export interface LivenessOptions {
  /** Ticks are expected this often. */
  readonly intervalMs: number;
  /** Listening silence longer than this (or than `rttFactor` × the round trip) means gone. */
  readonly timeoutMs: number;
  readonly rttFactor?: number;
}

export class Liveness {
  private silentMs = 0;
  private lastTick: number | undefined;
  private rttMs = 0;
  private readonly rttFactor: number;

  constructor(private readonly options: LivenessOptions) {
    this.rttFactor = options.rttFactor ?? 8;
  }

  /** The silence allowed now: the configured timeout, stretched for a slow server. */
  get timeoutMs(): number {
    return Math.max(this.options.timeoutMs, this.rttFactor * this.rttMs);
  }

  /** The smoothed round trip the timeout is scaled by. */
  get roundTripMs(): number {
    return this.rttMs;
  }

  /** Anything arrived from the server. */
  heard(): void {
    this.silentMs = 0;
  }

  /** A measured round trip (a pong, a reply): rises at once, decays slowly. */
  observeRoundTrip(ms: number): void {
    if (!(ms >= 0)) return;
    this.rttMs = ms > this.rttMs ? ms : 0.9 * this.rttMs + 0.1 * ms;
  }

  /** Starts over, e.g. on a fresh socket. */
  reset(): void {
    this.silentMs = 0;
    this.lastTick = undefined;
  }

  /** One tick at time `now`; true when the listening silence exceeds the timeout. */
  tick(now: number): boolean {
    const elapsed = this.lastTick === undefined ? 0 : now - this.lastTick;
    this.lastTick = now;
    this.silentMs += Math.min(Math.max(elapsed, 0), 2 * this.options.intervalMs);
    return this.silentMs > this.timeoutMs;
  }

  /** Listening silence so far. */
  get silenceMs(): number {
    return this.silentMs;
  }
}
