// Condition search: which condition, over the world's declared features and the critic's derived
// ones, holds in the failures before they are lost and not in the successes. Every series of
// feature-series.ts is compared with thresholds taken from the failures' own values near their
// onset, in both directions and with a few dwells; then conjunctions of two: the best single
// conditions, and those that fire in time on most failures whatever they do on successes, each with
// every plain comparison. A conjunction earns its place by what its second part takes away: the
// gripper commanded closed fires in every failed grasp and every good one; with "the hand is away
// from the object" it fires in the failed ones only. A condition scores by separation, on the
// parent's recorded episodes:
//
//   in time  fires first between (onset − EARLY_SLACK) and the failure point of a targeted failure
//   early    fires first before that: on the healthy stretch of a failure (a condition that always
//            holds, e.g. a property of the scene, is early everywhere and useless)
//   false    fires at all in a success
//   healthy  the share of a failure's steps before (onset − EARLY_SLACK) on which the condition
//            holds, averaged over the failures: the contrast at matched moments, which still
//            separates when every episode failed and there is no success to compare with; an
//            approach shorter than twice EARLY_SLACK keeps its first half as the healthy stretch
//   lead     how early in its window an in-time firing comes (1: at the window's start, 0: at the
//            failure point), averaged over the failures: the room a recovery has left
//   score  = in_time / failures − early / failures − healthy − 2 · false / successes + 0.1 · lead
//
// Nothing here runs an episode: the rollouts that choose the action come after (campaign/search-step.ts).
import type { FeatureLayout } from '../../critic/index.js';
import type { ReplayEpisode } from '../shadow-replay.js';
import { episodeColumns, searchableFeatures, seriesOf, seriesSpecs, type EpisodeColumns, type SeriesSpec } from './feature-series.js';

/** A failure's condition may fire this many steps before its onset and still be in time. */
export const EARLY_SLACK = 10;
/** A false alarm on a success costs this many in-time triggers on failures. */
const FALSE_ALARM_WEIGHT = 2;
const DWELLS = [1, 3, 8] as const;
const QUANTILES = [0.02, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.98] as const;
/** Weight of the lead: it only breaks near-ties between conditions that separate alike. */
const LEAD_WEIGHT = 0.1;
/** Best single conditions paired into conjunctions. */
const PAIR_FROM = 10;
/**
 * Single conditions that fire in time on the most failures, false alarms aside, paired too: many
 * fire at the same moment (everything that changes when the hand stops), so the pool is wide.
 */
const RECALL_FROM = 40;

/** A condition in the rule language (critic/rules/ops), with the dwell it is fitted with. */
export interface SearchedCondition {
  readonly when: Readonly<Record<string, unknown>>;
  readonly dwell: number;
  readonly features: readonly string[];
  readonly in_time: number;
  readonly early: number;
  /** Mean share of the failures' healthy steps on which it holds. */
  readonly healthy: number;
  readonly false_alarms: number;
  readonly failures: number;
  readonly successes: number;
  readonly score: number;
}

interface Single {
  readonly spec: SeriesSpec;
  readonly above: boolean;
  readonly theta: number;
  /** Per episode, whether the condition holds at each step. */
  readonly holds: readonly Uint8Array[];
}

interface Scored {
  readonly single: Single | null;
  readonly pair: readonly [Single, Single] | null;
  readonly dwell: number;
  readonly in_time: number;
  readonly early: number;
  readonly false_alarms: number;
  readonly healthy: number;
  readonly score: number;
}

/** The `top` best conditions, each on a different set of features, best first (deterministic). */
export function searchConditions(
  replay: readonly ReplayEpisode[],
  layout: FeatureLayout,
  privileged: boolean,
  top: number,
): SearchedCondition[] {
  const episodes = [...replay].sort((a, b) => a.seed - b.seed);
  const cols = episodes.map((e) => episodeColumns(e.record, layout, privileged));
  const failures = episodes.filter((e) => !e.success && e.inCluster).length;
  const successes = episodes.filter((e) => e.success).length;
  if (failures === 0) return [];
  const judge = (holds: readonly Uint8Array[], dwell: number) => judgeFirings(episodes, cols, holds, dwell, failures, successes);
  const singles: Scored[] = [];
  for (const spec of seriesSpecs(layout, searchableFeatures(layout))) {
    const series = cols.map((c) => seriesOf(spec, c, layout));
    for (const above of [true, false]) {
      for (const theta of thresholds(series, episodes, spec, above)) {
        const holds = series.map((s) => holdsWhere(s, above, theta));
        for (const dwell of DWELLS) singles.push({ single: { spec, above, theta, holds }, pair: null, dwell, ...judge(holds, dwell) });
      }
    }
  }
  const pairs = conjunctions(singles, failures, judge);
  return distinctBest([...singles, ...pairs], top).map((s) => ({
    when: s.single ? conditionOf(s.single) : { op: 'and', args: s.pair!.map(conditionOf) },
    dwell: s.dwell,
    features: featuresOf(s),
    in_time: s.in_time,
    early: s.early,
    healthy: round(s.healthy),
    false_alarms: s.false_alarms,
    failures,
    successes,
    score: round(s.score),
  }));
}

