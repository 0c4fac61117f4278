// Candidate synthesis: one bundle per hypothesis, each the parent bundle plus exactly one mechanism
// change — a new rule (from the hypothesis' template, threshold fitted by shadow replay) with the
// program it starts, or, for a critic hypothesis, one parent rule made to wait longer. Candidates
// are tried in order of evidence: cluster size times the hypothesis' score.
import type { RuleInput } from '../../critic/index.js';
import type { BundleManifest } from '../../critic/index.js';
import type { FeatureLayout } from '../../critic/index.js';
import type { WorldRestores } from '../../sim/world.js';
import type { ArtifactStore } from '../campaign/artifacts.js';
import type { FailureCluster } from '../clustering/cluster-failures.js';
import type { ClusterEvidence } from '../diagnosis/evidence.js';
import type { Diagnosis, Hypothesis } from '../diagnosis/schema.js';
import type { ReplayEpisode } from '../shadow-replay.js';
import { behaviourSha, featuresRead, writeBundle, type StoredBundle } from './bundle-files.js';
import { fitThreshold, type FitResult } from './fit.js';
import { programFor } from './programs.js';
import { fitReentry, fitTolerances, retuneProgram, withActuationLag } from './retune.js';
import { fittableRule, suppressed, withFit } from './templates.js';
import { actionLibrary } from '../search/action-library.js';
import { alignChunksChange, type ManifestChange } from './control-options.js';
import { withSearchedPair, type ScreenedPair } from '../search/searched-rule.js';

export interface RankedHypothesis {
  /** The cluster whose diagnosis the candidate is built from (the strongest of those pooled). */
  readonly cluster: string;
  readonly hypothesis: Hypothesis;
  /** Every cluster whose diagnosis proposed the same change; their failures are what it targets. */
  readonly pooled: readonly string[];
  readonly weight: number;
  /** A `search` hypothesis: the screened condition and action this candidate is built from. */
  readonly search?: ScreenedPair;
}

/**
 * Every buildable change of a generation, best evidence first (ties: cluster id, hypothesis id).
 * A template rule is guarded by the stage it watches, so clusters stalled in the same stage that
 * propose the same template propose one and the same change: they are pooled, and the change is
 * weighted by all their failures (size × score summed). Many small clusters of one stage — what a
 * perturbation that scatters the scene produces — then outweigh a single tidy one, and the
 * candidate budget is not spent on one change made again from each cluster's data.
 */
export function rankHypotheses(diagnoses: readonly Diagnosis[], clusters: readonly FailureCluster[]): RankedHypothesis[] {
  const byId = new Map(clusters.map((c) => [c.id, c]));
  const pools = new Map<string, { best: RankedHypothesis; pooled: string[]; weight: number }>();
  for (const d of diagnoses) {
    const cluster = byId.get(d.cluster);
    for (const h of d.hypotheses) {
      if (h.template === 'none') continue;
      const entry: RankedHypothesis = { cluster: d.cluster, hypothesis: h, pooled: [d.cluster], weight: (cluster?.size ?? 0) * h.score };
      const key = changeKey(h, cluster);
      const pool = pools.get(key);
      if (!pool) {
        pools.set(key, { best: entry, pooled: [d.cluster], weight: entry.weight });
        continue;
      }
      pool.pooled.push(d.cluster);
      pool.weight += entry.weight;
      if (entry.weight > pool.best.weight || (entry.weight === pool.best.weight && entry.cluster.localeCompare(pool.best.cluster) < 0))
        pool.best = entry;
    }
  }
  return [...pools.values()]
    .map(({ best, pooled, weight }) => ({ ...best, pooled: [...pooled].sort(), weight }))
    .sort((a, b) => b.weight - a.weight || a.cluster.localeCompare(b.cluster) || a.hypothesis.id.localeCompare(b.hypothesis.id));
}

/** What a hypothesis would change: a template rule in one stage, one parent rule, or one parent program. */
function changeKey(h: Hypothesis, cluster: FailureCluster | undefined): string {
  if (h.template === 'suppress_rule') return `suppress:${h.rule_id}`;
  if (h.template === 'retune_program') return `retune:${h.program_id}`;
  if (h.template === 'compensate_lag') return 'compensate_lag';
  if (h.template === 'align_chunks') return 'align_chunks';
  if (h.template === 'search') return `search@${cluster?.first_missing_index ?? -1}`;
  return `${h.template}@${cluster?.first_missing_index ?? -1}`;
}

