import { describe, expect, it, vi } from 'vitest';
import { benchCriticCommand } from '../../cli/commands/bench-critic.js';
import { BENCH_LAYOUT, BENCH_RECOVERIES, makeWorkload } from '../../bench/critic-workload.js';
import { NaiveCritic } from '../../bench/naive-interpreter.js';
import { compileRules } from '../../critic/rules/compile.js';
import { RULE_FIRED, RULE_UNKNOWN } from '../../critic/rules/compiled-rule.js';
import { TemporalCritic } from '../../critic/temporal-critic.js';

describe('the naive baseline interpreter', () => {
  it.each([1, 7, 42])('fires and reports NaN for exactly the rules the compiled critic does (seed %i)', (seed) => {
    const w = makeWorkload(seed, 64, 1500);
    const compiled = new TemporalCritic(
      compileRules(w.rules, { layout: BENCH_LAYOUT, privileged: true, knownRecoveries: BENCH_RECOVERIES }),
    );
    const naive = new NaiveCritic(w.rules);
    let fired = 0,
      unknown = 0;
    w.frames.forEach((frame, i) => {
      const r = compiled.evaluate(frame);
      const n = naive.evaluate(w.records[i]!);
      const ids = (s: number) => w.rules.rules.filter((_, k) => r.status[k] === s).map((x) => x.id);
      expect(n.fired, `frame ${i}`).toEqual(ids(RULE_FIRED));
      expect(n.unknown, `frame ${i}`).toEqual(ids(RULE_UNKNOWN));
      fired += r.count;
      unknown += r.nanCount;
    });
    // The workload exercises firing and NaN reporting, not just quiet rules.
    expect(fired).toBeGreaterThan(w.frames.length);
    expect(unknown).toBeGreaterThan(0);
  });
});

describe('zetta bench critic', () => {
  it('prints a table and, with --json, one JSON object as the last line', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    try {
      expect(
        await benchCriticCommand.run(['--rules', '16', '--frames', '256', '--iterations', '200', '--heap-steps', '2000', '--json']),
      ).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const lines = out.join('').trimEnd().split('\n');
    const result = JSON.parse(lines.at(-1)!);
    expect(result).toMatchObject({ rules: 16, frames: 256, iterations: 200, agree: true });
    for (const k of ['p50_us', 'p99_us', 'baseline_p50_us', 'ratio_p50', 'heap_growth_bytes']) expect(typeof result[k]).toBe('number');
  });
});
