// The series a condition search compares with thresholds, computed once per recorded episode from the
// frames the critic read live (shadow-replay.ts replayFrames): a feature itself (for `gt` / `lt`), its
// net change over a window (for `rising` / `falling`) and its range over a window (for `stagnant`).
// Each series is exactly the quantity the rule language's op compares, so a threshold found here
// is the `value`, `by` or `eps` of the rule that is written; the candidate's shadow replay through
// the real critic then checks the rule as written.
import type { FeatureLayout } from '../../critic/index.js';
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';
import { replayFrames } from '../shadow-replay.js';

/** Windows (steps) of the temporal ops the search tries. */
export const SEARCH_WINDOWS = [5, 20] as const;

/** What a series measures, and so which op a threshold on it becomes. */
export type SeriesKind = { readonly op: 'value' } | { readonly op: 'change' | 'range'; readonly window: number };

export interface SeriesSpec {
  readonly feature: string;
  readonly kind: SeriesKind;
}

/** One episode's frames, column per layout feature, and whether a new rule's guards would let it act. */
export interface EpisodeColumns {
  readonly steps: number;
  /** Per layout index, the feature's value at each step (NaN where unknown). */
  readonly columns: readonly Float64Array[];
  /** The policy drives and no recovery ended in the last `minSince` steps (an evolved rule's guards). */
  readonly open: Uint8Array;
}

/** Steps since the last recovery an evolved rule waits before judging the policy again. */
export const STEPS_SINCE_RECOVERY = 10;

/**
 * Columns already computed, per recording and layout: a generation searches once per pool of
 * clusters, and every pool replays the same development recordings (only which failures it targets
 * differs). Held weakly, so they go with the recordings.
 */
const computed = new WeakMap<EpisodeRecord, WeakMap<FeatureLayout, Map<boolean, EpisodeColumns>>>();

/** `record`'s columns under `layout` (computed once per recording, layout and privilege). */
export function episodeColumns(record: EpisodeRecord, layout: FeatureLayout, privileged: boolean): EpisodeColumns {
  let byLayout = computed.get(record);
  if (!byLayout) computed.set(record, (byLayout = new WeakMap()));
  let byPrivilege = byLayout.get(layout);
  if (!byPrivilege) byLayout.set(layout, (byPrivilege = new Map()));
  let cols = byPrivilege.get(privileged);
  if (!cols) byPrivilege.set(privileged, (cols = replayColumns(record, layout, privileged)));
  return cols;
}

function replayColumns(record: EpisodeRecord, layout: FeatureLayout, privileged: boolean): EpisodeColumns {
  const n = record.steps.length;
  const columns = layout.features.map(() => new Float64Array(n));
  const inRecovery = layout.index('episode.in_recovery');
  const since = layout.index('episode.steps_since_recovery');
  const open = new Uint8Array(n);
  replayFrames(record, layout, privileged, (frame, t) => {
    const v = frame.values;
    for (let i = 0; i < columns.length; i++) columns[i]![t] = v[i]!;
    open[t] = v[inRecovery] === 0 && v[since]! >= STEPS_SINCE_RECOVERY ? 1 : 0;
  });
  return { steps: n, columns, open };
}

/**
 * The features a search may compare: what the world's schema declares and the critic derives,
 * never a privileged one (an evolved rule must run on a robot), and of the episode's bookkeeping
 * only its step (deadlines); the rest of `episode.*` describes the critic itself.
 */
export function searchableFeatures(layout: FeatureLayout): string[] {
  return layout.features
    .map((f) => f.name)
    .filter((name) => !layout.isPrivileged(name) && (!name.startsWith('episode.') || name === 'episode.step') && name !== 'command.finite');
}

/** Every series the search considers for these features: booleans as they are, numbers also over windows. */
export function seriesSpecs(layout: FeatureLayout, features: readonly string[]): SeriesSpec[] {
  const kinds = new Map(layout.features.map((f) => [f.name, f.kind]));
  const out: SeriesSpec[] = [];
  for (const feature of features) {
    out.push({ feature, kind: { op: 'value' } });
    if (kinds.get(feature) === 'boolean' || feature === 'episode.step') continue;
    for (const window of SEARCH_WINDOWS) {
      out.push({ feature, kind: { op: 'change', window } });
      out.push({ feature, kind: { op: 'range', window } });
    }
  }
  return out;
}

/** The series over one episode (NaN where the op's window is not full or holds an unknown value). */
export function seriesOf(spec: SeriesSpec, episode: EpisodeColumns, layout: FeatureLayout): Float64Array {
  const x = episode.columns[layout.index(spec.feature)]!;
  const k = spec.kind;
  if (k.op === 'value') return x;
  const out = new Float64Array(episode.steps).fill(Number.NaN);
  if (k.op === 'change') {
    for (let t = k.window; t < episode.steps; t++) out[t] = x[t]! - x[t - k.window]!;
    return out;
  }
  // range over the last `window` values, as `stagnant` takes it (any NaN makes it unknown)
  for (let t = k.window - 1; t < episode.steps; t++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = t - k.window + 1; i <= t; i++) {
      const v = x[i]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
      if (v !== v) {
        lo = Number.NaN;
        break;
      }
    }
    out[t] = hi - lo;
  }
  return out;
}
