// Without a terminal, progress is plain lines: one at the start, one at least every 10 s while the
// work goes on (even when nothing moved, and before anything was counted: item 10 of the hardening
// issue, a first line only after 70 s of an env stall), and the final state; a newer progress
// retires the older. ZETTA_PROGRESS_MS sets the period; a bad value is refused in one line.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InputError } from '../../cli/command.js';
import { progress } from '../../cli/progress.js';
import { DEFAULT_PROGRESS_PERIOD_MS, progressPeriodMs } from '../../cli/progress-period.js';

function logStream() {
  const lines: string[] = [];
  const stream = {
    isTTY: false,
    write: (s: string) => (lines.push(...s.split('\n').filter(Boolean)), true),
  } as unknown as NodeJS.WriteStream;
  return { lines, stream };
}

describe('progress on a pipe or a log', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('prints at the start, at least every 10 s while silent, and at the end', () => {
    const { lines, stream } = logStream();
    const bar = progress('  eval', stream);
    bar.update(0, 4, 'starting');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^eval 0\/4 starting/);
    vi.advanceTimersByTime(35_000); // nothing moved for 35 s
    expect(lines.length).toBeGreaterThanOrEqual(4);
    bar.update(2, 4);
    bar.update(4, 4, 'done');
    bar.done();
    expect(lines.at(-1)).toMatch(/^eval 4\/4 done/);
    const count = lines.length;
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(count); // done: silent
  });

  it('shows the rate so far and an ETA once something is done, none at the start or the end', () => {
    const { lines, stream } = logStream();
    const bar = progress('eval', stream);
    bar.update(0, 4);
    expect(lines[0]).toMatch(/^eval 0\/4 \(/);
    vi.advanceTimersByTime(20_000);
    bar.update(2, 4);
    bar.done(); // prints the latest state
    expect(lines.at(-1)).toMatch(/^eval 2\/4 · 6\.0\/min · ETA 20 s/);
    const finished = progress('arm', stream);
    finished.update(0, 2);
    vi.advanceTimersByTime(5_000);
    finished.update(2, 2);
    expect(lines.at(-1)).toMatch(/^arm 2\/2 \(/);
    finished.done();
  });

  it('a newer progress retires the older one', () => {
    const { lines, stream } = logStream();
    const first = progress('arm 1', stream);
    first.update(1, 2);
    const second = progress('arm 2', stream);
    second.update(0, 2);
    vi.advanceTimersByTime(30_000);
    expect(lines.filter((l) => l.startsWith('arm 1'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('arm 2')).length).toBeGreaterThanOrEqual(3);
    second.done();
  });

  it('speaks before the first update and while nothing moves, saying for how long', () => {
    const { lines, stream } = logStream();
    const bar = progress('eval', stream);
    vi.advanceTimersByTime(10_000); // a first episode hangs on its env: nothing counted yet
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^eval started, nothing finished yet \(9 s\)$/);
    bar.update(1, 3);
    vi.advanceTimersByTime(20_000);
    expect(lines.at(-1)).toMatch(/^eval 1\/3 · .* · nothing finished in the last 1[89] s \(\d+ s\)$/);
    bar.done();
  });

  it('a count that starts over (the next arm) is movement, not a stall', () => {
    const { lines, stream } = logStream();
    const bar = progress('governance', stream);
    bar.update(4, 4, 'arm 1/2');
    for (let done = 1; done <= 3; done++) {
      vi.advanceTimersByTime(4_000);
      bar.update(done, 4, 'arm 2/2');
    }
    vi.advanceTimersByTime(4_000);
    const repeated = lines.filter((l) => l.includes('arm 2/2'));
    expect(repeated.length).toBeGreaterThanOrEqual(1);
    expect(lines.join('\n')).not.toMatch(/nothing finished/);
    // the second arm's pace is its own: 3 in the 12 s since its count began (15/min), not over all 16 s
    bar.update(3, 4, 'arm 2/2');
    bar.done();
    expect(lines.at(-1)).toMatch(/^governance 3\/4 · 15\/min · ETA 4 s arm 2\/2/);
  });

  it('keeps to the period ZETTA_PROGRESS_MS sets', () => {
    vi.stubEnv('ZETTA_PROGRESS_MS', '1000');
    try {
      const { lines, stream } = logStream();
      const bar = progress('eval', stream);
      bar.update(0, 2, 'starting');
      vi.advanceTimersByTime(5_500);
      expect(lines.length).toBeGreaterThanOrEqual(5);
      expect(lines.at(-1)).toMatch(/^eval 0\/2 starting · nothing finished in the last 5 s/);
      bar.done();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('ZETTA_PROGRESS_MS', () => {
  it('is 9 s when unset, the milliseconds given when set, and refused otherwise', () => {
    expect(progressPeriodMs({})).toBe(DEFAULT_PROGRESS_PERIOD_MS);
    expect(progressPeriodMs({ ZETTA_PROGRESS_MS: '250' })).toBe(250);
    for (const bad of ['1e3', '-5', '0x10', '50', '999999999', 'soon']) {
      expect(() => progressPeriodMs({ ZETTA_PROGRESS_MS: bad }), bad).toThrow(InputError);
      expect(() => progressPeriodMs({ ZETTA_PROGRESS_MS: bad }), bad).toThrow(
        `ZETTA_PROGRESS_MS must be an integer from 100 to 600000 in decimal digits, got "${bad}"`,
      );
    }
  });
});
