// Campaigns as the console API sends them: the listing, each generation's artifacts as evolution
// wrote them (gen-<g>/clusters.json, candidates/k<i>/{synthesis,shadow,gates}.json), report.json,
// and the recorded episodes.
import type { CriticAlone, GateResult, PairFigures, ShadowFigures, SkillChanges } from './skill-types';

export interface CampaignRow {
  readonly id: string;
  readonly dir: string;
  readonly task: string;
  readonly suite: string;
  readonly perturbation: string;
  readonly phase: string;
  readonly generation: number | null;
  readonly promoted: boolean;
}

export interface FailureCluster {
  readonly id: string;
  readonly first_missing: string | null;
  readonly seeds: readonly number[];
  readonly medoid_seed: number;
  readonly size: number;
}

export interface Hypothesis {
  readonly id: string;
  readonly layer: string;
  readonly mechanism: string;
  readonly template: string;
  readonly rule_id?: string;
  readonly program_id?: string;
  readonly score: number;
  readonly rationale: string;
}

/** gen-<g>/candidates/k<i>/synthesis.json (evolution/synthesis/synthesize.ts CandidateSpec). */
export interface CandidateSpec {
  readonly id: string;
  readonly generation: number;
  readonly cluster: string;
  readonly pooled?: readonly string[];
  readonly hypothesis: Hypothesis;
  readonly changed_rules: readonly string[];
  readonly fit: { theta: number; dwell: number; triggers: number; targeted: number; false_alarms: number; successes: number; score: number; tried: number } | null;
  readonly tolerances?: Readonly<Record<string, number>> | null;
  readonly parent_sha256: string;
  readonly bundle_sha256: string;
  readonly unbuildable: string | null;
}

/** gen-<g>/candidates/k<i>/gates.json (evolution/campaign/gating.ts CandidateVerdict). */
export interface CandidateVerdict {
  readonly candidate: string;
  readonly decision: string;
  readonly stage: string;
  readonly reason: string;
  readonly gates: readonly GateResult[];
  readonly critic_alone?: CriticAlone;
}

export interface CandidateArtifacts {
  readonly k: number | string;
  readonly synthesis: CandidateSpec | null;
  readonly shadow: ShadowFigures | null;
  readonly gates: CandidateVerdict | null;
  /**
   * Optional: the candidate's bundle against its parent (skills/changes.ts shape). When the server
   * sends it, the candidate page shows the rule/program diff for every candidate; otherwise only a
   * promoted candidate that became a skill shows one.
   */
  readonly changes?: SkillChanges | null;
}

export interface GenerationArtifacts {
  readonly generation: number;
  /** gen-<g>/clusters.json, or null before clustering ran. */
  readonly clusters: { clusters: readonly FailureCluster[]; infra_failures?: readonly number[] } | null;
  /** gen-<g>/diagnoses.json: read when the campaign has no report yet (still running). */
  readonly diagnoses?: { diagnoses: ReadonlyArray<{ cluster: string; layer: string; mechanism: string }> } | null;
  readonly candidates: readonly CandidateArtifacts[];
}

/** The parts of evolution's report.json the console reads. */
export interface CampaignReport {
  readonly campaign_id: string;
  readonly task: string;
  readonly suite: string;
  readonly perturbation: string;
  readonly policy: string;
  readonly diagnoser: string;
  readonly gates: { alpha: number; min_gain: number };
  readonly promoted: boolean;
  readonly base_bundle: { sha256: string; name: string };
  readonly final_bundle: { sha256: string; name: string };
  readonly heldout: PairFigures;
  readonly confirmation: PairFigures | null;
  readonly heldout_alpha: number;
  readonly generations: ReadonlyArray<{
    generation: number;
    parent_sha256: string;
    dev: { episodes: number; successes: number; infra_failures: number };
    diagnoses: ReadonlyArray<{ cluster: string; layer: string; mechanism: string; hypotheses: readonly string[]; falsifier: string }>;
    promoted: string | null;
  }>;
}

export interface CampaignDetail {
  readonly campaign: CampaignRow;
  readonly report: CampaignReport | null;
  readonly generations: readonly GenerationArtifacts[];
}

export interface EpisodeRef {
  readonly path: string;
  readonly bundle: string;
  readonly split: string;
  readonly task: string;
  readonly seed: number;
}
