// Without a terminal, progress is plain lines: one at the start, one at least every 10 s while the
// work goes on (even when nothing moved), and the final state; a newer progress retires the older.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progress } from '../../cli/progress.js';

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
});
