// One generation: development rollouts of the parent, failure clustering, a diagnosis per cluster,
// then candidates one at a time (synthesis → shadow replay → development gates) until
// `max_candidates` have run development rollouts or the candidates run out. Then the held-out seeds
// judge those that passed, strongest development evidence first (heldout-tests.ts): a few tests a
// generation at most (`heldout_tests`), each at a Bonferroni-corrected α, so the held-out seeds are
// not worn down by many comparisons; the first candidate to pass is promoted.
import { loadBundle } from '../../critic/index.js';
import { readEpisode } from '../../zinfra/recording/episode-reader.js';
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';
import { clusterFailures, type FailureCluster } from '../clustering/cluster-failures.js';
import { failureSignature, successBand, type FailureSignature } from '../clustering/signature.js';
import { clusterEvidence, type ClusterEvidence } from '../diagnosis/evidence.js';
import type { LlmTranscript } from '../diagnosis/llm.js';
import type { Diagnosis } from '../diagnosis/schema.js';
import { shadowReplay, type ReplayEpisode, type ShadowReport } from '../shadow-replay.js';
import type { StoredBundle } from '../synthesis/bundle-files.js';
import { rankHypotheses, synthesizeCandidate, type CandidateSpec, type RankedHypothesis } from '../synthesis/synthesize.js';
import { searchStep, type SearchArtifact } from './search-step.js';
import { failureOnset } from '../search/failure-onset.js';
import { devGates, type DevVerdict } from './gating.js';
import { spendHeldoutTests, type CandidateSummary, type TriedCandidate } from './heldout-tests.js';

export type { CandidateSummary } from './heldout-tests.js';
import { rollout, type CampaignContext, type RolloutSet } from './context.js';
import { assertDisjoint } from './seeds.js';

/** Steps a recovery needs to act: a failure's "failure point" is this far before its end. */
export const RECOVERY_HEADROOM = 60;
/** Clusters diagnosed per generation (the largest ones). */
const MAX_CLUSTERS = 8;

export interface ClusteringArtifact {
  readonly signatures: readonly FailureSignature[];
  readonly clusters: readonly FailureCluster[];
  readonly infra_failures: readonly number[];
}

export interface DiagnosesArtifact {
  readonly evidence: readonly ClusterEvidence[];
  readonly diagnoses: readonly Diagnosis[];
  readonly transcripts: ReadonlyArray<LlmTranscript | null>;
}

export interface GenerationOutcome {
  readonly generation: number;
  readonly parent_sha256: string;
  readonly dev: RolloutSet;
  readonly clustering: ClusteringArtifact | null;
  readonly diagnoses: readonly Diagnosis[];
  readonly candidates: readonly CandidateSummary[];
  readonly promoted: StoredBundle | null;
}

