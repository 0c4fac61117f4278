import { describe, expect, it } from 'vitest';
import { mcnemarOneSided } from '../../evolution/index.js';
import { discordantPairs } from '../../measure/mcnemar.js';

// Reference values: P(X ≥ b) for X ~ Binomial(b + c, 1/2), as scipy.stats.binomtest(b, b + c, 0.5,
// alternative='greater').pvalue gives them; the fractions are exact.
describe('exact one-sided McNemar', () => {
  it.each([
    [6, 0, 1 / 64],
    [5, 0, 1 / 32],
    [8, 2, 56 / 1024],
    [3, 7, 968 / 1024],
    [15, 5, 21700 / 1048576],
    [1, 0, 0.5],
    [0, 4, 1],
  ])('b=%i c=%i → p=%f', (b, c, p) => {
    expect(mcnemarOneSided(b, c)).toBe(p); // exact: the fractions are exact in binary
  });

  it('is 1 without discordant pairs and stays finite for large samples', () => {
    expect(mcnemarOneSided(0, 0)).toBe(1);
    // binomtest(600, 1000, 0.5, 'greater').pvalue = 1.3642320780330092e-10 (exact path)
    expect(mcnemarOneSided(600, 400) / 1.3642320780330092e-10).toBeCloseTo(1, 12);
    // past the exact path: log-space sum, P(X ≥ 1100 | n = 2000) = 4.228544767751963e-6 by the exact integer ratio
    expect(mcnemarOneSided(1100, 900) / 4.228544767751963e-6).toBeCloseTo(1, 9);
  });

  it('six wins out of six discordant pairs is the smallest gain that passes α = 0.025', () => {
    expect(mcnemarOneSided(5, 0)).toBeGreaterThan(0.025);
    expect(mcnemarOneSided(6, 0)).toBeLessThan(0.025);
    expect(mcnemarOneSided(7, 1)).toBeGreaterThan(0.025); // 9/256
    expect(mcnemarOneSided(8, 1)).toBeLessThan(0.025); // 10/512
    expect(mcnemarOneSided(8, 2)).toBeGreaterThan(0.025);
  });

  it('rejects counts that are not non-negative integers', () => {
    expect(() => mcnemarOneSided(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarOneSided(1.5, 2)).toThrow(RangeError);
  });
});

describe('discordant pairs of two paired runs', () => {
  it('counts the seeds where only one run succeeded, dropping pairs without an outcome', () => {
    expect(discordantPairs([1, 0, 0, 1, null, 0], [1, 1, 1, 0, 1, null])).toEqual({ b: 2, c: 1 });
    expect(() => discordantPairs([1, 0], [1])).toThrow(RangeError);
  });
});
