// The skill library over HTTP: GET /api/skills (the list), GET /api/skills/:id (one skill in full)
// and POST /api/skills/:id/{approve,reject,retire} (a lifecycle move with its reason). Part of the
// API contract (index.ts): imports only the contract.
import type { ConfirmationFigures, CriticAloneFigures, PairFigures, ReportGate, ShadowCounts, SkillChanges } from './evidence.js';

export type SkillState = 'pending' | 'active' | 'rejected' | 'retired';

/** One line of GET /api/skills. */
export interface SkillRow {
  readonly id: string;
  readonly name: string;
  readonly state: SkillState;
  readonly world: string;
  readonly suite: string;
  readonly source_task: string;
  readonly campaign_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly privileged: boolean;
}

export interface SkillsAnswer {
  readonly skills: readonly SkillRow[];
}

export interface FeatureCondition {
  readonly feature: string;
  readonly op: 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne';
  readonly value: number;
}

/** Where a skill applies. */
export interface SkillGuard {
  readonly world: string;
  readonly features: readonly string[];
  readonly privileged: boolean;
  readonly conditions: readonly FeatureCondition[];
  readonly tags: { readonly suite: string; readonly source_task: string };
}

/** One candidate's gate decision in the skill's campaign, with report.json's figures. */
export interface GateDecision {
  readonly generation: number;
  readonly candidate: string;
  readonly decision: string;
  readonly stage: string;
  readonly reason: string;
  readonly gates: readonly ReportGate[];
  readonly critic_alone: CriticAloneFigures | null;
  readonly shadow: ShadowCounts | null;
}

export interface SkillEvidence {
  readonly campaign_id: string;
  readonly promoted_candidate: string;
  readonly generation: number;
  readonly mechanism: string;
  readonly decisions: readonly GateDecision[];
  readonly heldout: PairFigures;
  readonly confirmation: ConfirmationFigures | null;
  /** The promoting candidate's shadow replay. */
  readonly shadow: {
    readonly triggers: number;
    readonly targeted_failures: number;
    readonly false_alarms: number;
    readonly successes: number;
  } | null;
}

export interface SkillProvenance {
  readonly code_version: string;
  readonly bundle_sha256: string;
  readonly manifest_sha256: string;
  readonly report_sha256: string;
  readonly evidence_sha256: string;
  /** Rollout artifact path → sha256, for the recordings the promoting gates read. */
  readonly rollouts: Readonly<Record<string, string>>;
}

/** Everything a skill version is (its hash is the skill's identity). */
export interface SkillContent {
  readonly version: 1;
  readonly name: string;
  readonly description: string;
  readonly guard: SkillGuard;
  readonly evidence: SkillEvidence;
  readonly provenance: SkillProvenance;
  /** What the skill changes in the bundle its campaign started from. */
  readonly changes: SkillChanges;
  /** Bundle file name → sha256 of its bytes. */
  readonly files: Readonly<Record<string, string>>;
}

export interface SkillRecord {
  readonly id: string;
  readonly content_sha256: string;
  readonly state: SkillState;
  readonly created_at: string;
  readonly updated_at: string;
  readonly content: SkillContent;
}

/** One lifecycle move, as the audit log keeps it. */
export interface AuditRow {
  readonly seq: number;
  readonly skill_id: string;
  readonly at: string;
  readonly actor: string;
  readonly reason: string;
  readonly from_state: SkillState | null;
  readonly to_state: SkillState;
  readonly content_sha256: string;
  readonly bundle_sha256: string;
}

/** A bundle file of the skill; `bytes` is null when the store lacks its blob. */
export interface SkillFile {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number | null;
}

/** GET /api/skills/:id. */
export interface SkillDetail {
  readonly skill: SkillRecord;
  readonly audit: readonly AuditRow[];
  readonly files: readonly SkillFile[];
  /** The change as lines a person reads at approval time (`+` added, `~` replaced, `−` removed). */
  readonly changes_text: readonly string[];
  /** Its reach trials, the latest per task (empty: none ran, its suite decides where it loads). */
  readonly reach: readonly ReachRow[];
}

/** One task's reach trial: whether the skill loads there, and the paired counts that decided. */
export interface ReachRow {
  readonly task: string;
  readonly loads: boolean;
  readonly reason: string;
  readonly perturbations: readonly string[];
  /** Paired episodes, the both arm's successes without and with the skill, and the seeds only one side won. */
  readonly episodes: number;
  readonly without: number;
  readonly with: number;
  readonly rescued: number;
  readonly broken: number;
  /** The best trivial policy under the skill, and the cap it had to stay under. */
  readonly critic_alone: number;
  readonly critic_alone_cap: number;
}

/** POST /api/skills/:id/{approve,reject,retire}'s body: why (it goes into the audit log). */
export interface ReasonBody {
  readonly reason: string;
}

/** A lifecycle move's answer: the state it left and the skill as it is now. */
export interface SkillMoveAnswer {
  readonly from: SkillState;
  readonly skill: SkillRecord;
}
