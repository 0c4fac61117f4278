// The exact one-sided McNemar test on paired binary outcomes. Only discordant pairs carry evidence:
// b = the candidate succeeded where the parent failed, c = the reverse. Under "no difference" each
// discordant pair is a fair coin, so the p-value of "the candidate is better" is P(X ≥ b) for
// X ~ Binomial(b + c, 1/2). Exact, because held-out sets are small (20 episodes), where the
// chi-square approximation is badly off.

/** Outcomes at the same seeds, in the same order: 1 success, 0 failure, null none (the pair is dropped). */
export type PairedOutcomes = readonly (0 | 1 | null)[];

/** The discordant pairs of two paired runs: b = only `after` succeeded, c = only `before`. */
export function discordantPairs(before: PairedOutcomes, after: PairedOutcomes): { b: number; c: number } {
  if (before.length !== after.length) throw new RangeError(`paired runs differ in length: ${before.length} vs ${after.length} seeds`);
  let b = 0;
  let c = 0;
  for (let i = 0; i < before.length; i++) {
    if (before[i] === null || after[i] === null) continue;
    if (after[i] === 1 && before[i] === 0) b++;
    if (after[i] === 0 && before[i] === 1) c++;
  }
  return { b, c };
}

/** P(X ≥ b), X ~ Bin(b + c, 1/2); 1 when there are no discordant pairs. */
export function mcnemarOneSided(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`mcnemar: counts must be non-negative integers, got b=${b}, c=${c}`);
  const n = b + c;
  if (n === 0) return 1;
  if (n <= EXACT_MAX_N) return exactTail(n, b);
  // Beyond that, sum in log space from the top: no overflow, relative error ~1e-13.
  const logHalfN = -n * Math.LN2;
  let logChoose = 0; // log C(n, n) = 0
  let p = 0;
  for (let k = n; k >= b; k--) {
    p += Math.exp(logChoose + logHalfN);
    // C(n, k−1) = C(n, k) · k / (n − k + 1)
    logChoose += Math.log(k) - Math.log(n - k + 1);
  }
  return Math.min(1, p);
}

/** 2^n still fits a double up to here, so the tail is an exact integer ratio, rounded once. */
const EXACT_MAX_N = 1000;

function exactTail(n: number, b: number): number {
  let choose = 1n; // C(n, k), starting at k = 0
  let tail = 0n;
  for (let k = 0; k <= n; k++) {
    if (k >= b) tail += choose;
    choose = (choose * BigInt(n - k)) / BigInt(k + 1);
  }
  return Number(tail) / Number(1n << BigInt(n));
}
