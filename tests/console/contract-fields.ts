// The API contract's fields as values a test can compare answers with. Each spec is typed from the
// contract type it describes (FieldSpec<T>), so it must list exactly that type's fields: a field
// added to or renamed in the contract fails to compile here until the spec follows, and the test
// then finds out whether the server sends it.
import { expect } from 'vitest';
import type * as C from '../../console/contract/index.js';

/** Each field of T, and whether the contract lets an answer leave it out. */
export type FieldSpec<T> = { readonly [K in keyof T]-?: undefined extends T[K] ? 'optional' : 'required' };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `value` has every required field of the spec and no field outside it; returns it as a record. */
export function expectFields<T>(value: unknown, spec: FieldSpec<T>, where: string): Record<string, unknown> {
  expect(isRecord(value), `${where} is an object`).toBe(true);
  const record = value as Record<string, unknown>;
  const allowed = Object.keys(spec);
  const required = allowed.filter((k) => (spec as Record<string, string>)[k] === 'required');
  expect(
    Object.keys(record).filter((k) => !allowed.includes(k)),
    `${where}: fields the contract does not have`,
  ).toEqual([]);
  expect(
    required.filter((k) => !(k in record)),
    `${where}: contract fields the answer lacks`,
  ).toEqual([]);
  return record;
}

/** expectFields on every element of a non-empty array (an empty one would check nothing). */
export function expectEach<T>(values: unknown, spec: FieldSpec<T>, where: string): Record<string, unknown>[] {
  expect(Array.isArray(values) && values.length > 0, `${where} is a non-empty array`).toBe(true);
  return (values as unknown[]).map((v, i) => expectFields(v, spec, `${where}[${i}]`));
}

export const session: FieldSpec<C.Session> = { name: 'required', role: 'required', csrf: 'required' };
export const logout: FieldSpec<C.LogoutAnswer> = { ok: 'required' };
export const errorBody: FieldSpec<C.ErrorBody> = { error: 'required' };
export const errorDetail: FieldSpec<C.ErrorBody['error']> = { code: 'required', message: 'required' };

export const skillsAnswer: FieldSpec<C.SkillsAnswer> = { skills: 'required' };
export const skillRow: FieldSpec<C.SkillRow> = {
  id: 'required',
  name: 'required',
  state: 'required',
  world: 'required',
  suite: 'required',
  source_task: 'required',
  campaign_id: 'required',
  created_at: 'required',
  updated_at: 'required',
  privileged: 'required',
};
export const skillDetail: FieldSpec<C.SkillDetail> = {
  skill: 'required',
  audit: 'required',
  files: 'required',
  changes_text: 'required',
  reach: 'required',
};
export const skillRecord: FieldSpec<C.SkillRecord> = {
  id: 'required',
  content_sha256: 'required',
  state: 'required',
  created_at: 'required',
  updated_at: 'required',
  content: 'required',
};
export const skillContent: FieldSpec<C.SkillContent> = {
  version: 'required',
  name: 'required',
  description: 'required',
  guard: 'required',
  evidence: 'required',
  provenance: 'required',
  changes: 'required',
  files: 'required',
};
export const skillGuard: FieldSpec<C.SkillGuard> = {
  world: 'required',
  features: 'required',
  privileged: 'required',
  conditions: 'required',
  tags: 'required',
};
export const skillEvidence: FieldSpec<C.SkillEvidence> = {
  campaign_id: 'required',
  promoted_candidate: 'required',
  generation: 'required',
  mechanism: 'required',
  decisions: 'required',
  heldout: 'required',
  confirmation: 'required',
  shadow: 'required',
};
export const skillProvenance: FieldSpec<C.SkillProvenance> = {
  code_version: 'required',
  bundle_sha256: 'required',
  manifest_sha256: 'required',
  report_sha256: 'required',
  evidence_sha256: 'required',
  rollouts: 'required',
};
export const gateDecision: FieldSpec<C.GateDecision> = {
  generation: 'required',
  candidate: 'required',
  decision: 'required',
  stage: 'required',
  reason: 'required',
  gates: 'required',
  critic_alone: 'required',
  shadow: 'required',
};
export const reportGate: FieldSpec<C.ReportGate> = {
  gate: 'required',
  pass: 'required',
  p_value: 'required',
  b: 'required',
  c: 'required',
  parent_successes: 'required',
  candidate_successes: 'required',
  episodes: 'required',
};
export const pairFigures: FieldSpec<C.PairFigures> = {
  parent_successes: 'required',
  candidate_successes: 'required',
  b: 'required',
  c: 'required',
  parent_safety_events: 'required',
  candidate_safety_events: 'required',
  episodes: 'required',
  p_value: 'required',
  problems: 'required',
};
export const pairCounts: FieldSpec<C.PairCounts> = {
  parent_successes: 'required',
  candidate_successes: 'required',
  b: 'required',
  c: 'required',
  parent_safety_events: 'required',
  candidate_safety_events: 'required',
  episodes: 'required',
};
export const skillChanges: FieldSpec<C.SkillChanges> = { base: 'required', rules: 'required', programs: 'required', options: 'optional' };
export const entryChanges: FieldSpec<C.EntryChanges> = { added: 'required', replaced: 'required', removed: 'required' };
export const auditRow: FieldSpec<C.AuditRow> = {
  seq: 'required',
  skill_id: 'required',
  at: 'required',
  actor: 'required',
  reason: 'required',
  from_state: 'required',
  to_state: 'required',
  content_sha256: 'required',
  bundle_sha256: 'required',
};
export const skillFile: FieldSpec<C.SkillFile> = { name: 'required', sha256: 'required', bytes: 'required' };
export const skillMove: FieldSpec<C.SkillMoveAnswer> = { from: 'required', skill: 'required' };

