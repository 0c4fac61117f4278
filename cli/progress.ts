// Progress for long work: a redrawn line on a terminal; on a pipe or a log, a plain line at the
// start and then at least every 10 seconds while the work goes on, so a captured run is never
// silent for minutes. Both show the rate so far and an ETA once something is done.

export interface Progress {
  update(done: number, total: number, note?: string): void;
  done(): void;
}

/** Without a terminal, the longest silence between two progress lines (under the promised 10 s). */
const LOG_PERIOD_MS = 9000;
const LOG_CHECK_MS = 1000;

export function progress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? terminalProgress(label, stream) : logProgress(label, stream);
}

/** " · 12/min · ETA 40 s" from the rate so far; empty before the first item and after the last. */
export function pace(done: number, total: number, elapsedMs: number): string {
  if (done <= 0 || done >= total || elapsedMs <= 0) return '';
  const perMin = (done / elapsedMs) * 60_000;
  const left = ((total - done) / done) * elapsedMs;
  return ` · ${perMin >= 10 ? Math.round(perMin) : perMin.toFixed(1)}/min · ETA ${duration(left)}`;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function terminalProgress(label: string, stream: NodeJS.WriteStream): Progress {
  const started = Date.now();
  let last = 0;
  return {
    update(done, total, note) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const width = 24;
      const filled = Math.round((done / Math.max(total, 1)) * width);
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${pace(done, total, now - started)}${note ? ` ${note}` : ''}\x1b[K`,
      );
    },
    done() {
      stream.write('\r\x1b[K');
    },
  };
}

/** The one log progress that prints: a newer one (a next stage, a next arm) retires the older. */
let current: { retire(): void } | undefined;

function logProgress(label: string, stream: NodeJS.WriteStream): Progress {
  const started = Date.now();
  let state: string | undefined;
  let printed: string | undefined;
  let lastPrint = 0;
  const print = () => {
    if (state === undefined) return;
    lastPrint = Date.now();
    printed = state;
    stream.write(`${label.trim()} ${state} (${Math.round((lastPrint - started) / 1000)} s)\n`);
  };
  // Repeats the latest state when nothing moved: silence would look like a hang.
  const timer = setInterval(() => {
    if (Date.now() - lastPrint >= LOG_PERIOD_MS) print();
  }, LOG_CHECK_MS);
  timer.unref();
  const self = { retire: () => clearInterval(timer) };
  current?.retire();
  current = self;
  return {
    update(done, total, note) {
      state = `${done}/${total}${pace(done, total, Date.now() - started)}${note ? ` ${note}` : ''}`;
      if (printed === undefined || done >= total || Date.now() - lastPrint >= LOG_PERIOD_MS) print();
    },
    done() {
      self.retire();
      if (current === self) current = undefined;
      if (state !== undefined && state !== printed) print();
    },
  };
}
