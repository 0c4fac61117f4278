// A campaign's report.json as GET /api/campaigns/:id sends it: what the campaign did and decided,
// generation by generation (evolution/report/report.ts writes it, report-reader.ts reads it back).
// Part of the API contract (index.ts): imports only the contract.
import type { ConfirmationFigures, CriticAloneFigures, PairFigures, ReportGate, ShadowCounts } from './evidence.js';

export interface ReportCandidate {
  readonly id: string;
  readonly cluster: string;
  /** Every cluster whose failures the change targets. */
  readonly pooled: readonly string[];
  readonly hypothesis: string;
  readonly layer: string;
  readonly template: string;
  readonly mechanism: string;
  readonly fit: { readonly theta: number; readonly dwell: number } | null;
  readonly tolerances: Readonly<Record<string, number>> | null;
  readonly shadow: ShadowCounts | null;
  readonly decision: string;
  readonly stage: string;
  readonly reason: string;
  readonly bundle_sha256: string;
  readonly gates: readonly ReportGate[];
  /** Null when the candidate stopped before the critic-alone gate. */
  readonly critic_alone: CriticAloneFigures | null;
}

export interface ReportGeneration {
  readonly generation: number;
  readonly parent_sha256: string;
  readonly dev: { readonly episodes: number; readonly successes: number; readonly infra_failures: number };
  readonly clusters: ReadonlyArray<{
    readonly id: string;
    readonly size: number;
    readonly first_missing: string | null;
    readonly medoid_seed: number;
  }>;
  readonly diagnoses: ReadonlyArray<{
    readonly cluster: string;
    readonly layer: string;
    readonly mechanism: string;
    readonly hypotheses: readonly string[];
    readonly falsifier: string;
  }>;
  readonly candidates: readonly ReportCandidate[];
  /** The promoted candidate's id, or null. */
  readonly promoted: string | null;
}

export interface CampaignReport {
  readonly campaign_id: string;
  readonly manifest_sha256: string;
  readonly task: string;
  readonly suite: string;
  readonly perturbation: string;
  readonly policy: string;
  readonly diagnoser: string;
  readonly gates: { readonly alpha: number; readonly min_gain: number };
  readonly heldout_seeds: readonly number[];
  readonly promoted: boolean;
  readonly base_bundle: { readonly sha256: string; readonly name: string };
  readonly final_bundle: { readonly sha256: string; readonly name: string; readonly dir: string | null; readonly promoted: boolean };
  /** Base vs final bundle on the held-out seeds (the same episodes when nothing was promoted). */
  readonly heldout: PairFigures;
  /** Base vs final on fresh seeds; null when nothing was promoted or none were set. */
  readonly confirmation: ConfirmationFigures | null;
  /** α of a generation's first held-out test; each later one gets half the one before. */
  readonly heldout_alpha: number;
  readonly generations: readonly ReportGeneration[];
}
