// Drives the node at its control rate in real time: one tick per period on a fixed grid (no drift
// accumulates), until stopped. A tick that overruns its period is not made up for: the next one
// runs at once and the grid moves on, so the robot never gets a burst of stale commands.
import type { NodeClock } from './clock.js';

export interface LoopHandle {
  /** Resolves when the loop has stopped (after the tick in progress). */
  readonly stopped: Promise<void>;
  stop(): void;
  /** Periods whose tick started late by more than one period. */
  readonly overruns: () => number;
}

export function runAtRate(tick: () => Promise<unknown>, hz: number, clock: NodeClock): LoopHandle {
  const periodMs = 1000 / hz;
  let running = true;
  let overruns = 0;
  let wake: (() => void) | undefined;
  const stopped = (async () => {
    let next = clock.now();
    while (running) {
      await tick();
      next += periodMs;
      const wait = next - clock.now();
      if (wait < -periodMs) {
        overruns++;
        next = clock.now();
      } else if (wait > 0) await new Promise<void>((r) => ((wake = r), setTimeout(r, wait)));
    }
  })();
  return {
    stopped,
    stop: () => {
      running = false;
      wake?.();
    },
    overruns: () => overruns,
  };
}
