// The evidence a diagnoser sees for one cluster: milestones and feature statistics of its members
// after they stalled, next to the successful episodes of the same batch. Both back ends get exactly
// this (the LLM as JSON in its prompt), so they diagnose from the same facts.
import type { EpisodeRecord } from '../../zinfra/recording/episode-record.js';
import type { EpisodeResult } from '../campaign/rollouts.js';
import type { FailureCluster } from '../clustering/cluster-failures.js';
import { featureSeries, type FailureSignature } from '../clustering/signature.js';
import { actuationLag } from './actuation-lag.js';

export interface ClusterEvidence {
  readonly cluster: string;
  readonly task: string;
  readonly milestones: readonly string[];
  readonly first_missing: string | null;
  readonly first_missing_index: number;
  readonly size: number;
  readonly failures_in_batch: number;
  readonly successes_in_batch: number;
  /** Mean over members of the steps from the stall to the episode's end. */
  readonly stalled_steps: number;
  /** End-effector path length over net displacement after the stall (≫ 1: back and forth). */
  readonly oscillation_index: number;
  /** Mean end-effector speed after the stall (m/step). */
  readonly eef_motion_per_step: number;
  readonly grasped_fraction: number;
  readonly disturbed_fraction: number;
  /** Members in which the parent bundle started a recovery, and successes in which it did. */
  readonly parent_recovery_failures: number;
  readonly parent_recovery_successes: number;
  /** The parent rule that fired most in members and not in successes (for critic hypotheses). */
  readonly parent_rule_suspect: string | null;
  /** The parent program that drove the most steps of the members (for recovery hypotheses). */
  readonly parent_program_suspect: string | null;
  /** Share of the members' steps driven by any parent recovery program. */
  readonly recovery_step_share: number;
  /** Share of the suspect program's runs in members that ended with its budget exhausted. */
  readonly program_exhausted_share: number;
  /** Steps successes took to reach the missing milestone: median and maximum (NaN when none did). */
  readonly success_steps_to_milestone_median: number;
  readonly success_steps_to_milestone_max: number;
  readonly divergence_features: Readonly<Record<string, number>>;
  /** Steps until a commanded motion shows in the hand's motion, over the members (1: no delay). */
  readonly actuation_lag_steps: number | null;
}

export interface EvidenceInput {
  readonly task: string;
  readonly milestones: readonly string[];
  readonly cluster: FailureCluster;
  readonly signatures: ReadonlyMap<number, FailureSignature>;
  readonly records: ReadonlyMap<number, EpisodeRecord>;
  readonly results: readonly EpisodeResult[];
}

export function clusterEvidence(input: EvidenceInput): ClusterEvidence {
  const { cluster, records, results } = input;
  const members = cluster.seeds.map((s) => ({ sig: input.signatures.get(s)!, rec: records.get(s)! }));
  const successes = results.filter((r) => r.success);
  const failures = results.filter((r) => !r.success && r.infra_failure === null);
  const after = members.map(({ sig, rec }) => motionAfter(rec, sig.stall_step));
  const divergence: Record<string, number> = {};
  for (const { sig } of members)
    if (sig.divergence_feature) divergence[sig.divergence_feature] = (divergence[sig.divergence_feature] ?? 0) + 1;
  const reach = successes
    .map((r) => stepReaching(records.get(r.seed), cluster.first_missing))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const memberSet = new Set(cluster.seeds);
  return {
    cluster: cluster.id,
    task: input.task,
    milestones: input.milestones,
    first_missing: cluster.first_missing,
    first_missing_index: cluster.first_missing_index,
    size: cluster.size,
    failures_in_batch: failures.length,
    successes_in_batch: successes.length,
    stalled_steps: mean(members.map(({ sig }) => sig.steps - sig.stall_step)),
    oscillation_index: mean(after.map((a) => a.oscillation)),
    eef_motion_per_step: mean(after.map((a) => a.speed)),
    grasped_fraction: mean(members.map(({ rec, sig }) => fractionTrue(featureSeries(rec, 'grasped'), sig.stall_step))),
    disturbed_fraction: mean(
      members.map(({ rec }) => (Math.max(0, ...featureSeries(rec, 'disturbed').map((v) => (Number.isFinite(v) ? v : 0))) > 0 ? 1 : 0)),
    ),
    parent_recovery_failures: results.filter((r) => memberSet.has(r.seed) && r.recoveries > 0).length,
    parent_recovery_successes: successes.filter((r) => r.recoveries > 0).length,
    ...programUse(members.map((m) => m.rec)),
    parent_rule_suspect: suspectRule(
      members.map((m) => m.rec),
      successes.map((r) => records.get(r.seed)).filter((r): r is EpisodeRecord => r !== undefined),
    ),
    success_steps_to_milestone_median: reach.length ? reach[Math.floor((reach.length - 1) / 2)]! : Number.NaN,
    success_steps_to_milestone_max: reach.length ? reach[reach.length - 1]! : Number.NaN,
    divergence_features: divergence,
    actuation_lag_steps: actuationLag(members.map((m) => m.rec)),
  };
}

