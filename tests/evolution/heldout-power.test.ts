// A campaign whose held-out set is too small for its α says so before it spends a rollout: an exact
// one-sided McNemar p over n pairs is never below 0.5^n.
import { describe, expect, it } from 'vitest';
import { heldoutAlpha, heldoutTooSmall } from '../../evolution/campaign/gating.js';
import { DEFAULT_GATES } from '../../evolution/index.js';
import { mcnemarOneSided } from '../../measure/mcnemar.js';

describe('heldoutTooSmall', () => {
  it('refuses 4 pairs at one generation (the smallest p, 0.0625, is above α = 0.0167), and the reason says how many it takes', () => {
    expect(heldoutAlpha(DEFAULT_GATES, 1, 0)).toBeCloseTo(0.025 * (2 / 3), 12);
    expect(mcnemarOneSided(4, 0)).toBeCloseTo(0.0625, 12); // the floor is reachable, and is the floor
    const why = heldoutTooSmall(DEFAULT_GATES, 1, 4);
    expect(why).toMatch(/with 4 paired held-out episodes the smallest one-sided p is 0\.063, above the first test's α = 0\.0167/);
    expect(why).toContain('at least 6 held-out episodes');
  });

  it('accepts the smallest set that can pass, and what the shipped sizes use', () => {
    expect(mcnemarOneSided(6, 0)).toBeLessThanOrEqual(heldoutAlpha(DEFAULT_GATES, 1, 0));
    expect(heldoutTooSmall(DEFAULT_GATES, 1, 6)).toBeNull();
    expect(heldoutTooSmall(DEFAULT_GATES, 1, 5)).not.toBeNull();
    expect(heldoutTooSmall(DEFAULT_GATES, 2, 20)).toBeNull();
    expect(heldoutTooSmall(DEFAULT_GATES, 1, 8)).toBeNull();
  });
});
