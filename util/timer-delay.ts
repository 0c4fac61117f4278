// Node's timers hold a signed 32-bit millisecond count: a delay above 2^31 − 1 ms (about 24.8 days)
// is silently replaced by 1 ms, so a generous user timeout would fire at once and claim it waited.

/** The longest delay setTimeout honours, in ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** `ms` as setTimeout should be given it: within [0, MAX_TIMER_MS] (NaN → 0). */
export function timerDelay(ms: number): number {
  return ms > MAX_TIMER_MS ? MAX_TIMER_MS : ms >= 0 ? ms : 0;
}