export interface CandidateSpec {
  readonly id: string;
  readonly generation: number;
  readonly cluster: string;
  /** The clusters whose failures the change targets (see rankHypotheses). */
  readonly pooled: readonly string[];
  readonly hypothesis: Hypothesis;
  /** A searched candidate: its condition and action, and what screening saw. */
  readonly search?: ScreenedPair;
  /** Ids of the rules this candidate adds or changes (what shadow replay watches). */
  readonly changed_rules: readonly string[];
  readonly fit: FitResult | null;
  /** retune_program: the fitted thresholds (xy tolerance per point, re-entry max_speed, max_width_rate). */
  readonly tolerances?: Readonly<Record<string, number>> | null;
  readonly parent_sha256: string;
  readonly bundle_sha256: string;
  /** The bundle's behaviour (bundle-files.ts behaviourSha): equal for candidates equal but for their notes. */
  readonly behaviour_sha256?: string;
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
  /** The world's frame layout: a template that reads a feature the world lacks builds nothing. */
  readonly layout: FeatureLayout;
  /** The world's restore programs, which template rules start (none: no template candidate). */
  readonly restores: WorldRestores | undefined;
}

/** One mechanism change to the parent: its rules and programs after the change, or why none could be made. */
type Change =
  | {
      readonly rules: RuleInput[];
      readonly programs: unknown[];
      readonly changed: string[];
      readonly fit: FitResult | null;
      readonly tolerances: Record<string, number> | null;
      /** A control option: manifest settings that change (control-options.ts). */
      readonly manifest?: ManifestChange;
    }
  | { readonly unbuildable: string };

export function synthesizeCandidate(input: SynthesisInput): CandidateSpec {
  const { parent, ranked, generation, index } = input;
  const id = `g${generation}-k${index}`;
  const evidence = [`${input.campaignId}/gen-${generation}/${ranked.cluster}`, `hypothesis:${ranked.hypothesis.id}`];
  const base = {
    id,
    generation,
    cluster: ranked.cluster,
    pooled: ranked.pooled,
    hypothesis: ranked.hypothesis,
    ...(ranked.search ? { search: ranked.search } : {}),
    parent_sha256: parent.sha256,
  };
  const change = changeFor(input, id, evidence);
  if ('unbuildable' in change)
    return { ...base, changed_rules: [], fit: null, bundle_sha256: '', bundle_dir: '', unbuildable: change.unbuildable };
  return finish(input, base, change, evidence);
}

function changeFor(input: SynthesisInput, id: string, evidence: readonly string[]): Change {
  switch (input.ranked.hypothesis.template) {
    case 'retune_program':
      return retuneChange(input);
    case 'compensate_lag':
      return lagChange(input);
    case 'align_chunks':
      return alignChange(input);
    case 'suppress_rule':
      return suppressChange(input, evidence);
    case 'search':
      return searchedChange(input, evidence);
    default:
      return ruleChange(input, id, evidence);
  }
}

const parentRules = (input: SynthesisInput) => input.parent.rules.rules as RuleInput[];
const parentPrograms = (input: SynthesisInput) => [...(input.parent.recoveries.programs as unknown[])];

/** A template rule, threshold fitted by shadow replay, and the program that completes the stage. */
function ruleChange(input: SynthesisInput, id: string, evidence: readonly string[]): Change {
  const h = input.ranked.hypothesis;
  const ruleId = `evo.${id}.${h.template}`;
  const recoveryId = `evo_${id.replace('-', '_')}_${h.template}`;
  const template = fittableRule(h.template, {
    ruleId,
    recoveryId,
    stage: input.cluster.first_missing_index,
    successSteps: input.evidence.success_steps_to_milestone_max,
  });
  if (!template || input.cluster.first_missing === null) return { unbuildable: `template ${h.template} has no rule for this cluster` };
  const lacking = missingFeatures(template.rule, input.layout);
  if (lacking.length)
    return {
      unbuildable: `template ${h.template} reads ${lacking.join(', ')}, which the world "${input.layout.worldName}" does not provide`,
    };
  const program = programFor(input.cluster.first_missing, recoveryId, input.restores);
  if (!program) return { unbuildable: `the world "${input.layout.worldName}" offers no restore program for a template rule to start` };
  const fit = fitThreshold(template, recoveryId, input.replay, input.privileged, input.layout);
  return {
    rules: [...parentRules(input), withFit(template, fit.theta, fit.dwell, evidence)],
    programs: [...parentPrograms(input), program],
    changed: [ruleId],
    fit,
    tolerances: null,
  };
}

