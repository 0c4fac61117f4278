// What one recorded episode holds. Episodes are MCAP files (see episode-writer.ts) that open in
// Foxglove and that the evolution loop replays; this is their in-memory form.

import type { ActionSource, CriticProposal, GovernorDecision } from '../../critic/index.js';

export type { ActionSource, CriticProposal, GovernorDecision };

export interface EpisodeHeader {
  readonly episodeId: string;
  readonly task: string;
  readonly suite: string;
  readonly seed: number;
  readonly resetDigest: string;
  readonly instruction: string;
  readonly controlHz: number;
  /** The perturbation file's contents, or null for nominal scenes. */
  readonly perturbation: unknown;
  readonly policy: string;
  readonly critic: string;
  /** Names of the values in each step's `features`, in order. */
  readonly featureNames: readonly string[];
  readonly objectNames: readonly string[];
}

export interface StepRecord {
  readonly step: number;
  readonly state: ArrayLike<number>;
  readonly objects: ArrayLike<number>;
  /** The action the policy proposed for this step, or null when it was not asked (a recovery acted). */
  readonly policyAction: ArrayLike<number> | null;
  /** What the environment received, after the governor and the safety envelope. */
  readonly action: ArrayLike<number>;
  readonly source: ActionSource;
  readonly reward: number;
  readonly milestones: readonly string[];
  readonly features?: ArrayLike<number>;
  readonly proposals?: readonly CriticProposal[];
  readonly decision?: GovernorDecision;
}

export interface EpisodeSummary {
  readonly success: boolean;
  readonly steps: number;
  readonly milestones: readonly string[];
  /**
   * Set when the episode ended through no fault of the system under test (a lost or overloaded
   * policy server, a dead simulator); such episodes leave the success denominator.
   */
  readonly infraFailure: string | null;
  /**
   * The physics diverged during the episode (a SimPhysicsError). It counts as a task failure of
   * the system that drove the arm there, never as an infrastructure failure.
   */
  readonly physicsDivergence: boolean;
  /** Executed steps whose source is `policy` (the action may still be clamped or limited). */
  readonly policyActions: number;
  /**
   * Executed steps whose action is exactly the policy's own a_t from a chunk, component by
   * component: clamps, envelope changes, holds and recovery actions do not count.
   */
  readonly unmodifiedPolicyActions: number;
  readonly recoveryActions: number;
  /** Task milestones first reached on a step whose action a recovery program wrote. */
  readonly milestonesDuringRecovery: number;
  readonly wallMs: number;
}

export interface EpisodeRecord {
  readonly header: EpisodeHeader;
  readonly steps: StepRecord[];
  /** null when the episode was cut off before it ended (the file is then a `.partial`). */
  readonly summary: EpisodeSummary | null;
}