function mean(xs: readonly number[]): number {
  const f = xs.filter(Number.isFinite);
  return f.length ? f.reduce((a, b) => a + b, 0) / f.length : Number.NaN;
}

function fractionTrue(series: Float64Array, from: number): number {
  let n = 0;
  let k = 0;
  for (let t = from; t < series.length; t++) {
    if (!Number.isFinite(series[t]!)) continue;
    n++;
    if (series[t]! > 0.5) k++;
  }
  return n ? k / n : 0;
}

function motionAfter(rec: EpisodeRecord, from: number): { oscillation: number; speed: number } {
  const pts = rec.steps.slice(from).map((s) => [s.state[0]!, s.state[1]!, s.state[2]!] as const);
  if (pts.length < 2) return { oscillation: 1, speed: 0 };
  let path = 0;
  for (let i = 1; i < pts.length; i++)
    path += Math.hypot(pts[i]![0] - pts[i - 1]![0], pts[i]![1] - pts[i - 1]![1], pts[i]![2] - pts[i - 1]![2]);
  const a = pts[0]!;
  const b = pts[pts.length - 1]!;
  const net = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  return { oscillation: path / Math.max(net, 1e-3), speed: path / (pts.length - 1) };
}

function stepReaching(rec: EpisodeRecord | undefined, milestone: string | null): number {
  if (!rec || milestone === null) return Number.NaN;
  const s = rec.steps.find((x) => x.milestones.includes(milestone));
  return s ? s.step : Number.NaN;
}

/** The rule id proposing most often in failures relative to successes (per episode), if any fired. */
function suspectRule(failures: readonly EpisodeRecord[], successes: readonly EpisodeRecord[]): string | null {
  const rate = (recs: readonly EpisodeRecord[]) => {
    const counts = new Map<string, number>();
    for (const r of recs) {
      const fired = new Set(r.steps.flatMap((s) => (s.proposals ?? []).map((p) => p.ruleId)));
      for (const id of fired) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return (id: string) => (recs.length ? (counts.get(id) ?? 0) / recs.length : 0);
  };
  const f = rate(failures);
  const s = rate(successes);
  const ids = [...new Set(failures.flatMap((r) => r.steps.flatMap((st) => (st.proposals ?? []).map((p) => p.ruleId))))].sort();
  let best: string | null = null;
  let bestGap = 0.25; // a rule must fire in at least a quarter more of the failures to be suspected
  for (const id of ids) {
    const gap = f(id) - s(id);
    if (gap > bestGap) {
      bestGap = gap;
      best = id;
    }
  }
  return best;
}

/** Which parent program drove the failures, how much of them, and how often it ran out of budget. */
function programUse(failures: readonly EpisodeRecord[]): {
  parent_program_suspect: string | null;
  recovery_step_share: number;
  program_exhausted_share: number;
} {
  const steps = new Map<string, number>();
  const runs = new Map<string, { ended: number; exhausted: number }>();
  let total = 0;
  let recovering = 0;
  for (const r of failures) {
    for (const s of r.steps) {
      total++;
      const d = s.decision;
      if (!d?.recovery) continue;
      if (d.kind === 'recover') {
        recovering++;
        steps.set(d.recovery, (steps.get(d.recovery) ?? 0) + 1);
      } else if (d.kind === 'reenter') {
        const run = runs.get(d.recovery) ?? { ended: 0, exhausted: 0 };
        run.ended++;
        if (d.reason?.includes('exhausted')) run.exhausted++;
        runs.set(d.recovery, run);
      }
    }
  }
  const suspect = [...steps.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
  const run = suspect ? runs.get(suspect) : undefined;
  return {
    parent_program_suspect: suspect,
    recovery_step_share: total ? recovering / total : 0,
    program_exhausted_share: run?.ended ? run.exhausted / run.ended : 0,
  };
}