/** The screened condition and action (campaign/search-step.ts) as a rule and program added to the parent. */
function searchedChange(input: SynthesisInput, evidence: readonly string[]): Change {
  const pair = input.ranked.search;
  if (!pair) return { unbuildable: 'a search hypothesis without a screened condition and action' };
  const action = actionLibrary({ restores: input.restores }).find((a) => a.id === pair.action);
  if (!action) return { unbuildable: `no action "${pair.action}" in this world's library` };
  const own = { rules: parentRules(input), programs: parentPrograms(input) };
  const { rules, programs, rule } = withSearchedPair(own, input.generation, pair, action, evidence);
  return {
    rules,
    programs,
    changed: [rule.id],
    fit: null,
    tolerances: null,
  };
}

/** The blamed parent rule waits longer before it fires. */
function suppressChange(input: SynthesisInput, evidence: readonly string[]): Change {
  const h = input.ranked.hypothesis;
  const target = parentRules(input).find((r) => r.id === h.rule_id);
  if (!target) return { unbuildable: `the parent has no rule "${h.rule_id}"` };
  const rules = parentRules(input).map((r) => (r.id === target.id ? suppressed(r, evidence) : r));
  return { rules, programs: parentPrograms(input), changed: [target.id], fit: null, tolerances: null };
}

/** The blamed parent program with its approach tolerances refitted from the recordings. */
function retuneChange(input: SynthesisInput): Change {
  const h = input.ranked.hypothesis;
  const programs = parentPrograms(input);
  const at = programs.findIndex((p) => (p as { id?: string }).id === h.program_id);
  if (at < 0) return { unbuildable: `the parent has no program "${h.program_id}"` };
  const failures = input.replay.filter((r) => !r.success && r.inCluster).map((r) => r.record);
  const tolerances = fitTolerances(h.program_id!, failures);
  const reentry = fitReentry(h.program_id!, failures);
  if (Object.keys(tolerances).length === 0 && !reentry)
    return { unbuildable: `${h.program_id} drove too few recorded steps to fit its thresholds` };
  programs[at] = retuneProgram(programs[at] as Record<string, unknown>, tolerances, reentry);
  // the rules are unchanged; shadow replay watches the ones that start the program (when it would run)
  return {
    rules: parentRules(input),
    programs,
    changed: rulesStarting(input, new Set([h.program_id!])),
    fit: null,
    tolerances: { ...tolerances, ...(reentry ?? {}) },
  };
}

/** Every parent program that servoes toward a point, told the actuation lag measured in the recordings. */
function lagChange(input: SynthesisInput): Change {
  const lag = input.evidence.actuation_lag_steps;
  if (lag === null || lag < 2) return { unbuildable: 'no actuation lag was measured: commands move the hand by the next step' };
  const changedPrograms = new Set<string>();
  const programs = parentPrograms(input).map((p) => {
    const told = withActuationLag(p as Record<string, unknown>, lag);
    if (told) changedPrograms.add(String((p as { id?: string }).id));
    return told ?? p;
  });
  if (changedPrograms.size === 0) return { unbuildable: `every parent program that servoes already compensates a lag of ${lag} steps` };
  // the rules are unchanged; shadow replay watches the ones that start a changed program
  return {
    rules: parentRules(input),
    programs,
    changed: rulesStarting(input, changedPrograms),
    fit: null,
    tolerances: { actuation_lag_steps: lag },
  };
}

