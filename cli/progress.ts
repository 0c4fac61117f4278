// Progress for long work: a redrawn line on a terminal; on a pipe or a log, plain lines: the first
// state at once, then at least every 10 seconds while the work goes on (ZETTA_PROGRESS_MS sets the
// period), even before anything finished and while nothing moves, so a captured run is never silent
// for minutes and a stall shows as one. Both show the rate so far and an ETA once something is done.
import { progressPeriodMs } from './progress-period.js';

export interface Progress {
  update(done: number, total: number, note?: string): void;
  done(): void;
}

/** How often the log timer looks whether a line is due: a fraction of the period, at most a second. */
const LOG_CHECK_MAX_MS = 1000;

export function progress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? terminalProgress(label, stream) : logProgress(label, stream, progressPeriodMs());
}

/** " · 12/min · ETA 40 s" from the rate so far; empty before the first item and after the last. */
export function pace(done: number, total: number, elapsedMs: number): string {
  if (done <= 0 || done >= total || elapsedMs <= 0) return '';
  const perMin = (done / elapsedMs) * 60_000;
  const left = ((total - done) / done) * elapsedMs;
  return ` · ${perMin >= 10 ? Math.round(perMin) : perMin.toFixed(1)}/min · ETA ${duration(left)}`;
}

/**
 * Time since the count began, for the pace: a count that starts over (the next arm under one line)
 * is timed afresh, or its rate would be spread over the arms before it.
 */
function countClock(start: number): (done: number, now: number) => number {
  let since = start;
  let previous = 0;
  return (done, now) => {
    if (done < previous) since = now;
    previous = done;
    return now - since;
  };
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function terminalProgress(label: string, stream: NodeJS.WriteStream): Progress {
  const elapsed = countClock(Date.now());
  let last = 0;
  return {
    update(done, total, note) {
      const now = Date.now();
      const sinceCountBegan = elapsed(done, now);
      if (now - last < 100 && done < total) return;
      last = now;
      const width = 24;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${pace(done, total, sinceCountBegan)}${note ? ` ${note}` : ''}\x1b[K`,
      );
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}

/** The one log progress that prints: a newer one (a next stage, a next arm) retires the older. */
let current: { retire(): void } | undefined;

function logProgress(label: string, stream: NodeJS.WriteStream, periodMs: number): Progress {
  const name = label.trim();
  const started = Date.now();
  const elapsed = countClock(started);
  let state: string | undefined;
  let printed: string | undefined;
  let lastPrint = started;
  // when the count last went up: a line while it stands still says for how long
  let lastMove = started;
  let lastDone = 0;
  const print = (line: string) => {
    lastPrint = Date.now();
    stream.write(`${line} (${Math.round((lastPrint - started) / 1000)} s)\n`);
  };
  const printState = () => {
    printed = state;
    print(`${name} ${state}`);
  };
  // Silence would look like a hang, and a wait on one slow episode like no work at all: when a line
  // is due, it repeats the latest state (or that nothing finished yet) and how long nothing moved.
  const timer = setInterval(
    () => {
      const now = Date.now();
      if (now - lastPrint < periodMs) return;
      if (state === undefined) return print(`${name} started, nothing finished yet`);
      printed = state;
      const idle = now - lastMove;
      print(`${name} ${state}${idle >= periodMs ? ` · nothing finished in the last ${duration(idle)}` : ''}`);
    },
    Math.min(LOG_CHECK_MAX_MS, Math.ceil(periodMs / 4)),
  );
  timer.unref();
  const self = { retire: () => clearInterval(timer) };
  current?.retire();
  current = self;
  return {
    update(done, total, note) {
      const now = Date.now();
      // any change counts: a count that starts over (the next arm, the next condition) is work done
      if (done !== lastDone) [lastDone, lastMove] = [done, now];
      state = `${done}/${total}${pace(done, total, elapsed(done, now))}${note ? ` ${note}` : ''}`;
      if (printed === undefined || done >= total || now - lastPrint >= periodMs) printState();
    },
    done() {
      self.retire();
      if (current === self) current = undefined;
      if (state !== undefined && state !== printed) printState();
    },
  };
}
