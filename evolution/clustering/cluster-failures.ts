// Failure clusters of one batch: signatures of the failed episodes, a distance between signatures,
// complete-link clustering, a medoid per cluster. Failures that never reached the same milestone are
// never merged: a grasp that slipped and an approach that stalled are different mechanisms even when
// their feature snapshots look alike.
import { completeLinkClusters } from './complete-link.js';
import type { FailureSignature, SignatureScales } from './signature.js';

/**
 * Signatures closer than this (in scaled feature units, see signatureDistance) may share a cluster.
 * Measured on the embedded suite: failures of one mechanism sit 0.7–1.5 apart, different ones 6+.
 */
export const CLUSTER_CUTOFF = 3;
/** Distance between signatures of different first-missing milestones: above any cutoff. */
const APART = 1e6;

export interface FailureCluster {
  readonly id: string;
  readonly first_missing: string | null;
  readonly first_missing_index: number;
  /** Seeds of the member episodes, ascending. */
  readonly seeds: readonly number[];
  readonly medoid_seed: number;
  readonly size: number;
}

/**
 * Same first missing milestone: snapshot difference in units of each feature's scale, divided by
 * the number of features (so ~1 means "typically one scale apart"), plus the divergence time
 * difference in seconds-ish (20 steps) and half a unit when a different feature diverged first.
 */
export function signatureDistance(a: FailureSignature, b: FailureSignature, scales: SignatureScales): number {
  if (a.first_missing_index !== b.first_missing_index) return APART;
  const names = Object.keys(scales);
  let sq = 0;
  for (const n of names) sq += ((a.snapshot[n]! - b.snapshot[n]!) / scales[n]!) ** 2;
  const snapshot = names.length ? Math.sqrt(sq / names.length) : 0;
  const ta = a.divergence_step ?? a.stall_step;
  const tb = b.divergence_step ?? b.stall_step;
  const time = Math.abs(ta - tb) / 20;
  const feature = a.divergence_feature === b.divergence_feature ? 0 : 0.5;
  return snapshot + time + feature;
}

export function clusterFailures(
  signatures: readonly FailureSignature[],
  scales: SignatureScales,
  cutoff = CLUSTER_CUTOFF,
): FailureCluster[] {
  const sorted = [...signatures].sort((a, b) => a.seed - b.seed);
  const clusters = completeLinkClusters(sorted.length, (i, j) => signatureDistance(sorted[i]!, sorted[j]!, scales), cutoff);
  return clusters.map((c, k) => {
    const first = sorted[c.members[0]!]!;
    return {
      id: `c${k + 1}`,
      first_missing: first.first_missing,
      first_missing_index: first.first_missing_index,
      seeds: c.members.map((i) => sorted[i]!.seed),
      medoid_seed: sorted[c.medoid]!.seed,
      size: c.members.length,
    };
  });
}