export const campaignsAnswer: FieldSpec<C.CampaignsAnswer> = { campaigns: 'required' };
export const episodesAnswer: FieldSpec<C.EpisodesAnswer> = { episodes: 'required' };
export const campaignRow: FieldSpec<C.CampaignRow> = {
  id: 'required',
  dir: 'required',
  world: 'required',
  task: 'required',
  suite: 'required',
  perturbation: 'required',
  phase: 'required',
  generation: 'required',
  candidate: 'required',
  promoted: 'required',
};
export const campaignDetail: FieldSpec<C.CampaignDetail> = { campaign: 'required', report: 'required', generations: 'required' };
export const campaignReport: FieldSpec<C.CampaignReport> = {
  campaign_id: 'required',
  manifest_sha256: 'required',
  task: 'required',
  suite: 'required',
  perturbation: 'required',
  policy: 'required',
  diagnoser: 'required',
  gates: 'required',
  heldout_seeds: 'required',
  promoted: 'required',
  base_bundle: 'required',
  final_bundle: 'required',
  heldout: 'required',
  confirmation: 'required',
  heldout_alpha: 'required',
  generations: 'required',
};
export const reportGeneration: FieldSpec<C.ReportGeneration> = {
  generation: 'required',
  parent_sha256: 'required',
  dev: 'required',
  clusters: 'required',
  diagnoses: 'required',
  candidates: 'required',
  promoted: 'required',
};
export const reportCandidate: FieldSpec<C.ReportCandidate> = {
  id: 'required',
  cluster: 'required',
  pooled: 'required',
  hypothesis: 'required',
  layer: 'required',
  template: 'required',
  mechanism: 'required',
  fit: 'required',
  tolerances: 'required',
  shadow: 'required',
  decision: 'required',
  stage: 'required',
  reason: 'required',
  bundle_sha256: 'required',
  gates: 'required',
  critic_alone: 'required',
};
export const generationArtifacts: FieldSpec<C.GenerationArtifacts> = {
  generation: 'required',
  clusters: 'required',
  diagnoses: 'required',
  candidates: 'required',
};
export const clustersFile: FieldSpec<C.ClustersFile> = { signatures: 'required', clusters: 'required', infra_failures: 'required' };
export const failureCluster: FieldSpec<C.FailureCluster> = {
  id: 'required',
  first_missing: 'required',
  first_missing_index: 'required',
  seeds: 'required',
  medoid_seed: 'required',
  size: 'required',
};
export const diagnosesFile: FieldSpec<C.DiagnosesFile> = { evidence: 'required', diagnoses: 'required', transcripts: 'required' };
export const diagnosis: FieldSpec<C.Diagnosis> = {
  cluster: 'required',
  layer: 'required',
  mechanism: 'required',
  hypotheses: 'required',
  falsifier: 'required',
};
export const hypothesis: FieldSpec<C.Hypothesis> = {
  id: 'required',
  layer: 'required',
  mechanism: 'required',
  template: 'required',
  rule_id: 'optional',
  program_id: 'optional',
  score: 'required',
  rationale: 'required',
};
export const candidateArtifacts: FieldSpec<C.CandidateArtifacts> = {
  k: 'required',
  synthesis: 'required',
  shadow: 'required',
  gates: 'required',
  changes: 'required',
};
export const candidateSpec: FieldSpec<C.CandidateSpec> = {
  id: 'required',
  generation: 'required',
  cluster: 'required',
  pooled: 'required',
  hypothesis: 'required',
  changed_rules: 'required',
  fit: 'required',
  tolerances: 'optional',
  parent_sha256: 'required',
  bundle_sha256: 'required',
  behaviour_sha256: 'optional',
  bundle_dir: 'required',
  unbuildable: 'required',
};
export const shadowReport: FieldSpec<C.ShadowReport> = {
  rules: 'required',
  triggers: 'required',
  targeted_failures: 'required',
  trigger_rate: 'required',
  other_triggers: 'required',
  false_alarms: 'required',
  successes: 'required',
  false_alarm_rate: 'required',
  fire_steps: 'required',
};
export const candidateVerdict: FieldSpec<C.CandidateVerdict> = {
  candidate: 'required',
  decision: 'required',
  stage: 'required',
  reason: 'required',
  gates: 'required',
  critic_alone: 'optional',
  ran_dev: 'required',
  ran_heldout: 'required',
  rollouts: 'required',
};
export const gateResult: FieldSpec<C.GateResult> = {
  gate: 'required',
  pass: 'required',
  reason: 'required',
  counts: 'required',
  infra_dropped: 'required',
  p_value: 'required',
};
export const criticAloneResult: FieldSpec<C.CriticAloneResult> = {
  gate: 'required',
  pass: 'required',
  reason: 'required',
  controls: 'required',
  best_rate: 'required',
  cap: 'required',
};
export const episodeRef: FieldSpec<C.EpisodeRef> = {
  path: 'required',
  bundle: 'required',
  split: 'required',
  task: 'required',
  seed: 'required',
};

