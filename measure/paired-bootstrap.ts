// The arithmetic of the governance arms: per task, the success rate of policy alone, of the critic
// alone (the best of the trivial controls on that task), of both, and synergy = both − max(policy
// alone, critic alone); macro figures are means over tasks. The 95% intervals come from a seeded,
// paired bootstrap over each task's seeds: one resample of seed indices is applied to every arm, so
// a hard seed stays hard in all of them, and the whole statistic (the max over controls included)
// is recomputed on every resample. Deterministic for a given seed.
import { mulberry32 } from '../util/seeded-random.js';

/** One arm's episodes of one task, seed i at index i: 1 success, 0 failure, null not counted (infra). */
export type SeedOutcomes = readonly (0 | 1 | null)[];

export interface TaskSamples {
  readonly policy: SeedOutcomes;
  /** One per trivial control, in a fixed order. */
  readonly controls: readonly SeedOutcomes[];
  readonly both: SeedOutcomes;
}

/** A point estimate and its percentile bootstrap interval. */
export interface Estimate {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

export interface TaskSynergy {
  readonly policy: Estimate;
  /** The best control's rate on this task (the max over controls, recomputed per resample). */
  readonly critic: Estimate;
  readonly both: Estimate;
  readonly synergy: Estimate;
  /** Index of the control with the highest rate over all seeds (the first of equals). */
  readonly control: number;
  readonly controlRates: readonly number[];
}

export interface MacroSynergy {
  readonly policy: Estimate;
  readonly critic: Estimate;
  readonly both: Estimate;
  readonly synergy: Estimate;
}

export interface SynergyEstimate {
  readonly tasks: readonly TaskSynergy[];
  readonly macro: MacroSynergy;
}

export interface BootstrapOptions {
  /** Resamples drawn (default 2000). */
  readonly resamples?: number;
  /** Seed of the resampling stream (default 20_240_601). */
  readonly seed?: number;
  /** Coverage of the percentile interval (default 0.95). */
  readonly confidence?: number;
}

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_BOOTSTRAP_SEED = 20_240_601;

/** The four statistics of one task, over the seed indices `idx`. */
interface Point {
  policy: number;
  critic: number;
  both: number;
  synergy: number;
}
const KEYS = ['policy', 'critic', 'both', 'synergy'] as const;

export function pairedSynergy(tasks: readonly TaskSamples[], options: BootstrapOptions = {}): SynergyEstimate {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  for (const t of tasks) checkPaired(t);
  const full = tasks.map((t) => identity(t.policy.length));
  const points = tasks.map((t, i) => statistic(t, full[i]!));
  const draws = tasks.map(() => emptyDraws(resamples));
  const macroDraws = emptyDraws(resamples);
  const next = mulberry32(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  for (let r = 0; r < resamples; r++) {
    const perTask = tasks.map((t, i) => {
      const p = statistic(t, resample(t.policy.length, next));
      for (const k of KEYS) draws[i]![k][r] = p[k];
      return p;
    });
    for (const k of KEYS) macroDraws[k][r] = meanFinite(perTask.map((p) => p[k]));
  }
  const interval = (value: number, d: Float64Array): Estimate => ({ value, ...percentile(d, confidence) });
  return {
    tasks: tasks.map((t, i) => {
      const rates = t.controls.map((c) => rate(c, full[i]!));
      return {
        policy: interval(points[i]!.policy, draws[i]!.policy),
        critic: interval(points[i]!.critic, draws[i]!.critic),
        both: interval(points[i]!.both, draws[i]!.both),
        synergy: interval(points[i]!.synergy, draws[i]!.synergy),
        control: argmaxFinite(rates),
        controlRates: rates,
      };
    }),
    macro: {
      policy: interval(meanFinite(points.map((p) => p.policy)), macroDraws.policy),
      critic: interval(meanFinite(points.map((p) => p.critic)), macroDraws.critic),
      both: interval(meanFinite(points.map((p) => p.both)), macroDraws.both),
      synergy: interval(meanFinite(points.map((p) => p.synergy)), macroDraws.synergy),
    },
  };
}

function statistic(t: TaskSamples, idx: readonly number[]): Point {
  const policy = rate(t.policy, idx);
  const critic = maxFinite(t.controls.map((c) => rate(c, idx)));
  const both = rate(t.both, idx);
  const alone = maxFinite([policy, critic]);
  return { policy, critic, both, synergy: Number.isFinite(both) && Number.isFinite(alone) ? both - alone : Number.NaN };
}

/** Success rate over the seeds at `idx` that were counted (NaN when none was). */
export function rate(outcomes: SeedOutcomes, idx: readonly number[]): number {
  let ok = 0;
  let counted = 0;
  for (const i of idx) {
    const o = outcomes[i];
    if (o === null || o === undefined) continue;
    counted++;
    ok += o;
  }
  return counted ? ok / counted : Number.NaN;
}

/** Percentile interval (linear interpolation between order statistics), NaN resamples left out. */
export function percentile(draws: Float64Array, confidence: number): { low: number; high: number } {
  const finite = Float64Array.from(draws.filter((x) => Number.isFinite(x))).sort();
  if (finite.length === 0) return { low: Number.NaN, high: Number.NaN };
  const at = (q: number) => {
    const pos = q * (finite.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(lo + 1, finite.length - 1);
    return finite[lo]! + (pos - lo) * (finite[hi]! - finite[lo]!);
  };
  const tail = (1 - confidence) / 2;
  return { low: at(tail), high: at(1 - tail) };
}

function checkPaired(t: TaskSamples): void {
  const n = t.policy.length;
  if (n === 0) throw new RangeError('a task needs at least one seed');
  if (t.both.length !== n || t.controls.some((c) => c.length !== n)) throw new RangeError('every arm of a task must cover the same seeds');
  if (t.controls.length === 0) throw new RangeError('the critic-alone arm needs at least one control');
}

function resample(n: number, next: () => number): number[] {
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = Math.floor(next() * n);
  return idx;
}

function identity(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

function emptyDraws(n: number): Record<(typeof KEYS)[number], Float64Array> {
  return { policy: new Float64Array(n), critic: new Float64Array(n), both: new Float64Array(n), synergy: new Float64Array(n) };
}

function maxFinite(xs: readonly number[]): number {
  let best = Number.NaN;
  for (const x of xs) if (Number.isFinite(x) && !(x <= best)) best = x;
  return best;
}

function argmaxFinite(xs: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (Number.isFinite(xs[i]!) && !(xs[i]! <= xs[best]!)) best = i;
  return best;
}

function meanFinite(xs: readonly number[]): number {
  const f = xs.filter((x) => Number.isFinite(x));
  return f.length ? f.reduce((a, b) => a + b, 0) / f.length : Number.NaN;
}
