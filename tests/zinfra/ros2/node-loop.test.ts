// The real-time driver on a simulated clock: one tick per period on a fixed grid, an overrun is not
// made up for with a burst, and stop() ends the loop after the tick in progress.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../zinfra/ros2/clock.js';
import { runAtRate } from '../../../zinfra/ros2/node-loop.js';

describe('runAtRate (simulated clock)', () => {
  it('ticks on the period grid and stops when told', async () => {
    const clock = new ManualClock();
    const at: number[] = [];
    const loop = runAtRate(
      async () => {
        at.push(clock.now());
        clock.advance(10); // a tick that takes its whole period: the next one starts at once
        if (at.length === 5) loop.stop();
      },
      100,
      clock,
    );
    await loop.stopped;
    expect(at).toEqual([0, 10, 20, 30, 40]);
    expect(loop.overruns()).toBe(0);
  });

  it('counts an overrun and moves the grid on instead of bursting', async () => {
    const clock = new ManualClock();
    let ticks = 0;
    const loop = runAtRate(
      async () => {
        ticks++;
        clock.advance(ticks === 2 ? 35 : 10); // the second tick takes 3.5 periods
        if (ticks === 6) loop.stop();
      },
      100,
      clock,
    );
    await loop.stopped;
    expect(ticks).toBe(6);
    expect(loop.overruns()).toBe(1);
  });
});
