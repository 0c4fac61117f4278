// One recorded episode as GET /api/episode?path= sends it: the recording's header and summary, and
// per step the features by name, what the critic proposed and the governor decided, who acted, and
// the gripper's and each object's position. Part of the API contract (index.ts): no imports.

export type Vec3 = readonly [number, number, number];

/** One rule's proposal on a step. */
export interface CriticProposal {
  readonly ruleId: string;
  /** A recovery id, `hold` or `abort`. */
  readonly proposal: string;
  readonly priority: number;
  readonly safety: boolean;
}

/** The governor's decision on a step. */
export interface GovernorDecision {
  /** execute | clamp | recover | hold | abort | reenter */
  readonly kind: string;
  readonly recovery?: string;
  readonly reason?: string;
}

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
  readonly featureNames: readonly string[];
  readonly objectNames: readonly string[];
}

export interface EpisodeSummary {
  readonly success: boolean;
  readonly steps: number;
  readonly milestones: readonly string[];
  /** Set when the episode ended through no fault of the system under test. */
  readonly infraFailure: string | null;
  readonly physicsDivergence: boolean;
  readonly policyActions: number;
  readonly unmodifiedPolicyActions: number;
  readonly recoveryActions: number;
  readonly milestonesDuringRecovery: number;
  readonly wallMs: number;
}

export interface EpisodeStep {
  /** The step's index. */
  readonly t: number;
  /** Seconds from the episode's start. */
  readonly time_s: number;
  /** Feature name → value; null where the value was not finite (not observed, not applicable). */
  readonly features: Readonly<Record<string, number | null>>;
  readonly proposals: readonly CriticProposal[];
  readonly decision: GovernorDecision | null;
  /** Who wrote the action: policy, recovery or hold. */
  readonly source: string;
  readonly milestones: readonly string[];
  readonly gripper: Vec3;
  readonly objects: Readonly<Record<string, Vec3>>;
  readonly action: readonly number[];
  readonly policy_action: readonly number[] | null;
  readonly reward: number;
}

/** GET /api/episode. */
export interface EpisodeData {
  readonly header: EpisodeHeader;
  /** Null when the recording was cut off before the episode ended. */
  readonly summary: EpisodeSummary | null;
  readonly steps: readonly EpisodeStep[];
}
