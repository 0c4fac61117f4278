// A failed episode's signature: where it went wrong (the first milestone it never reached, and the
// step its last milestone was reached: the stall), and when it first looked different from the
// successful episodes of the same batch (the earliest observable divergence of its feature
// trajectory), with a snapshot of the features there. Clustering compares these.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';

/** The world's features a signature reads (their keys in recordings), each with the change that counts as "different". */
export type SignatureScales = Readonly<Record<string, number>>;
/** A feature further than this many scales from the successes' band … */
const DIVERGENCE_Z = 3;
/** … for this many consecutive steps is a divergence (one noisy step is not). */
const DIVERGENCE_RUN = 5;

export interface FailureSignature {
  readonly seed: number;
  readonly steps: number;
  readonly first_missing: string | null;
  /** Index of first_missing in the task's milestones (their count when all were reached). */
  readonly first_missing_index: number;
  /** Step at which the last reached milestone was reached (0 when none was). */
  readonly stall_step: number;
  readonly divergence_step: number | null;
  readonly divergence_feature: string | null;
  /** Feature values at the divergence (or the stall when no success exists to diverge from). */
  readonly snapshot: Readonly<Record<string, number>>;
}

/** Per-step reference of the successful episodes: mean and spread of each signature feature. */
export interface SuccessBand {
  readonly steps: number;
  readonly mean: Readonly<Record<string, Float64Array>>;
  readonly spread: Readonly<Record<string, Float64Array>>;
}

export function featureSeries(record: EpisodeRecord, name: string): Float64Array {
  const i = record.header.featureNames.indexOf(name);
  return Float64Array.from(record.steps, (s) => (i >= 0 && s.features ? (s.features[i] ?? Number.NaN) : Number.NaN));
}

/** Successes padded with their last value to the longest episode (a finished episode stays put). */
export function successBand(successes: readonly EpisodeRecord[], scales: SignatureScales): SuccessBand | null {
  if (successes.length === 0) return null;
  const steps = Math.max(...successes.map((r) => r.steps.length));
  const mean: Record<string, Float64Array> = {};
  const spread: Record<string, Float64Array> = {};
  for (const name of Object.keys(scales)) {
    const series = successes.map((r) => featureSeries(r, name));
    const m = new Float64Array(steps);
    const sd = new Float64Array(steps);
    for (let t = 0; t < steps; t++) {
      const xs = series.map((s) => s[Math.min(t, s.length - 1)]!).filter(Number.isFinite);
      const mu = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
      m[t] = mu;
      sd[t] = xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mu) ** 2, 0) / (xs.length - 1)) : 0;
    }
    mean[name] = m;
    spread[name] = sd;
  }
  return { steps, mean, spread };
}

export function failureSignature(
  record: EpisodeRecord,
  milestones: readonly string[],
  band: SuccessBand | null,
  scales: SignatureScales,
): FailureSignature {
  const reached = new Set(record.summary?.milestones ?? record.steps.at(-1)?.milestones ?? []);
  const idx = milestones.findIndex((m) => !reached.has(m));
  const firstMissingIndex = idx < 0 ? milestones.length : idx;
  const stall = stallStep(record);
  const div = band ? divergence(record, band, scales) : null;
  const at = div?.step ?? stall;
  return {
    seed: record.header.seed,
    steps: record.steps.length,
    first_missing: idx < 0 ? null : milestones[idx]!,
    first_missing_index: firstMissingIndex,
    stall_step: stall,
    divergence_step: div?.step ?? null,
    divergence_feature: div?.feature ?? null,
    snapshot: snapshotAt(record, at, scales),
  };
}

/** The step on which the episode's milestone list last grew. */
function stallStep(record: EpisodeRecord): number {
  let last = 0;
  let count = 0;
  for (const s of record.steps) {
    if (s.milestones.length > count) {
      count = s.milestones.length;
      last = s.step;
    }
  }
  return last;
}

function divergence(record: EpisodeRecord, band: SuccessBand, scales: SignatureScales): { step: number; feature: string } | null {
  const names = Object.keys(scales);
  const series = names.map((n) => featureSeries(record, n));
  let run = 0;
  for (let t = 0; t < record.steps.length; t++) {
    const b = Math.min(t, band.steps - 1);
    let worst = -1;
    let worstZ = DIVERGENCE_Z;
    names.forEach((n, k) => {
      const x = series[k]![t]!;
      const mu = band.mean[n]![b]!;
      if (!Number.isFinite(x) || !Number.isFinite(mu)) return;
      const z = Math.abs(x - mu) / Math.max(band.spread[n]![b]!, scales[n]!);
      if (z > worstZ) {
        worstZ = z;
        worst = k;
      }
    });
    run = worst >= 0 ? run + 1 : 0;
    if (run === DIVERGENCE_RUN) {
      // the divergence began where the run began; name the feature that is off there
      const start = t - DIVERGENCE_RUN + 1;
      return { step: start, feature: names[worst]! };
    }
  }
  return null;
}

function snapshotAt(record: EpisodeRecord, step: number, scales: SignatureScales): Record<string, number> {
  const out: Record<string, number> = {};
  const t = Math.max(0, Math.min(step, record.steps.length - 1));
  for (const n of Object.keys(scales)) {
    const v = featureSeries(record, n)[t];
    out[n] = v !== undefined && Number.isFinite(v) ? v : 0;
  }
  return out;
}
