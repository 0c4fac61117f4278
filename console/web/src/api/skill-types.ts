// Sessions, skills and the gate figures their evidence carries, as the console API sends them
// (mirroring skills/skill.ts, skills/changes.ts, evolution/gates/ and evolution/report/report.ts).

export type Role = 'viewer' | 'approver';

export interface Session {
  readonly name: string;
  readonly role: Role;
  readonly csrf: string;
}

export type SkillState = 'pending' | 'active' | 'rejected' | 'retired';

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

/** Base vs candidate on paired seeds (evolution/gates/paired.ts PairCounts, plus the test's p). */
export interface PairFigures {
  readonly parent_successes: number;
  readonly candidate_successes: number;
  readonly b: number;
  readonly c: number;
  readonly parent_safety_events?: number;
  readonly candidate_safety_events?: number;
  readonly episodes: number;
  readonly p_value: number | null;
  readonly problems?: readonly string[];
}

/** A gate as report.json records it (evolution/report/report.ts CandidateRow.gates). */
export interface ReportGate {
  readonly gate: string;
  readonly pass: boolean;
  readonly p_value: number | null;
  readonly b: number;
  readonly c: number;
  readonly parent_successes: number;
  readonly candidate_successes: number;
  readonly episodes: number;
}

/** A gate as gates.json records it (evolution/gates/gates.ts GateResult). */
export interface GateResult {
  readonly gate: string;
  readonly pass: boolean;
  readonly reason: string;
  readonly counts: Omit<PairFigures, 'p_value' | 'problems'>;
  readonly infra_dropped: number;
  readonly p_value: number | null;
}

export interface CriticAlone {
  readonly pass: boolean;
  readonly reason: string;
  readonly best_rate: number;
  readonly cap: number;
  readonly controls?: Readonly<Record<string, { successes: number; episodes: number }>>;
}

export interface ShadowFigures {
  readonly triggers: number;
  /** report.json calls it `targeted`, the skill and shadow.json `targeted_failures`. */
  readonly targeted_failures?: number;
  readonly targeted?: number;
  readonly false_alarms: number;
  readonly successes: number;
  readonly fire_steps?: Readonly<Record<string, number>>;
  readonly rules?: readonly string[];
  readonly other_triggers?: number;
}

export interface GateDecision {
  readonly generation: number;
  readonly candidate: string;
  readonly decision: string;
  readonly stage: string;
  readonly reason: string;
  readonly gates: readonly ReportGate[];
  readonly critic_alone: CriticAlone | null;
  readonly shadow: ShadowFigures | null;
}

export interface FeatureCondition {
  readonly feature: string;
  readonly op: string;
  readonly value: number;
}

export interface BundleEntry {
  readonly id: string;
  readonly [key: string]: unknown;
}

export interface EntryChanges {
  readonly added: readonly BundleEntry[];
  readonly replaced: readonly BundleEntry[];
  readonly removed: readonly string[];
}

export interface SkillChanges {
  readonly base: { readonly name: string; readonly sha256: string };
  readonly rules: EntryChanges;
  readonly programs: EntryChanges;
}

export interface SkillContent {
  readonly version: number;
  readonly name: string;
  readonly description: string;
  readonly guard: {
    readonly world: string;
    readonly features: readonly string[];
    readonly privileged: boolean;
    readonly conditions: readonly FeatureCondition[];
    readonly tags: { readonly suite: string; readonly source_task: string };
  };
  readonly evidence: {
    readonly campaign_id: string;
    readonly promoted_candidate: string;
    readonly generation: number;
    readonly mechanism: string;
    readonly decisions: readonly GateDecision[];
    readonly heldout: PairFigures | null;
    readonly confirmation: PairFigures | null;
    readonly shadow: { triggers: number; targeted_failures: number; false_alarms: number; successes: number } | null;
  };
  readonly provenance: {
    readonly code_version: string;
    readonly bundle_sha256: string;
    readonly manifest_sha256: string;
    readonly report_sha256: string;
    readonly evidence_sha256: string;
    readonly rollouts: Readonly<Record<string, string>>;
  };
  readonly changes: SkillChanges;
  readonly files: Readonly<Record<string, string>>;
}

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

export interface SkillDetail {
  readonly skill: { id: string; state: SkillState; created_at: string; updated_at: string; content_sha256: string; content: SkillContent };
  readonly audit: readonly AuditRow[];
  readonly files: ReadonlyArray<{ name: string; sha256: string; bytes: number }>;
  readonly changes_text: readonly string[];
}