export async function runGeneration(
  ctx: CampaignContext,
  g: number,
  parent: StoredBundle,
  earlier: readonly GenerationOutcome[] = [],
): Promise<GenerationOutcome> {
  // a change takes the held-out test once per campaign: the seeds do not change between generations
  const judgedOnHeldout = new Set(earlier.flatMap((o) => o.candidates.filter((c) => c.verdict.ran_heldout).map((c) => heldoutKey(c.spec))));
  const devSeeds = ctx.preregistration.dev[String(g)]!;
  assertDisjoint(devSeeds, ctx.preregistration.heldout); // never trust a file on disk: check again here
  ctx.state.enter('dev-rollouts', g);
  const dev = await rollout(ctx, parent, `dev-g${g}`, devSeeds);
  ctx.state.enter('clustering', g);
  const records = await loadRecords(ctx, dev);
  const clustering = (await ctx.state.step(`gen-${g}/clusters.json`, () => clusterStep(ctx, dev, records))).value;
  const outcome = {
    generation: g,
    parent_sha256: parent.sha256,
    dev,
    clustering,
    diagnoses: [] as Diagnosis[],
    candidates: [] as CandidateSummary[],
    promoted: null,
  };
  if (clustering.clusters.length === 0) {
    ctx.log(`generation ${g}: no task failures to learn from`);
    return outcome;
  }
  ctx.state.enter('diagnosis', g);
  const diag = (await ctx.state.step(`gen-${g}/diagnoses.json`, () => diagnoseStep(ctx, dev, records, clustering))).value;
  outcome.diagnoses.push(...diag.diagnoses);
  const replay = replayEpisodes(dev, records, clustering);
  const ranked = await withSearchedPairs(ctx, g, parent, dev, replay, clustering, rankHypotheses(diag.diagnoses, clustering.clusters));
  const seen = new Set<string>();
  const tried: TriedCandidate[] = [];
  let rolledOut = 0;
  for (let k = 0; k < ranked.length && rolledOut < ctx.manifest.gates.max_candidates; k++) {
    const cluster = clustering.clusters.find((c) => c.id === ranked[k]!.cluster)!;
    const targeted = pooledSeeds(clustering.clusters, ranked[k]!.pooled);
    ctx.state.enter('synthesis', g, k);
    const spec = (
      await ctx.state.step<CandidateSpec>(`gen-${g}/candidates/k${k}/synthesis.json`, () =>
        synthesizeCandidate({
          store: ctx.store,
          campaignId: ctx.campaignId,
          generation: g,
          index: k,
          parent,
          ranked: ranked[k]!,
          cluster,
          evidence: diag.evidence.find((e) => e.cluster === cluster.id)!,
          replay: replay.map((r) => ({ ...r, inCluster: targeted.has(r.seed) })),
          privileged: ctx.manifest.authorized_features.privileged,
          layout: ctx.layout,
          restores: ctx.world.restores,
        }),
      )
    ).value;
    // the same bundle, or the same change made again from another cluster's data, is judged once
    const key = mechanismKey(spec);
    const duplicate = spec.unbuildable === null && (seen.has(spec.bundle_sha256) || seen.has(key));
    seen.add(spec.bundle_sha256).add(key);
    ctx.state.enter('shadow-replay', g, k);
    const shadow = (
      await ctx.state.step<ShadowReport | null>(`gen-${g}/candidates/k${k}/shadow.json`, () =>
        spec.unbuildable || duplicate ? null : shadowStep(ctx, spec, replay, targeted),
      )
    ).value;
    ctx.state.enter('gating', g, k);
    const falsifier = diag.diagnoses.find((d) => d.cluster === cluster.id)!.falsifier;
    const judged = (
      await ctx.state.step<DevVerdict>(`gen-${g}/candidates/k${k}/dev-gates.json`, () =>
        devGates(ctx, {
          generation: g,
          parent,
          dev,
          spec,
          shadow,
          falsifier,
          duplicate,
          judgedOnHeldout: judgedOnHeldout.has(heldoutKey(spec)),
        }),
      )
    ).value;
    const passed = judged.decision === 'passed_dev';
    ctx.log(
      `generation ${g} candidate ${spec.id} (${spec.hypothesis.id}): ${passed ? 'passed the development gates' : `rejected — ${judged.reason}`}`,
    );
    tried.push({ spec, shadow, dev: judged, index: k });
    if (judged.ran_dev) rolledOut++;
  }
  const { candidates, promoted } = await spendHeldoutTests(ctx, g, parent, tried);
  return { ...outcome, candidates, promoted };
}

/**
 * A `search` hypothesis stands for every condition × action pair its screening kept (best first),
 * each its own candidate; the search and its screening rollouts run once per pool and are kept.
 */
async function withSearchedPairs(
  ctx: CampaignContext,
  g: number,
  parent: StoredBundle,
  dev: RolloutSet,
  replay: readonly ReplayEpisode[],
  clustering: ClusteringArtifact,
  ranked: readonly RankedHypothesis[],
): Promise<RankedHypothesis[]> {
  const out: RankedHypothesis[] = [];
  for (const r of ranked) {
    if (r.hypothesis.template !== 'search') {
      out.push(r);
      continue;
    }
    const targeted = pooledSeeds(clustering.clusters, r.pooled);
    const pool = replay.map((e) => ({ ...e, inCluster: targeted.has(e.seed) }));
    const search = (await ctx.state.step<SearchArtifact>(`gen-${g}/search-${r.cluster}.json`, () => searchStep(ctx, g, parent, dev, pool)))
      .value;
    ctx.log(
      `generation ${g}: search for ${r.pooled.join('+')}: ${search.conditions.length} conditions, ${search.screened} condition-action pairs screened, ${search.pairs.length} kept`,
    );
    for (const pair of search.pairs) out.push({ ...r, search: pair });
  }
  return out;
}

function clusterStep(ctx: CampaignContext, dev: RolloutSet, records: Map<number, EpisodeRecord>): ClusteringArtifact {
  const counted = dev.results.filter((r) => r.infra_failure === null);
  const scales = ctx.world.signature;
  const band = successBand(
    counted.filter((r) => r.success).map((r) => records.get(r.seed)!),
    scales,
  );
  const signatures = counted
    .filter((r) => !r.success)
    .map((r) => failureSignature(records.get(r.seed)!, ctx.milestonesOf(r.task), band, scales));
  return {
    signatures,
    clusters: clusterFailures(signatures, scales),
    infra_failures: dev.results.filter((r) => r.infra_failure !== null).map((r) => r.seed),
  };
}

