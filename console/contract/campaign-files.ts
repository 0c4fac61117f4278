// One generation's files as evolution wrote them, as GET /api/campaigns/:id sends them:
// gen-<g>/clusters.json, diagnoses.json and candidates/k<i>/{synthesis,shadow,gates}.json. Parts the
// console does not read (failure signatures, diagnosis evidence, model transcripts) are sent as
// written and typed `unknown` here. Part of the API contract (index.ts): imports only the contract.
import type { PairCounts } from './evidence.js';

export interface FailureCluster {
  readonly id: string;
  readonly first_missing: string | null;
  readonly first_missing_index: number;
  /** Seeds of the member episodes, ascending. */
  readonly seeds: readonly number[];
  readonly medoid_seed: number;
  readonly size: number;
}

/** gen-<g>/clusters.json. */
export interface ClustersFile {
  readonly signatures: readonly unknown[];
  readonly clusters: readonly FailureCluster[];
  /** Seeds lost to the infrastructure (left out of clustering). */
  readonly infra_failures: readonly number[];
}

export interface Hypothesis {
  readonly id: string;
  readonly layer: string;
  readonly mechanism: string;
  readonly template: string;
  /** For suppress_rule: the parent rule it blames. */
  readonly rule_id?: string;
  /** For retune_program: the parent recovery program it blames. */
  readonly program_id?: string;
  readonly score: number;
  readonly rationale: string;
}

export interface Diagnosis {
  readonly cluster: string;
  readonly layer: string;
  readonly mechanism: string;
  readonly hypotheses: readonly Hypothesis[];
  readonly falsifier: { readonly statement: string; readonly metric: string; readonly op: string; readonly value: number };
}

/** gen-<g>/diagnoses.json. */
export interface DiagnosesFile {
  readonly evidence: readonly unknown[];
  readonly diagnoses: readonly Diagnosis[];
  readonly transcripts: readonly unknown[];
}

/** A template rule's fitted threshold and what it scored in shadow replay. */
export interface FitFigures {
  readonly theta: number;
  readonly dwell: number;
  readonly triggers: number;
  readonly targeted: number;
  readonly false_alarms: number;
  readonly successes: number;
  readonly score: number;
  /** Thresholds × dwells tried. */
  readonly tried: number;
}

/** candidates/k<i>/synthesis.json. */
export interface CandidateSpec {
  readonly id: string;
  readonly generation: number;
  readonly cluster: string;
  readonly pooled: readonly string[];
  readonly hypothesis: Hypothesis;
  readonly changed_rules: readonly string[];
  readonly fit: FitFigures | null;
  readonly tolerances?: Readonly<Record<string, number>> | null;
  readonly parent_sha256: string;
  readonly bundle_sha256: string;
  readonly behaviour_sha256?: string;
  readonly bundle_dir: string;
  /** Why no bundle could be built (then the bundle fields are empty). */
  readonly unbuildable: string | null;
}

/** candidates/k<i>/shadow.json: the change replayed over the parent's recordings. */
export interface ShadowReport {
  readonly rules: readonly string[];
  readonly triggers: number;
  readonly targeted_failures: number;
  readonly trigger_rate: number;
  readonly other_triggers: number;
  readonly false_alarms: number;
  readonly successes: number;
  readonly false_alarm_rate: number;
  /** Seed → first step a new rule fired (−1: never). */
  readonly fire_steps: Readonly<Record<string, number>>;
}

/** A gate as gates.json records it: its counts nested. */
export interface GateResult {
  readonly gate: string;
  readonly pass: boolean;
  readonly reason: string;
  readonly counts: PairCounts;
  readonly infra_dropped: number;
  readonly p_value: number | null;
}

/** The critic-alone gate as gates.json records it: each control's successes too. */
export interface CriticAloneResult {
  readonly gate: 'critic_alone';
  readonly pass: boolean;
  readonly reason: string;
  readonly controls: Readonly<Record<string, { readonly successes: number; readonly episodes: number }>>;
  readonly best_rate: number;
  readonly cap: number;
}

/** candidates/k<i>/gates.json. */
export interface CandidateVerdict {
  readonly candidate: string;
  readonly decision: string;
  /** Where it stopped (`heldout` when it passed everything). */
  readonly stage: string;
  readonly reason: string;
  readonly gates: readonly GateResult[];
  /** Absent when it stopped before that gate. */
  readonly critic_alone?: CriticAloneResult;
  readonly ran_dev: boolean;
  readonly ran_heldout: boolean;
  readonly rollouts: Readonly<Record<string, string>>;
}