/**
 * Conjunctions of two: each first part (the best singles, and the singles that fire in time on most
 * failures, false alarms aside) with every plain comparison on another feature. Only the best
 * conjunction per pair of features is kept, so the caller's memory stays that of the singles.
 */
function conjunctions(
  singles: readonly Scored[],
  failures: number,
  judge: (holds: readonly Uint8Array[], dwell: number) => Omit<Scored, 'single' | 'pair' | 'dwell'>,
): Scored[] {
  const firsts = new Set(
    [...distinctBest(singles, PAIR_FROM), ...distinctBy(singles, (s) => recall(s, failures), RECALL_FROM)].map((s) => s.single!),
  );
  if (firsts.size === 0) return [];
  const partners = [...new Set([...firsts, ...singles.filter((s) => s.single!.spec.kind.op === 'value').map((s) => s.single!)])];
  const scratch = [...firsts][0]!.holds.map((h) => new Uint8Array(h.length));
  const best = new Map<string, Scored>();
  for (const a of firsts) {
    for (const b of partners) {
      if (a.spec.feature === b.spec.feature) continue;
      scratch.forEach((out, e) => {
        const x = a.holds[e]!;
        const y = b.holds[e]!;
        for (let t = 0; t < out.length; t++) out[t] = x[t]! & y[t]!;
      });
      for (const dwell of DWELLS) {
        const judged = judge(scratch, dwell);
        if (judged.score <= 0) continue;
        const key = [a.spec.feature, b.spec.feature].sort().join('+');
        const held = best.get(key);
        if (!held || judged.score > held.score) best.set(key, { single: null, pair: [a, b], dwell, ...judged });
      }
    }
  }
  return [...best.values()];
}

/** How a first part of a conjunction is chosen: in time on the failures, early and healthy firings against it, false alarms not. */
function recall(s: Scored, failures: number): number {
  return (s.in_time - s.early) / failures - s.healthy;
}

/** The `n` best by `key`, one per feature, best first (ties as distinctBest breaks them). */
function distinctBy(scored: readonly Scored[], key: (s: Scored) => number, n: number): Scored[] {
  const sorted = [...scored].sort(
    (a, b) => key(b) - key(a) || a.dwell - b.dwell || JSON.stringify(keyOf(a)).localeCompare(JSON.stringify(keyOf(b))),
  );
  const seen = new Set<string>();
  const out: Scored[] = [];
  for (const s of sorted) {
    if (key(s) <= 0) break;
    const feature = s.single!.spec.feature;
    if (seen.has(feature)) continue;
    seen.add(feature);
    out.push(s);
    if (out.length === n) break;
  }
  return out;
}

/** Thresholds from the targeted failures' values around their onset (where a rule should fire). */
function thresholds(series: readonly Float64Array[], episodes: readonly ReplayEpisode[], spec: SeriesSpec, above: boolean): number[] {
  const values: number[] = [];
  episodes.forEach((e, k) => {
    if (e.success || !e.inCluster) return;
    const s = series[k]!;
    const from = Math.max(0, e.onset - EARLY_SLACK);
    for (let t = from; t <= Math.min(e.failurePoint, s.length - 1); t++) if (Number.isFinite(s[t]!)) values.push(s[t]!);
  });
  if (values.length === 0) return [];
  values.sort((a, b) => a - b);
  const out = new Set<number>();
  for (const q of QUANTILES) {
    // `x > θ` should hold at the failures' upper values: θ just below a quantile; `x < θ` just above
    const v = values[Math.min(values.length - 1, Math.floor(q * (values.length - 1)))]!;
    const nudge = Math.max(1e-6, Math.abs(v) * 1e-4);
    const theta = round(above ? v - nudge : v + nudge);
    if (spec.kind.op === 'range' && theta < 0) continue; // a range is never negative
    out.add(theta);
  }
  return [...out];
}

function holdsWhere(s: Float64Array, above: boolean, theta: number): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let t = 0; t < s.length; t++) out[t] = above ? (s[t]! > theta ? 1 : 0) : s[t]! < theta ? 1 : 0; // NaN: 0
  return out;
}

