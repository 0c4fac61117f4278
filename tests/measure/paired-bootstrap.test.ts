import { describe, expect, it } from 'vitest';
import { pairedSynergy, percentile, rate, type SeedOutcomes, type TaskSamples } from '../../measure/paired-bootstrap.js';

/** n seeds, success where `ok(i)`. */
const seeds = (n: number, ok: (i: number) => boolean): SeedOutcomes => Array.from({ length: n }, (_, i) => (ok(i) ? 1 : 0));

const TASKS: TaskSamples[] = [
  // policy alone 40%, controls 20% / 50% / 0%, both 80%: synergy 0.8 − 0.5 = +0.3
  {
    policy: seeds(20, (i) => i % 5 < 2),
    controls: [seeds(20, (i) => i % 5 === 0), seeds(20, (i) => i % 2 === 0), seeds(20, () => false)],
    both: seeds(20, (i) => i % 5 !== 4),
  },
  // the critic alone beats the policy here: synergy 0.6 − 0.7 = −0.1
  {
    policy: seeds(20, (i) => i % 10 < 3),
    controls: [seeds(20, (i) => i % 10 < 7), seeds(20, (i) => i % 10 < 7), seeds(20, (i) => i % 10 < 1)],
    both: seeds(20, (i) => i % 10 < 6),
  },
];

describe('pairedSynergy', () => {
  it('takes per task the best control as the critic-alone arm and synergy = both − max(policy, critic)', () => {
    const r = pairedSynergy(TASKS, { resamples: 500 });
    const [a, b] = r.tasks;
    expect(a!.controlRates).toEqual([0.2, 0.5, 0]);
    expect(a!.control).toBe(1);
    expect(a!.policy.value).toBeCloseTo(0.4, 12);
    expect(a!.critic.value).toBeCloseTo(0.5, 12);
    expect(a!.both.value).toBeCloseTo(0.8, 12);
    expect(a!.synergy.value).toBeCloseTo(0.3, 12);
    expect(b!.control).toBe(0); // the first of equal controls
    expect(b!.critic.value).toBeCloseTo(0.7, 12);
    expect(b!.synergy.value).toBeCloseTo(-0.1, 12);
    expect(r.macro.synergy.value).toBeCloseTo(0.1, 12); // the mean over tasks of their synergies
    expect(r.macro.critic.value).toBeCloseTo(0.6, 12);
    expect(r.macro.both.value).toBeCloseTo(0.7, 12);
  });

  it('is deterministic for a seed, and its intervals contain the point estimates', () => {
    const r = pairedSynergy(TASKS, { resamples: 2000, seed: 11 });
    expect(pairedSynergy(TASKS, { resamples: 2000, seed: 11 })).toEqual(r);
    expect(pairedSynergy(TASKS, { resamples: 2000, seed: 12 }).tasks[0]!.synergy).not.toEqual(r.tasks[0]!.synergy);
    for (const t of [...r.tasks, r.macro]) {
      for (const e of [t.policy, t.critic, t.both, t.synergy]) {
        expect(e.low).toBeLessThanOrEqual(e.value);
        expect(e.high).toBeGreaterThanOrEqual(e.value);
        expect(e.high).toBeGreaterThan(e.low); // 20 mixed seeds: real uncertainty
      }
    }
    expect(r.macro.synergy.high - r.macro.synergy.low).toBeLessThan(r.tasks[0]!.synergy.high - r.tasks[0]!.synergy.low);
  });

  it('pairs the arms: identical outcomes per seed give a synergy of exactly 0 on every resample', () => {
    const policy = seeds(15, (i) => i % 3 !== 0);
    const r = pairedSynergy([{ policy, controls: [seeds(15, () => false)], both: policy }], { resamples: 300 });
    expect(r.tasks[0]!.synergy).toEqual({ value: 0, low: 0, high: 0 });
    expect(r.tasks[0]!.policy.high).toBeGreaterThan(r.tasks[0]!.policy.low);
  });

  it('leaves infrastructure failures (null) out of the rates and refuses unpaired arms', () => {
    expect(rate([1, null, 0, 1], [0, 1, 2, 3])).toBeCloseTo(2 / 3, 12);
    expect(rate([null, null], [0, 1])).toBeNaN();
    expect(() => pairedSynergy([{ policy: [1, 0], controls: [[1]], both: [1, 0] }])).toThrow(/same seeds/);
    expect(() => pairedSynergy([{ policy: [1], controls: [], both: [1] }])).toThrow(/control/);
  });

  it('computes percentile intervals by interpolating order statistics, ignoring NaN resamples', () => {
    const draws = Float64Array.from([...Array.from({ length: 101 }, (_, i) => i / 100), Number.NaN]);
    const { low, high } = percentile(draws, 0.95);
    expect(low).toBeCloseTo(0.025, 12);
    expect(high).toBeCloseTo(0.975, 12);
  });
});
