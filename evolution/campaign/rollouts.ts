// Rollouts for a campaign: episodes of (task, seed) under a critic bundle, each one's outcome kept as
// its own small file as soon as it ends. A killed campaign therefore loses at most the episodes in
// flight; on resume only the missing seeds run. Outcomes hold only what is deterministic given the
// seed (no wall times), so a resumed campaign's rollout artifacts hash the same as an uninterrupted one's.
import { join } from 'node:path';
import type { Perturbation } from '../../sim/perturbation/schema.js';
import type { EpisodeOutcome } from '../../zinfra/runtime/run-episode.js';
import type { ArtifactStore } from './artifacts.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import { countSafetyEvents } from './safety-events.js';
import { contiguousRuns, episodeKey, keyParts } from './seeds.js';

/** One episode, as the campaign keeps it. */
export interface EpisodeResult {
  readonly task: string;
  /** Its key: the seed, or in a campaign over several tasks the key seeds.ts builds from task and seed. */
  readonly seed: number;
  readonly success: boolean;
  /** Set when the episode failed through no fault of the policy or critic; never a task failure. */
  readonly infra_failure: string | null;
  readonly steps: number;
  readonly milestones: readonly string[];
  readonly reset_digest: string;
  readonly policy_actions: number;
  readonly recovery_actions: number;
  readonly recoveries: number;
  /** Safety-rule onsets, aborts, workspace stops (safety-events.ts): what the gates compare. */
  readonly safety_events: number;
  /** The MCAP recording, relative to the campaign root. */
  readonly record: string | null;
}

export interface RolloutRequest {
  readonly task: string;
  readonly seeds: readonly number[];
  readonly perturbation: Perturbation | undefined;
  /** The bundle's directory, or null for the ungoverned policy. */
  readonly bundleDir: string | null;
  /** Recordings go to recordDir/<task>/<seed>.mcap. */
  readonly recordDir: string;
  /** Run this policy spec instead of the campaign's (the trivial controls of the critic-alone gate). */
  readonly policy?: string;
  /** Record the episodes (default true); the controls' outcomes are all a gate reads of them. */
  readonly record?: boolean;
}

/**
 * Runs episodes. The real one drives zinfra's evaluator; tests may pass a double. It must call
 * onEpisode once per seed, in any order, and the outcome must depend only on (task, seed, bundle).
 */
export interface RolloutRunner {
  /** The policy every rollout runs (recorded in each pair check). */
  readonly policyLabel: string;
  run(request: RolloutRequest, onEpisode: (outcome: EpisodeOutcome) => void): Promise<void>;
}

/** The campaign's record of an episode (under its key); safety events are counted from its recording. */
export async function toResult(o: EpisodeOutcome, store: ArtifactStore, key: number = o.seed): Promise<EpisodeResult> {
  const safety = o.recordPath ? countSafetyEvents(await readEpisode(o.recordPath)) : o.aborted ? 1 : 0;
  return {
    task: o.task,
    seed: key,
    success: o.infraFailure === null && o.success,
    infra_failure: o.infraFailure,
    steps: o.steps,
    milestones: [...o.milestones],
    reset_digest: o.resetDigest,
    policy_actions: o.policyActions,
    recovery_actions: o.recoveryActions,
    recoveries: o.recoveries,
    safety_events: safety,
    record: o.recordPath ? store.rel(o.recordPath) : null,
  };
}

/**
 * Episodes of one (bundle, split) for the given episode keys (seeds.ts) of `tasks`: cached per key
 * under `dir`, the missing ones run task by task in contiguous blocks of seeds (the evaluator numbers
 * seeds first + i). Returned in key order.
 */
export async function rolloutSeeds(
  runner: RolloutRunner,
  store: ArtifactStore,
  dir: string,
  request: Omit<RolloutRequest, 'task' | 'seeds' | 'recordDir'> & { tasks: readonly string[]; seeds: readonly number[] },
  onProgress?: (done: number, total: number) => void,
): Promise<EpisodeResult[]> {
  const { tasks, ...shared } = request;
  const outcomePath = (key: number) => join(dir, 'outcomes', `${key}.json`);
  const missing = request.seeds.filter((s) => !store.exists(outcomePath(s)));
  let done = request.seeds.length - missing.length;
  for (const [index, task] of tasks.entries()) {
    const seedsHere = missing
      .map((k) => keyParts(k, tasks.length))
      .filter((p) => p.task === index)
      .map((p) => p.seed);
    for (const run of contiguousRuns(seedsHere)) {
      const seeds = Array.from({ length: run.count }, (_, i) => run.first + i);
      // each outcome is kept as soon as its episode ends (chained: reading the recording is async)
      let kept = Promise.resolve();
      await runner.run({ ...shared, task, seeds, recordDir: store.abs(join(dir, 'episodes')) }, (o) => {
        kept = kept.then(async () => {
          const key = episodeKey(index, o.seed);
          store.put(outcomePath(key), await toResult(o, store, key));
          onProgress?.(++done, request.seeds.length);
        });
      });
      await kept;
    }
  }
  return [...request.seeds]
    .sort((a, b) => a - b)
    .map((s) => {
      if (!store.exists(outcomePath(s))) throw new Error(`the rollout of seed ${s} produced no outcome`);
      return store.get<EpisodeResult>(outcomePath(s)).value;
    });
}

/** Task-failure accounting that leaves infrastructure failures out entirely. */
export function countOutcomes(results: readonly EpisodeResult[]): { successes: number; failures: number; infra: number; episodes: number } {
  const infra = results.filter((r) => r.infra_failure !== null).length;
  const successes = results.filter((r) => r.success).length;
  return { successes, failures: results.length - infra - successes, infra, episodes: results.length - infra };
}