/** First step the condition has held `dwell` steps in a row while the rule's guards let it act; −1 never. */
export function firstFiring(holds: Uint8Array, open: Uint8Array, dwell: number): number {
  let run = 0;
  for (let t = 0; t < holds.length; t++) {
    run = holds[t]! && open[t]! ? run + 1 : 0;
    if (run >= dwell) return t;
  }
  return -1;
}

function judgeFirings(
  episodes: readonly ReplayEpisode[],
  cols: readonly EpisodeColumns[],
  holds: readonly Uint8Array[],
  dwell: number,
  failures: number,
  successes: number,
): { in_time: number; early: number; false_alarms: number; healthy: number; score: number } {
  let inTime = 0;
  let early = 0;
  let falseAlarms = 0;
  let healthy = 0;
  let lead = 0;
  episodes.forEach((e, k) => {
    if (!e.success && e.inCluster) healthy += healthyShare(holds[k]!, e.onset - Math.min(EARLY_SLACK, Math.ceil(e.onset / 2)));
    const t = firstFiring(holds[k]!, cols[k]!.open, dwell);
    if (t < 0) return;
    if (e.success) falseAlarms++;
    else if (e.inCluster) {
      const from = Math.max(0, e.onset - EARLY_SLACK);
      if (t < from) early++;
      else if (t <= e.failurePoint) {
        inTime++;
        lead += e.failurePoint > from ? (e.failurePoint - t) / (e.failurePoint - from) : 0;
      }
    }
  });
  healthy /= failures;
  const falseRate = successes ? (FALSE_ALARM_WEIGHT * falseAlarms) / successes : 0;
  const score = inTime / failures - early / failures - healthy - falseRate + (LEAD_WEIGHT * lead) / failures;
  return { in_time: inTime, early, false_alarms: falseAlarms, healthy, score };
}

/** Share of the steps before `until` on which the condition holds (0 when there are none). */
function healthyShare(holds: Uint8Array, until: number): number {
  const n = Math.min(until, holds.length);
  if (n <= 0) return 0;
  let k = 0;
  for (let t = 0; t < n; t++) k += holds[t]!;
  return k / n;
}

/** Simpler is likelier to transfer: a comparison before a temporal op, one condition before two. */
function complexityOf(s: Scored): number {
  const one = (x: Single) => (x.spec.kind.op === 'value' ? 1 : 2);
  return s.single ? one(s.single) : one(s.pair![0]) + one(s.pair![1]);
}

/** Best first, keeping one condition per set of features (ties: fewer false alarms, simpler, shorter dwell, text). */
function distinctBest(scored: readonly Scored[], n: number): Scored[] {
  const sorted = [...scored].sort(
    (a, b) =>
      b.score - a.score ||
      a.false_alarms - b.false_alarms ||
      complexityOf(a) - complexityOf(b) ||
      a.dwell - b.dwell ||
      JSON.stringify(keyOf(a)).localeCompare(JSON.stringify(keyOf(b))),
  );
  const seen = new Set<string>();
  const out: Scored[] = [];
  for (const s of sorted) {
    if (s.score <= 0) break;
    const key = featuresOf(s).join('+');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
    if (out.length === n) break;
  }
  return out;
}

function keyOf(s: Scored): unknown {
  return s.single ? conditionOf(s.single) : s.pair!.map(conditionOf);
}

function featuresOf(s: Scored): string[] {
  return (s.single ? [s.single.spec.feature] : s.pair!.map((p) => p.spec.feature)).sort();
}

/** The rule-language condition a single search result stands for. */
function conditionOf(s: Single): Record<string, unknown> {
  const { feature, kind } = s.spec;
  if (kind.op === 'value') return { op: s.above ? 'gt' : 'lt', feature, value: s.theta };
  if (kind.op === 'range') {
    // small ranges are the interesting side (a stalled quantity); a wide range has no op of its own
    return s.above
      ? { op: 'not', arg: { op: 'stagnant', feature, window: kind.window, eps: s.theta } }
      : { op: 'stagnant', feature, window: kind.window, eps: s.theta };
  }
  // change > θ ≥ 0 is rising by θ; change < θ with θ ≤ 0 is falling by −θ; other sides are not ops
  if (s.above && s.theta >= 0) return { op: 'rising', feature, window: kind.window, by: s.theta };
  if (!s.above && s.theta <= 0) return { op: 'falling', feature, window: kind.window, by: -s.theta };
  return s.above
    ? { op: 'not', arg: { op: 'falling', feature, window: kind.window, by: -s.theta } }
    : { op: 'not', arg: { op: 'rising', feature, window: kind.window, by: s.theta } };
}

const round = (x: number) => Number(x.toPrecision(6));