async function diagnoseStep(
  ctx: CampaignContext,
  dev: RolloutSet,
  records: Map<number, EpisodeRecord>,
  clustering: ClusteringArtifact,
): Promise<DiagnosesArtifact> {
  const signatures = new Map(clustering.signatures.map((s) => [s.seed, s]));
  const taskOf = new Map(dev.results.map((r) => [r.seed, r.task]));
  const evidence = clustering.clusters.slice(0, MAX_CLUSTERS).map((cluster) => {
    // a cluster shares its first missing milestone, so (milestones naming a task's objects) its task
    const task = mostCommon(cluster.seeds.map((s) => taskOf.get(s)!));
    return clusterEvidence({ task, milestones: ctx.milestonesOf(task), cluster, signatures, records, results: dev.results });
  });
  const diagnoses: Diagnosis[] = [];
  const transcripts: Array<LlmTranscript | null> = [];
  for (const e of evidence) {
    const { diagnosis, transcript } = await ctx.diagnoser.diagnose(e);
    diagnoses.push(diagnosis);
    transcripts.push(transcript);
  }
  return { evidence, diagnoses, transcripts };
}

function mostCommon(items: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const x of items) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

/** The parent's recorded development episodes (infrastructure failures left out), by seed. */
async function loadRecords(ctx: CampaignContext, dev: RolloutSet): Promise<Map<number, EpisodeRecord>> {
  const records = new Map<number, EpisodeRecord>();
  for (const r of dev.results) {
    if (r.record === null || r.infra_failure !== null) continue;
    records.set(r.seed, await readEpisode(ctx.store.abs(r.record)));
  }
  return records;
}

/** Shadow replay's view of the parent's episodes; `inCluster` is set per candidate. */
function replayEpisodes(dev: RolloutSet, records: Map<number, EpisodeRecord>, clustering: ClusteringArtifact): ReplayEpisode[] {
  const sigs = new Map(clustering.signatures.map((s) => [s.seed, s]));
  return dev.results
    .filter((r) => records.has(r.seed))
    .map((r) => {
      const sig = sigs.get(r.seed);
      // a short episode (a world whose tasks take 60 steps) keeps three quarters of itself to act in
      const headroom = sig ? Math.min(RECOVERY_HEADROOM, Math.floor(sig.steps / 4)) : 0;
      const failurePoint = sig ? Math.max(sig.stall_step, sig.steps - 1 - headroom) : -1;
      const record = records.get(r.seed)!;
      const onset = sig ? failureOnset(record, sig.stall_step, failurePoint) : -1;
      return { seed: r.seed, success: r.success, record, failurePoint, onset, inCluster: false };
    });
}

/** The failures a candidate targets: those of every cluster pooled into its change. */
function pooledSeeds(clusters: readonly FailureCluster[], pooled: readonly string[]): Set<number> {
  return new Set(clusters.filter((c) => pooled.includes(c.id)).flatMap((c) => c.seeds));
}

/** The candidate's changed rules replayed over the parent's episodes, read-only. */
function shadowStep(
  ctx: CampaignContext,
  spec: CandidateSpec,
  replay: readonly ReplayEpisode[],
  targeted: ReadonlySet<number>,
): ShadowReport {
  const privileged = ctx.manifest.authorized_features.privileged;
  const bundle = loadBundle(ctx.store.abs(spec.bundle_dir), { layout: ctx.layout, privileged });
  const episodes = replay.map((r) => ({ ...r, inCluster: targeted.has(r.seed) }));
  return shadowReplay(episodes, bundle.rules, spec.changed_rules, privileged);
}

/** A candidate as the held-out gate sees it: this behaviour against this parent. */
function heldoutKey(spec: CandidateSpec): string {
  return `${spec.parent_sha256}:${spec.behaviour_sha256 ?? spec.bundle_sha256}`;
}

/** What a candidate changes: the template and the rule, program or stage it changes. */
function mechanismKey(spec: CandidateSpec): string {
  const h = spec.hypothesis;
  if (spec.search) return `search:${JSON.stringify(spec.search.condition.when)}:${spec.search.action}`;
  return `${h.template}:${h.program_id ?? h.rule_id ?? spec.changed_rules.join(',')}`;
}
