// Candidate synthesis: one bundle per hypothesis, each the parent bundle plus exactly one mechanism
// change — a new rule (from the hypothesis' template, threshold fitted by shadow replay) with the
// program it starts, or, for a critic hypothesis, one parent rule made to wait longer. Candidates
// are tried in order of evidence: cluster size times the hypothesis' score.
import type { RuleInput } from '../../critic/index.js';
import type { ArtifactStore } from '../campaign/artifacts.js';
import type { FailureCluster } from '../clustering/cluster-failures.js';
import type { ClusterEvidence } from '../diagnosis/evidence.js';
import type { Diagnosis, Hypothesis } from '../diagnosis/schema.js';
import type { ReplayEpisode } from '../shadow-replay.js';
import { writeBundle, type StoredBundle } from './bundle-files.js';
import { fitThreshold, type FitResult } from './fit.js';
import { programFor } from './programs.js';
import { fittableRule, suppressed, withFit } from './templates.js';

export interface RankedHypothesis {
  readonly cluster: string;
  readonly hypothesis: Hypothesis;
  readonly weight: number;
}

/** Every buildable hypothesis of a generation, best evidence first (ties: cluster id, hypothesis id). */
export function rankHypotheses(diagnoses: readonly Diagnosis[], clusters: readonly FailureCluster[]): RankedHypothesis[] {
  const size = new Map(clusters.map((c) => [c.id, c.size]));
  return diagnoses
    .flatMap((d) => d.hypotheses.filter((h) => h.template !== 'none').map((h) => ({ cluster: d.cluster, hypothesis: h, weight: (size.get(d.cluster) ?? 0) * h.score })))
    .sort((a, b) => b.weight - a.weight || a.cluster.localeCompare(b.cluster) || a.hypothesis.id.localeCompare(b.hypothesis.id));
}

export interface CandidateSpec {
  readonly id: string;
  readonly generation: number;
  readonly cluster: string;
  readonly hypothesis: Hypothesis;
  /** Ids of the rules this candidate adds or changes (what shadow replay watches). */
  readonly changed_rules: readonly string[];
  readonly fit: FitResult | null;
  readonly parent_sha256: string;
  readonly bundle_sha256: string;
  readonly bundle_dir: string;
  /** Why no bundle could be built (then bundle fields are empty). */
  readonly unbuildable: string | null;
}

export interface SynthesisInput {
  readonly store: ArtifactStore;
  readonly campaignId: string;
  readonly generation: number;
  readonly index: number;
  readonly parent: StoredBundle;
  readonly ranked: RankedHypothesis;
  readonly cluster: FailureCluster;
  readonly evidence: ClusterEvidence;
  readonly replay: readonly ReplayEpisode[];
  readonly privileged: boolean;
}

export function synthesizeCandidate(input: SynthesisInput): CandidateSpec {
  const { parent, ranked, generation, index } = input;
  const h = ranked.hypothesis;
  const id = `g${generation}-k${index}`;
  const evidence = [`${input.campaignId}/gen-${generation}/${ranked.cluster}`, `hypothesis:${h.id}`];
  const base = { id, generation, cluster: ranked.cluster, hypothesis: h, parent_sha256: parent.sha256 };
  const parentRules = parent.rules.rules as RuleInput[];
  let rules: RuleInput[];
  let programs = [...(parent.recoveries.programs as unknown[])];
  let changed: string;
  let fit: FitResult | null = null;
  if (h.template === 'suppress_rule') {
    const target = parentRules.find((r) => r.id === h.rule_id);
    if (!target) return { ...base, changed_rules: [], fit: null, bundle_sha256: '', bundle_dir: '', unbuildable: `the parent has no rule "${h.rule_id}"` };
    rules = parentRules.map((r) => (r.id === target.id ? suppressed(r, evidence) : r));
    changed = target.id;
  } else {
    const ruleId = `evo.${id}.${h.template}`;
    const recoveryId = `evo_${id.replace('-', '_')}_${h.template}`;
    const template = fittableRule(h.template, { ruleId, recoveryId, stage: input.cluster.first_missing_index, successSteps: input.evidence.success_steps_to_milestone_max });
    if (!template || input.cluster.first_missing === null) {
      return { ...base, changed_rules: [], fit: null, bundle_sha256: '', bundle_dir: '', unbuildable: `template ${h.template} has no rule for this cluster` };
    }
    fit = fitThreshold(template, recoveryId, input.replay, input.privileged);
    rules = [...parentRules, withFit(template, fit.theta, fit.dwell, evidence)];
    programs = [...programs, programFor(input.cluster.first_missing, recoveryId)];
    changed = ruleId;
  }
  const bundle = writeBundle(input.store, {
    manifest: {
      version: 1,
      name: `${parent.manifest.name}+${id}`,
      description: `${parent.manifest.name} with one change (${h.layer}: ${h.mechanism})`,
      privileged: true,
      privileged_reason: 'evolved rules read the stage (milestones reached) and aim recoveries at the task object and its place point',
      rules: 'rules.json',
      recoveries: 'recoveries.json',
      during_recovery: parent.manifest.during_recovery,
    },
    rules: { version: 1, rules },
    recoveries: { version: 1, programs: programs as never },
  });
  return { ...base, changed_rules: [changed], fit, bundle_sha256: bundle.sha256, bundle_dir: bundle.dir!, unbuildable: null };
}
