// Node's timers hold 2^31 − 1 ms: a longer delay fires at once (issue 37, item 11), so a user's
// timeout of 99999999999 ms failed the first request claiming it had waited. Every setTimeout of a
// user-given duration goes through timerDelay, which keeps it in range.
import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, timerDelay } from '../../../util/timer-delay.js';

/** Which of two timers fires first: one at `delay`, one at 20 ms (an order, not a time). */
function firstOf(delay: number): Promise<'long' | 'marker'> {
  return new Promise((resolve) => {
    const marker = setTimeout(() => {
      clearTimeout(long);
      resolve('marker');
    }, 20);
    const long = setTimeout(() => {
      clearTimeout(marker);
      resolve('long');
    }, delay);
  });
}

describe('timerDelay', () => {
  it('keeps a delay within what setTimeout honours', () => {
    expect(timerDelay(99_999_999_999)).toBe(MAX_TIMER_MS);
    expect(timerDelay(MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
    expect(timerDelay(1500)).toBe(1500);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
  });

  it('a raw 99999999999 ms timer fires before a 20 ms one; clamped, it does not', async () => {
    const warn = process.listeners('warning');
    process.removeAllListeners('warning'); // Node's TimeoutOverflowWarning, expected here
    try {
      expect(await firstOf(99_999_999_999)).toBe('long');
    } finally {
      for (const l of warn) process.on('warning', l);
    }
    expect(await firstOf(timerDelay(99_999_999_999))).toBe('marker');
  });
});
