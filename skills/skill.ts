// What a skill is: a promoted critic bundle (its files, content-addressed) with a name, a
// description, an applicability guard, the evidence that promoted it and its provenance. A skill
// version is immutable: its id is the first 12 hex digits of the sha256 of its canonical content,
// so the same promotion added twice is the same skill, and any change is a new version.
import { canonicalJson, sha256 } from '../evolution/campaign/artifacts.js';
import type { SkillChanges } from './changes.js';

/** A condition on a feature's value that must hold for the skill to apply (checked at run time). */
export interface FeatureCondition {
  readonly feature: string;
  readonly op: 'lt' | 'le' | 'gt' | 'ge' | 'eq' | 'ne';
  readonly value: number;
}

/** Where a skill applies: its world, every feature its files read, and the task family. */
export interface ApplicabilityGuard {
  readonly world: string;
  /** Every feature name its rules and recovery programs read, sorted. */
  readonly features: readonly string[];
  /** Its bundle reads privileged (simulator ground truth) features: only a run that authorizes them may load it. */
  readonly privileged: boolean;
  readonly conditions: readonly FeatureCondition[];
  /** The task family it applies to (its source suite) and where it came from. */
  readonly tags: { readonly suite: string; readonly source_task: string };
}

/** One candidate's gate decision, with its figures as the campaign's report recorded them. */
export interface GateDecision {
  readonly generation: number;
  readonly candidate: string;
  readonly decision: string;
  readonly stage: string;
  readonly reason: string;
  readonly gates: readonly unknown[];
  readonly critic_alone: unknown;
  readonly shadow: unknown;
}

export interface SkillEvidence {
  readonly campaign_id: string;
  /** The candidate that was promoted last (the bundle this skill carries). */
  readonly promoted_candidate: string;
  readonly generation: number;
  readonly mechanism: string;
  readonly decisions: readonly GateDecision[];
  /** Base vs final on the held-out seeds and on the confirmation seeds, as the report has them. */
  readonly heldout: unknown;
  readonly confirmation: unknown;
  /** The promoting candidate's shadow replay: triggers and false alarms. */
  readonly shadow: {
    readonly triggers: number;
    readonly targeted_failures: number;
    readonly false_alarms: number;
    readonly successes: number;
  } | null;
}

export interface SkillProvenance {
  readonly code_version: string;
  /** The campaign's own bundle hash (evolution's bundleSha). */
  readonly bundle_sha256: string;
  readonly manifest_sha256: string;
  readonly report_sha256: string;
  readonly evidence_sha256: string;
  /** Hashes of the rollout artifacts (the recordings' summaries) the promoting gates read. */
  readonly rollouts: Readonly<Record<string, string>>;
}

/** Everything a skill version is; its hash is the skill's identity. */
export interface SkillContent {
  readonly version: 1;
  readonly name: string;
  readonly description: string;
  readonly guard: ApplicabilityGuard;
  readonly evidence: SkillEvidence;
  readonly provenance: SkillProvenance;
  /** What the skill changes in the bundle its campaign started from: what a run composes onto its own. */
  readonly changes: SkillChanges;
  /** Bundle file name → sha256 of its bytes (the bytes live in the store, by hash). */
  readonly files: Readonly<Record<string, string>>;
}

export const SKILL_ID_LENGTH = 12;

export function contentSha(content: SkillContent): string {
  return sha256(canonicalJson(content));
}

export function skillId(contentSha256: string): string {
  return contentSha256.slice(0, SKILL_ID_LENGTH);
}

/** A bundle file's bytes and their hash. */
export interface BundleFile {
  readonly name: string;
  readonly bytes: Buffer;
  readonly sha256: string;
}

export function bundleFile(name: string, bytes: Buffer): BundleFile {
  return { name, bytes, sha256: sha256(bytes) };
}
