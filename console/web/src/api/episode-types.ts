// One recorded episode as GET /api/episode sends it (zinfra/recording/episode-record.ts, with the
// features named and the gripper's and objects' positions laid out per step).

export type Vec3 = readonly [number, number, number];

export interface EpisodeStep {
  readonly t: number;
  /** null where the value was not finite (not observed, not applicable). */
  readonly features: Readonly<Record<string, number | null>>;
  readonly proposals: ReadonlyArray<{ ruleId: string; proposal: string; priority: number; safety: boolean }>;
  readonly decision?: { kind: string; recovery?: string; reason?: string } | null;
  readonly source: string;
  readonly milestones: readonly string[];
  readonly gripper: Vec3;
  readonly objects: Readonly<Record<string, Vec3>>;
}

export interface EpisodeData {
  readonly header: {
    readonly episodeId: string;
    readonly task: string;
    readonly suite: string;
    readonly seed: number;
    readonly instruction: string;
    readonly controlHz: number;
    readonly policy: string;
    readonly critic: string;
    readonly featureNames: readonly string[];
    readonly objectNames: readonly string[];
  };
  readonly summary: {
    readonly success: boolean;
    readonly steps: number;
    readonly milestones: readonly string[];
    readonly infraFailure: string | null;
    readonly physicsDivergence: boolean;
    readonly policyActions: number;
    readonly unmodifiedPolicyActions: number;
    readonly recoveryActions: number;
    readonly milestonesDuringRecovery: number;
  } | null;
  readonly steps: readonly EpisodeStep[];
}
