// How big a run is. The full run is what `zetta run` does by default; the quick one is a smoke run
// of the same pipeline. A caller starts from one of the two and overrides what it was told.

export interface RunSettings {
  /** Observations sent through each policy server in the wire stage. */
  readonly wireRequests: number;
  /** Scripted-expert episodes per task. */
  readonly expertEpisodes: number;
  /** Baseline and governance episodes per task and condition. */
  readonly episodes: number;
  /** Evolution campaigns at most, on the weakest pairs (task, perturbation). */
  readonly campaigns: number;
  /**
   * Tasks each campaign covers at most: its weakest pair's task and the next weakest under the same
   * perturbation (every seed on each; the gates pool them). Absent in reports of runs from before: 1.
   */
  readonly tasksPerCampaign?: number | undefined;
  /** Each campaign's development episodes per generation. */
  readonly devEpisodes: number;
  /** Each campaign's generations at most. */
  readonly generations: number;
  /**
   * Paired development seeds per task and perturbation of each approved skill's reach trial (0: none,
   * the skill's task family decides where it loads). Absent in reports of runs from before: 0.
   */
  readonly reachEpisodes?: number | undefined;
  /** Each campaign's held-out and confirmation seed lists (`1000-1019`). */
  readonly heldout: string;
  readonly confirmation: string;
  /** `--skills active`: the skill store whose active skills compose onto the default critic. */
  readonly skillsDb?: string | undefined;
  /**
   * Evolve from an empty bundle instead of the hand-written default: the campaigns start from no
   * rule, the final system is what they promoted alone, and the default's arms at the same seeds
   * stand beside it. Absent in reports of runs from before the option: false.
   */
  readonly fromScratch?: boolean | undefined;
  /** The rollout pool: worker threads, simulators per worker. */
  readonly workers: number;
  readonly envsPerWorker: number;
}

export const FULL_RUN: RunSettings = {
  wireRequests: 200,
  expertEpisodes: 5,
  episodes: 10,
  campaigns: 3,
  devEpisodes: 30,
  generations: 2,
  reachEpisodes: 4,
  // 40 held-out pairs: at 20, a candidate that rescued 6 and broke none (p = 0.0156) missed the first
  // test's α (0.0083), and three more with 3 or 4 rescued and none broken: a held-out test costs 80
  // episodes here against the 400 or more of a generation's screening
  heldout: '1000-1039',
  confirmation: '2000-2019',
  workers: 2,
  envsPerWorker: 4,
};

export const QUICK_RUN: RunSettings = {
  ...FULL_RUN,
  wireRequests: 20,
  expertEpisodes: 2,
  episodes: 2,
  campaigns: 2,
  devEpisodes: 4,
  generations: 1,
  reachEpisodes: 2,
  // 8 held-out pairs: the fewest whose smallest McNemar p (0.5^8) clears both tests' α at one generation
  heldout: '1000-1007',
  confirmation: '2000-2007',
};
