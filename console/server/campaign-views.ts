// A campaign's files as the API contract has them (console/contract): evolution's report and
// generation artifacts, typed as evolution writes them, mapped field by field into the contract's
// types. A field renamed or retyped on either side stops this file compiling, instead of reaching
// a page as `undefined`. Files without a reader of their own (clusters, diagnoses, candidates) are
// typed as evolution types them when it reads them back itself (ArtifactStore.get).
import type { CandidateVerdict as EvolutionVerdict } from '../../evolution/campaign/gating.js';
import type { ClusteringArtifact, DiagnosesArtifact } from '../../evolution/campaign/generation.js';
import type { CampaignReport as EvolutionReport, CandidateRow, GenerationRow } from '../../evolution/report/report.js';
import type { ShadowReport as EvolutionShadow } from '../../evolution/shadow-replay.js';
import type { CandidateSpec as EvolutionSpec } from '../../evolution/synthesis/synthesize.js';
import type {
  CampaignReport,
  CandidateSpec,
  CandidateVerdict,
  ClustersFile,
  DiagnosesFile,
  ReportCandidate,
  ReportGeneration,
  ShadowReport,
} from '../contract/index.js';

export function reportView(r: EvolutionReport): CampaignReport {
  return {
    campaign_id: r.campaign_id,
    manifest_sha256: r.manifest_sha256,
    task: r.task,
    suite: r.suite,
    perturbation: r.perturbation,
    policy: r.policy,
    diagnoser: r.diagnoser,
    gates: r.gates,
    heldout_seeds: r.heldout_seeds,
    promoted: r.promoted,
    base_bundle: r.base_bundle,
    final_bundle: r.final_bundle,
    heldout: r.heldout,
    confirmation: r.confirmation,
    heldout_alpha: r.heldout_alpha,
    generations: r.generations.map(reportGeneration),
  };
}

function reportGeneration(g: GenerationRow): ReportGeneration {
  return {
    generation: g.generation,
    parent_sha256: g.parent_sha256,
    dev: g.dev,
    clusters: g.clusters,
    diagnoses: g.diagnoses,
    candidates: g.candidates.map(reportCandidate),
    promoted: g.promoted,
  };
}

function reportCandidate(c: CandidateRow): ReportCandidate {
  return {
    id: c.id,
    cluster: c.cluster,
    pooled: c.pooled,
    hypothesis: c.hypothesis,
    layer: c.layer,
    template: c.template,
    mechanism: c.mechanism,
    fit: c.fit,
    tolerances: c.tolerances,
    shadow: c.shadow,
    decision: c.decision,
    stage: c.stage,
    reason: c.reason,
    bundle_sha256: c.bundle_sha256,
    gates: c.gates,
    critic_alone: c.critic_alone,
  };
}

export function clustersView(c: ClusteringArtifact): ClustersFile {
  return { signatures: c.signatures, clusters: c.clusters, infra_failures: c.infra_failures };
}

export function diagnosesView(d: DiagnosesArtifact): DiagnosesFile {
  return { evidence: d.evidence, diagnoses: d.diagnoses, transcripts: d.transcripts };
}

export function synthesisView(s: EvolutionSpec): CandidateSpec {
  return {
    id: s.id,
    generation: s.generation,
    cluster: s.cluster,
    pooled: s.pooled,
    hypothesis: s.hypothesis,
    changed_rules: s.changed_rules,
    fit: s.fit,
    tolerances: s.tolerances,
    parent_sha256: s.parent_sha256,
    bundle_sha256: s.bundle_sha256,
    behaviour_sha256: s.behaviour_sha256,
    bundle_dir: s.bundle_dir,
    unbuildable: s.unbuildable,
  };
}

export function shadowView(s: EvolutionShadow): ShadowReport {
  return {
    rules: s.rules,
    triggers: s.triggers,
    targeted_failures: s.targeted_failures,
    trigger_rate: s.trigger_rate,
    other_triggers: s.other_triggers,
    false_alarms: s.false_alarms,
    successes: s.successes,
    false_alarm_rate: s.false_alarm_rate,
    fire_steps: s.fire_steps,
  };
}

export function verdictView(v: EvolutionVerdict): CandidateVerdict {
  return {
    candidate: v.candidate,
    decision: v.decision,
    stage: v.stage,
    reason: v.reason,
    gates: v.gates,
    critic_alone: v.critic_alone,
    ran_dev: v.ran_dev,
    ran_heldout: v.ran_heldout,
    rollouts: v.rollouts,
  };
}
