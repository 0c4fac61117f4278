// report.json: what a campaign did and decided, generation by generation, from its artifacts only
// (so a resumed campaign writes the same report). Numbers, not prose; report.html draws it.
import type { CampaignContext } from '../campaign/context.js';
import type { GenerationOutcome } from '../campaign/generation.js';
import { heldoutSettings } from '../campaign/gating.js';
import { campaignTasks, manifestSha } from '../campaign/manifest.js';
import { countOutcomes } from '../campaign/rollouts.js';
import type { PairCounts } from '../gates/paired.js';
import type { StoredBundle } from '../synthesis/bundle-files.js';

export interface CandidateRow {
  readonly id: string;
  readonly cluster: string;
  /** Every cluster whose failures the change targets. */
  readonly pooled: readonly string[];
  readonly hypothesis: string;
  readonly layer: string;
  readonly template: string;
  readonly mechanism: string;
  readonly fit: { theta: number; dwell: number } | null;
  readonly tolerances: Readonly<Record<string, number>> | null;
  readonly shadow: { triggers: number; targeted: number; false_alarms: number; successes: number } | null;
  readonly decision: string;
  readonly stage: string;
  readonly reason: string;
  readonly bundle_sha256: string;
  readonly gates: ReadonlyArray<{
    gate: string;
    pass: boolean;
    p_value: number | null;
    b: number;
    c: number;
    parent_successes: number;
    candidate_successes: number;
    episodes: number;
  }>;
  /** The candidate with the trivial policies (absent when it stopped before that gate). */
  readonly critic_alone: { pass: boolean; reason: string; best_rate: number; cap: number } | null;
}

export interface GenerationRow {
  readonly generation: number;
  readonly parent_sha256: string;
  readonly dev: { episodes: number; successes: number; infra_failures: number };
  readonly clusters: ReadonlyArray<{ id: string; size: number; first_missing: string | null; medoid_seed: number }>;
  readonly diagnoses: ReadonlyArray<{
    cluster: string;
    layer: string;
    mechanism: string;
    hypotheses: readonly string[];
    falsifier: string;
  }>;
  readonly candidates: readonly CandidateRow[];
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
  readonly gates: { alpha: number; min_gain: number };
  readonly heldout_seeds: readonly number[];
  readonly promoted: boolean;
  readonly base_bundle: { sha256: string; name: string };
  readonly final_bundle: { sha256: string; name: string; dir: string | null; promoted: boolean };
  /** Base vs final bundle on the held-out seeds (the same episodes when nothing was promoted). */
  readonly heldout: PairCounts & { p_value: number | null; problems: readonly string[] };
  /** Base vs final on fresh seeds that chose nothing; null when nothing was promoted or none were set. */
  readonly confirmation: (PairCounts & { p_value: number; problems: readonly string[] }) | null;
  /** α of a generation's first held-out test (each later one gets half the one before; gating.ts heldoutAlpha). */
  readonly heldout_alpha: number;
  readonly generations: readonly GenerationRow[];
}

export interface ReportInput {
  readonly ctx: CampaignContext;
  readonly generations: readonly GenerationOutcome[];
  readonly root: StoredBundle;
  readonly final: StoredBundle;
  readonly heldout: PairCounts & { p_value: number | null; problems: readonly string[] };
  readonly confirmation: (PairCounts & { p_value: number; problems: readonly string[] }) | null;
}

export function buildReport(x: ReportInput): CampaignReport {
  const m = x.ctx.manifest;
  return {
    campaign_id: x.ctx.campaignId,
    manifest_sha256: manifestSha(m),
    // a campaign over several tasks names them all
    task: campaignTasks(m).join(', '),
    suite: m.suite,
    perturbation: m.perturbation?.name ?? 'nominal',
    policy: m.policy.spec,
    diagnoser: m.diagnoser.kind,
    gates: { alpha: m.gates.alpha, min_gain: m.gates.min_gain },
    heldout_seeds: m.seeds.heldout,
    promoted: x.final.sha256 !== x.root.sha256,
    base_bundle: { sha256: x.root.sha256, name: x.root.manifest.name },
    final_bundle: { sha256: x.final.sha256, name: x.final.manifest.name, dir: x.final.dir, promoted: x.final.sha256 !== x.root.sha256 },
    heldout: x.heldout,
    confirmation: x.confirmation,
    heldout_alpha: heldoutSettings(x.ctx).alpha,
    generations: x.generations.map(generationRow),
  };
}

function generationRow(g: GenerationOutcome): GenerationRow {
  const counts = countOutcomes(g.dev.results);
  return {
    generation: g.generation,
    parent_sha256: g.parent_sha256,
    dev: { episodes: counts.episodes, successes: counts.successes, infra_failures: counts.infra },
    clusters: (g.clustering?.clusters ?? []).map((c) => ({
      id: c.id,
      size: c.size,
      first_missing: c.first_missing,
      medoid_seed: c.medoid_seed,
    })),
    diagnoses: g.diagnoses.map((d) => ({
      cluster: d.cluster,
      layer: d.layer,
      mechanism: d.mechanism,
      hypotheses: d.hypotheses.map((h) => h.id),
      falsifier: d.falsifier.statement,
    })),
    candidates: g.candidates.map(({ spec, shadow, verdict }) => ({
      id: spec.id,
      cluster: spec.cluster,
      pooled: spec.pooled ?? [spec.cluster],
      hypothesis: spec.hypothesis.id,
      layer: spec.hypothesis.layer,
      template: spec.hypothesis.template,
      mechanism: spec.hypothesis.mechanism,
      fit: spec.fit ? { theta: spec.fit.theta, dwell: spec.fit.dwell } : null,
      tolerances: spec.tolerances ?? null,
      shadow: shadow
        ? { triggers: shadow.triggers, targeted: shadow.targeted_failures, false_alarms: shadow.false_alarms, successes: shadow.successes }
        : null,
      decision: verdict.decision,
      stage: verdict.stage,
      reason: verdict.reason,
      bundle_sha256: spec.bundle_sha256,
      gates: verdict.gates.map((r) => ({
        gate: r.gate,
        pass: r.pass,
        p_value: r.p_value,
        b: r.counts.b,
        c: r.counts.c,
        parent_successes: r.counts.parent_successes,
        candidate_successes: r.counts.candidate_successes,
        episodes: r.counts.episodes,
      })),
      critic_alone: verdict.critic_alone
        ? {
            pass: verdict.critic_alone.pass,
            reason: verdict.critic_alone.reason,
            best_rate: verdict.critic_alone.best_rate,
            cap: verdict.critic_alone.cap,
          }
        : null,
    })),
    promoted: g.promoted ? (g.candidates.find((c) => c.verdict.decision === 'promoted')?.spec.id ?? null) : null,
  };
}
