// Evolution campaigns under the runs folder: GET /api/campaigns (the list), GET /api/campaigns/:id
// (one campaign's report and generations) and GET /api/campaigns/:id/episodes (its recordings).
// Part of the API contract (index.ts): imports only the contract.
import type { CampaignReport } from './campaign-report.js';
import type { CandidateSpec, CandidateVerdict, ClustersFile, DiagnosesFile, ShadowReport } from './campaign-files.js';
import type { SkillChanges } from './evidence.js';

/** One line of GET /api/campaigns. */
export interface CampaignRow {
  /** report.json's campaign_id, else the first 12 hex digits of the manifest's sha256. */
  readonly id: string;
  /** The campaign's root, relative to runs. */
  readonly dir: string;
  readonly world: string;
  readonly task: string;
  readonly suite: string;
  readonly perturbation: string;
  readonly phase: string;
  readonly generation: number;
  readonly candidate: number | null;
  /** From report.json; null until the campaign has written one. */
  readonly promoted: boolean | null;
}

export interface CampaignsAnswer {
  readonly campaigns: readonly CampaignRow[];
}

export interface CandidateArtifacts {
  readonly k: number;
  readonly synthesis: CandidateSpec | null;
  readonly shadow: ShadowReport | null;
  readonly gates: CandidateVerdict | null;
  /** The candidate's bundle against its parent's, when both are in the campaign. */
  readonly changes: SkillChanges | null;
}

export interface GenerationArtifacts {
  readonly generation: number;
  /** Null before clustering ran. */
  readonly clusters: ClustersFile | null;
  /** Null before diagnosis ran. */
  readonly diagnoses: DiagnosesFile | null;
  readonly candidates: readonly CandidateArtifacts[];
}

/** GET /api/campaigns/:id. */
export interface CampaignDetail {
  readonly campaign: CampaignRow;
  /** Null until the campaign has finished and written report.json. */
  readonly report: CampaignReport | null;
  readonly generations: readonly GenerationArtifacts[];
}

/** A recorded episode of the campaign: rollouts/<bundle>/<split>/episodes/<task>/<seed>.mcap. */
export interface EpisodeRef {
  /** Relative to runs: what GET /api/episode?path= takes. */
  readonly path: string;
  /** The bundle's folder under rollouts/ (the first 12 hex digits of its sha256). */
  readonly bundle: string;
  /** dev-g<g>, dev-g<g>.<control>, heldout, confirmation. */
  readonly split: string;
  readonly task: string;
  readonly seed: number;
}

export interface EpisodesAnswer {
  readonly episodes: readonly EpisodeRef[];
}