export const episodeData: FieldSpec<C.EpisodeData> = { header: 'required', summary: 'required', steps: 'required' };
export const episodeHeader: FieldSpec<C.EpisodeHeader> = {
  episodeId: 'required',
  task: 'required',
  suite: 'required',
  seed: 'required',
  resetDigest: 'required',
  instruction: 'required',
  controlHz: 'required',
  perturbation: 'optional',
  policy: 'required',
  critic: 'required',
  featureNames: 'required',
  objectNames: 'required',
};
export const episodeSummary: FieldSpec<C.EpisodeSummary> = {
  success: 'required',
  steps: 'required',
  milestones: 'required',
  infraFailure: 'required',
  physicsDivergence: 'required',
  policyActions: 'required',
  unmodifiedPolicyActions: 'required',
  recoveryActions: 'required',
  milestonesDuringRecovery: 'required',
  wallMs: 'required',
};
export const episodeStep: FieldSpec<C.EpisodeStep> = {
  t: 'required',
  time_s: 'required',
  features: 'required',
  proposals: 'required',
  decision: 'required',
  source: 'required',
  milestones: 'required',
  gripper: 'required',
  objects: 'required',
  action: 'required',
  policy_action: 'required',
  reward: 'required',
};

export const overview: FieldSpec<C.Overview> = { runs: 'required', campaigns: 'required' };
export const overviewRun: FieldSpec<C.OverviewRun> = {
  dir: 'required',
  out: 'required',
  started: 'required',
  finished: 'required',
  ok: 'required',
  policy: 'required',
  critic: 'required',
  episodes_per_task: 'required',
  mean_synergy: 'required',
  conditions: 'required',
  evolution: 'required',
  campaigns: 'required',
  final: 'required',
};
export const finalFigures: FieldSpec<C.FinalFigures> = {
  first_seed: 'required',
  episodes_per_task: 'required',
  active_skills: 'required',
  from_scratch: 'required',
  reference: 'required',
  reference_mean_synergy: 'required',
  final: 'required',
  final_mean_synergy: 'required',
};
export const conditionFigures: FieldSpec<C.ConditionFigures> = { macro: 'required', tasks: 'required' };
export const armFigures: FieldSpec<C.ArmFigures> = { policy: 'required', critic: 'required', both: 'required', synergy: 'required' };
export const taskArmFigures: FieldSpec<C.TaskArmFigures> = {
  policy: 'required',
  critic: 'required',
  both: 'required',
  synergy: 'required',
  control: 'required',
};
export const interval: FieldSpec<C.Interval> = { value: 'required', low: 'required', high: 'required' };
export const runCampaignRef: FieldSpec<C.RunCampaignRef> = { task: 'required', perturbation: 'required', campaign_id: 'required' };
export const campaignFigures: FieldSpec<C.CampaignFigures> = {
  id: 'required',
  dir: 'required',
  task: 'required',
  perturbation: 'required',
  promoted: 'required',
  heldout: 'required',
  confirmation: 'required',
  generations: 'required',
};
export const campaignGenerationFigures: FieldSpec<C.CampaignGenerationFigures> = {
  generation: 'required',
  promoted: 'required',
  dev: 'required',
  heldout: 'required',
};
export const heldoutGateFigures: FieldSpec<C.HeldoutGateFigures> = { ...reportGate, candidate: 'required', decision: 'required' };

export const liveEvent: FieldSpec<C.LiveEvent> = {
  id: 'required',
  dir: 'required',
  phase: 'required',
  generation: 'required',
  candidate: 'required',
};
