// Success rates with honest uncertainty: the Wilson score interval, which behaves at 0/n and n/n
// where the normal approximation collapses.

export interface Rate {
  readonly successes: number;
  readonly episodes: number;
  readonly rate: number;
  readonly low: number;
  readonly high: number;
}

/** Wilson score interval at confidence given by z (1.96 → 95%). */
export function wilson(successes: number, episodes: number, z = 1.959964): Rate {
  if (episodes === 0) return { successes, episodes, rate: Number.NaN, low: 0, high: 1 };
  const p = successes / episodes;
  const z2 = z * z;
  const denom = 1 + z2 / episodes;
  const centre = (p + z2 / (2 * episodes)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / episodes + z2 / (4 * episodes * episodes))) / denom;
  // The interval always holds p; at 0/n and n/n rounding would leave it a hair short of 0 or 1.
  return { successes, episodes, rate: p, low: Math.max(0, Math.min(p, centre - half)), high: Math.min(1, Math.max(p, centre + half)) };
}