/** The parent's rules and programs, its chunks aligned to the measured lag. */
function alignChange(input: SynthesisInput): Change {
  const lag = input.evidence.actuation_lag_steps;
  const option = alignChunksChange(input.parent.manifest, lag);
  if ('unbuildable' in option) return option;
  return {
    rules: parentRules(input),
    programs: parentPrograms(input),
    changed: [],
    fit: null,
    tolerances: { actuation_lag_steps: lag! },
    manifest: option.manifest,
  };
}

/** Ids of the parent rules that start one of these programs. */
function rulesStarting(input: SynthesisInput, programs: ReadonlySet<string>): string[] {
  return parentRules(input)
    .filter((r) => r.propose.action === 'recovery' && programs.has(r.propose.recovery))
    .map((r) => r.id);
}

type CandidateBase = Pick<CandidateSpec, 'id' | 'generation' | 'cluster' | 'pooled' | 'hypothesis' | 'parent_sha256'>;

/** Writes the candidate bundle: the parent's manifest settings, the changed rules and programs. */
function finish(
  input: SynthesisInput,
  base: CandidateBase,
  change: Exclude<Change, { unbuildable: string }>,
  evidence: readonly string[],
): CandidateSpec {
  const { rules, programs, changed, fit, tolerances } = change;
  const { parent, ranked } = input;
  const h = ranked.hypothesis;
  const note = `${parent.manifest.name} with one change (${h.layer}: ${h.mechanism}); evidence ${evidence.join(', ')}`;
  const bundle = writeCandidateBundle(input.store, parent, input.layout, base.id, note, rules, programs, change.manifest);
  return {
    ...base,
    changed_rules: changed,
    fit,
    tolerances,
    bundle_sha256: bundle.sha256,
    behaviour_sha256: behaviourSha(bundle),
    bundle_dir: bundle.dir!,
    unbuildable: null,
  };
}

/** The parent with changed rules and programs, written to the store under a new name and note. */
export function writeCandidateBundle(
  store: ArtifactStore,
  parent: StoredBundle,
  layout: FeatureLayout,
  id: string,
  note: string,
  rules: readonly RuleInput[],
  programs: readonly unknown[],
  manifestChange: ManifestChange = {},
): StoredBundle {
  return writeBundle(store, {
    manifest: { ...candidateManifest(parent.manifest, id, note, privilegeOf(parent, rules, programs, layout)), ...manifestChange },
    rules: { version: 1, rules: [...rules] },
    recoveries: { version: 1, programs: [...programs] as never },
  });
}

/**
 * A candidate's manifest: the parent's settings under a new name and note. How the parent answers
 * an actuation lag (a wait, aligned chunks) is not the change under test, so it is kept.
 */
export function candidateManifest(
  parent: BundleManifest,
  id: string,
  description: string,
  privilege: { privileged: boolean; privileged_reason?: string },
): BundleManifest {
  return {
    version: 1,
    name: `${parent.name}+${id}`,
    description,
    ...privilege,
    rules: 'rules.json',
    recoveries: 'recoveries.json',
    during_recovery: parent.during_recovery,
    ...(parent.wait_out_lag !== undefined ? { wait_out_lag: parent.wait_out_lag } : {}),
    ...(parent.align_chunks_to_lag !== undefined ? { align_chunks_to_lag: parent.align_chunks_to_lag } : {}),
  };
}

/**
 * A candidate is privileged when its parent is or when it reads a privileged feature itself; one
 * that reads only what a robot perceives stays loadable on a robot.
 */
function privilegeOf(
  parent: StoredBundle,
  rules: unknown,
  programs: unknown,
  layout: FeatureLayout,
): { privileged: boolean; privileged_reason?: string } {
  const read = featuresRead(
    [rules, programs],
    layout.features.map((f) => f.name),
  ).filter((name) => layout.isPrivileged(name));
  if (read.length > 0) return { privileged: true, privileged_reason: `evolved rules read ${read.join(', ')}` };
  if (!parent.manifest.privileged) return { privileged: false };
  return { privileged: true, ...(parent.manifest.privileged_reason ? { privileged_reason: parent.manifest.privileged_reason } : {}) };
}

/** The feature names a rule (or program) reads that the layout lacks. */
function missingFeatures(json: unknown, layout: FeatureLayout): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'feature' && typeof x === 'string' && layout.index(x) < 0) names.add(x);
        else walk(x);
      }
    }
  };
  walk(json);
  return [...names].sort();
}
