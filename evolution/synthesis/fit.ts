// Threshold fitting by shadow replay. The template rule is replayed once per parent episode with its
// initial threshold θ0, keeping the rule's robustness margin m_t at every step. For a comparison
// `x < θ` the margin is x − θ0, so the rule would hold with threshold θ exactly when m_t < θ − θ0
// (for `x > θ`: m_t < θ0 − θ); together with the dwell, that gives every threshold's first firing
// step without replaying again. The fit picks the threshold and dwell that fire in time on most of
// the cluster's failures while firing on as few successes as possible.
import { loadRules, type RuleSet } from '../../critic/index.js';
import type { FeatureLayout } from '../../critic/index.js';
import { replayRules, type ReplayEpisode } from '../shadow-replay.js';
import type { FittableRule } from './templates.js';

/** A false alarm on a success costs this many in-time triggers on failures. */
const FALSE_ALARM_WEIGHT = 2;

export interface FitResult {
  readonly theta: number;
  readonly dwell: number;
  readonly triggers: number;
  readonly targeted: number;
  readonly false_alarms: number;
  readonly successes: number;
  readonly score: number;
  /** Thresholds × dwells tried. */
  readonly tried: number;
}

export function fitThreshold(
  f: FittableRule,
  recoveryId: string,
  episodes: readonly ReplayEpisode[],
  privileged: boolean,
  layout: FeatureLayout,
): FitResult {
  const rules: RuleSet = loadRules({ version: 1, rules: [f.rule] }, { layout, privileged, knownRecoveries: [recoveryId] });
  const traces = [...episodes]
    .sort((a, b) => a.seed - b.seed)
    .map((ep) => ({ ep, margins: replayRules(ep.record, rules, { privileged, marginOf: 0 }).margins }));
  const targeted = traces.filter((t) => !t.ep.success && t.ep.inCluster);
  const successes = traces.filter((t) => t.ep.success);
  let best: FitResult | null = null;
  let tried = 0;
  for (const shift of candidateShifts(targeted.map((t) => t.margins))) {
    const theta = f.op === 'lt' ? f.theta0 + shift : f.theta0 - shift;
    if (theta < f.min - 1e-12 || theta > f.max + 1e-12) continue;
    for (const dwell of f.dwells) {
      tried++;
      const triggers = targeted.filter((t) => {
        const s = firstFire(t.margins, shift, dwell);
        return s >= 0 && s <= t.ep.failurePoint;
      }).length;
      const falseAlarms = successes.filter((t) => firstFire(t.margins, shift, dwell) >= 0).length;
      const score = rate(triggers, targeted.length) - FALSE_ALARM_WEIGHT * rate(falseAlarms, successes.length);
      if (!best || score > best.score || (score === best.score && falseAlarms < best.false_alarms)) {
        best = {
          theta: roundTheta(theta),
          dwell,
          triggers,
          targeted: targeted.length,
          false_alarms: falseAlarms,
          successes: successes.length,
          score,
          tried: 0,
        };
      }
    }
  }
  const fallback = {
    theta: f.theta0,
    dwell: f.dwells[0]!,
    triggers: 0,
    targeted: targeted.length,
    false_alarms: 0,
    successes: successes.length,
    score: 0,
    tried: 0,
  };
  return { ...(best ?? fallback), tried };
}

/** First step at which m < shift has held `dwell` consecutive steps (NaN — inactive — resets). */
export function firstFire(margins: Float64Array, shift: number, dwell: number): number {
  let run = 0;
  for (let t = 0; t < margins.length; t++) {
    const m = margins[t]!;
    run = m === m && m < shift ? run + 1 : 0;
    if (run >= dwell) return t;
  }
  return -1;
}

/**
 * Shifts at which the targeted failures' margins change whether the rule holds: the 5%…100%
 * quantiles of their finite margins, each nudged just past the value so it is included. Shift 0
 * (the initial threshold) is always tried.
 */
function candidateShifts(series: readonly Float64Array[]): number[] {
  const values = series.flatMap((m) => Array.from(m).filter(Number.isFinite)).sort((a, b) => a - b);
  const shifts = new Set<number>([0]);
  for (let q = 1; q <= 20 && values.length; q++) {
    const v = values[Math.min(values.length - 1, Math.floor((q / 20) * (values.length - 1)))]!;
    shifts.add(v + Math.max(1e-7, Math.abs(v) * 1e-5));
  }
  return [...shifts].sort((a, b) => a - b);
}

const rate = (k: number, n: number) => (n ? k / n : 0);
/** Fitted thresholds are written with 8 significant digits: stable text, stable hashes. */
const roundTheta = (x: number) => Number(x.toPrecision(8));
