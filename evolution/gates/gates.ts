// The three gates a candidate must pass, in order: the paired same-seed gate on the development
// seeds (a valid pairing and a gain of at least min_gain), the regression gate (no fewer successes,
// no extra safety events), and the held-out gate (one-sided exact McNemar on the held-out discordant
// pairs at α, a gain of at least min_gain, no extra safety events). Each returns its numbers whether
// it passes or not: a rejection is evidence too. Over several tasks the counts are pooled (macro), and
// the regression and held-out gates also refuse a candidate with fewer successes than its parent on
// any one task: a veto per task can only reject, so it needs no correction of α.
import type { GateSettings } from '../campaign/manifest.js';
import { mcnemarOneSided } from '../../measure/mcnemar.js';
import { countPairs, type Pair, type PairCounts, type Pairing } from './paired.js';

export interface GateResult {
  readonly gate: 'paired' | 'regression' | 'heldout';
  readonly pass: boolean;
  readonly reason: string;
  readonly counts: PairCounts;
  readonly infra_dropped: number;
  readonly p_value: number | null;
}

export function pairedGate(p: Pairing, g: GateSettings): GateResult {
  const counts = countPairs(p.pairs);
  const gain = counts.b - counts.c;
  const pass = p.problems.length === 0 && gain >= g.min_gain;
  const reason = p.problems.length
    ? `invalid pairing: ${p.problems.slice(0, 3).join('; ')}`
    : `paired gain ${gain} (b=${counts.b}, c=${counts.c}); needs ≥ ${g.min_gain}`;
  return { gate: 'paired', pass, reason, counts, infra_dropped: p.infra_dropped.length, p_value: null };
}

export function regressionGate(p: Pairing, g: GateSettings): GateResult {
  const counts = countPairs(p.pairs);
  const fewer = counts.candidate_successes < counts.parent_successes;
  const extra = counts.candidate_safety_events - counts.parent_safety_events;
  const worse = tasksWithFewerSuccesses(p.pairs);
  const pass = !fewer && worse.length === 0 && extra <= g.max_extra_safety_events;
  const reason = `successes ${counts.parent_successes} → ${counts.candidate_successes}${worseText(worse)}; safety events ${counts.parent_safety_events} → ${counts.candidate_safety_events}`;
  return { gate: 'regression', pass, reason, counts, infra_dropped: p.infra_dropped.length, p_value: null };
}

export function heldoutGate(p: Pairing, g: GateSettings): GateResult {
  const counts = countPairs(p.pairs);
  const pValue = mcnemarOneSided(counts.b, counts.c);
  const gain = counts.b - counts.c;
  const extra = counts.candidate_safety_events - counts.parent_safety_events;
  const worse = tasksWithFewerSuccesses(p.pairs);
  const pass =
    p.problems.length === 0 && pValue <= g.alpha && gain >= g.min_gain && worse.length === 0 && extra <= g.max_extra_safety_events;
  const reason = p.problems.length
    ? `invalid pairing: ${p.problems.slice(0, 3).join('; ')}`
    : `McNemar b=${counts.b}, c=${counts.c}, one-sided p=${pValue.toPrecision(3)} (α=${Number(g.alpha.toPrecision(3))}); gain ${gain} (≥ ${g.min_gain})${worseText(worse)}; safety events ${counts.parent_safety_events} → ${counts.candidate_safety_events}`;
  return { gate: 'heldout', pass, reason, counts, infra_dropped: p.infra_dropped.length, p_value: pValue };
}

/** Tasks on which the candidate has fewer successes than the parent, with both counts. */
export function tasksWithFewerSuccesses(pairs: readonly Pair[]): Array<{ task: string; parent: number; candidate: number }> {
  const byTask = new Map<string, Pair[]>();
  for (const pair of pairs) byTask.set(pair.parent.task, [...(byTask.get(pair.parent.task) ?? []), pair]);
  if (byTask.size < 2) return []; // one task: the pooled counts already say it
  return [...byTask]
    .map(([task, ps]) => ({ task, ...countPairs(ps) }))
    .filter((t) => t.candidate_successes < t.parent_successes)
    .map((t) => ({ task: t.task, parent: t.parent_successes, candidate: t.candidate_successes }))
    .sort((a, b) => a.task.localeCompare(b.task));
}

function worseText(worse: ReadonlyArray<{ task: string; parent: number; candidate: number }>): string {
  return worse.length === 0 ? '' : `; fewer on ${worse.map((w) => `${w.task} (${w.parent} → ${w.candidate})`).join(', ')}`;
}
