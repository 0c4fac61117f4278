// Pairing a candidate's episodes with its parent's: the same seed must have produced the same scene
// (the reset digest is compared, not assumed) under the same policy, or the comparison is void.
// Infrastructure failures on either side drop the pair: they are nobody's task failure.
import type { EpisodeResult } from '../campaign/rollouts.js';

export interface Pair {
  readonly seed: number;
  readonly parent: EpisodeResult;
  readonly candidate: EpisodeResult;
}

export interface Pairing {
  readonly pairs: readonly Pair[];
  /** Seeds dropped because an infrastructure failure hit either side. */
  readonly infra_dropped: readonly number[];
  /** Why the pairing is invalid (empty: valid). */
  readonly problems: readonly string[];
}

export function pairEpisodes(
  parent: readonly EpisodeResult[],
  candidate: readonly EpisodeResult[],
  policy: { parent: string; candidate: string },
): Pairing {
  const problems: string[] = [];
  if (policy.parent !== policy.candidate) problems.push(`different policies: ${policy.parent} vs ${policy.candidate}`);
  const bySeed = new Map(candidate.map((r) => [r.seed, r]));
  const pairs: Pair[] = [];
  const dropped: number[] = [];
  for (const p of [...parent].sort((a, b) => a.seed - b.seed)) {
    const c = bySeed.get(p.seed);
    if (!c) {
      problems.push(`seed ${p.seed}: no candidate episode`);
      continue;
    }
    if (c.task !== p.task) problems.push(`seed ${p.seed}: different tasks`);
    if (c.reset_digest !== p.reset_digest)
      problems.push(`seed ${p.seed}: reset digests differ (${p.reset_digest.slice(0, 12)} vs ${c.reset_digest.slice(0, 12)})`);
    if (p.infra_failure !== null || c.infra_failure !== null) dropped.push(p.seed);
    else pairs.push({ seed: p.seed, parent: p, candidate: c });
  }
  if (candidate.length !== parent.length) problems.push(`${parent.length} parent episodes vs ${candidate.length} candidate episodes`);
  return { pairs, infra_dropped: dropped, problems };
}

export interface PairCounts {
  readonly parent_successes: number;
  readonly candidate_successes: number;
  /** Candidate succeeded, parent failed. */
  readonly b: number;
  /** Parent succeeded, candidate failed. */
  readonly c: number;
  readonly parent_safety_events: number;
  readonly candidate_safety_events: number;
  readonly episodes: number;
}

export function countPairs(pairs: readonly Pair[]): PairCounts {
  let ps = 0,
    cs = 0,
    b = 0,
    c = 0,
    psafe = 0,
    csafe = 0;
  for (const { parent, candidate } of pairs) {
    if (parent.success) ps++;
    if (candidate.success) cs++;
    if (candidate.success && !parent.success) b++;
    if (parent.success && !candidate.success) c++;
    psafe += parent.safety_events;
    csafe += candidate.safety_events;
  }
  return {
    parent_successes: ps,
    candidate_successes: cs,
    b,
    c,
    parent_safety_events: psafe,
    candidate_safety_events: csafe,
    episodes: pairs.length,
  };
}
