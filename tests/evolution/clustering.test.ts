import { describe, expect, it } from 'vitest';
import { clusterFailures, signatureDistance } from '../../evolution/clustering/cluster-failures.js';
import { completeLinkClusters } from '../../evolution/clustering/complete-link.js';
import type { FailureSignature } from '../../evolution/clustering/signature.js';
import { TABLETOP_WORLD } from '../support/tabletop.js';

const SCALES = TABLETOP_WORLD.signature;

function sig(seed: number, missing: number, stall: number, z: number, feature = 'eef_z'): FailureSignature {
  return {
    seed,
    steps: 220,
    first_missing: `m${missing}`,
    first_missing_index: missing,
    stall_step: stall,
    divergence_step: stall,
    divergence_feature: feature,
    snapshot: {
      eef_x: 0,
      eef_y: 0,
      eef_z: z,
      finger_opening: 0.08,
      eef_subject_dist: 0.1,
      subject_lift: 0,
      subject_goal_dist: 0.2,
      grasped: 0,
      milestones_reached: missing,
    },
  };
}

describe('complete-link clustering', () => {
  it('does not chain: points 1 apart in a line stay in tight groups (single link would merge them all)', () => {
    const xs = [0, 1, 2, 3, 4, 5];
    const clusters = completeLinkClusters(xs.length, (i, j) => Math.abs(xs[i]! - xs[j]!), 1.5);
    expect(clusters.every((c) => c.members.length <= 2)).toBe(true);
    expect(clusters.flatMap((c) => c.members).sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('finds well-separated groups and their medoids', () => {
    const xs = [0, 0.2, 0.3, 10, 10.1, 10.5, 10.6];
    const clusters = completeLinkClusters(xs.length, (i, j) => Math.abs(xs[i]! - xs[j]!), 1);
    expect(clusters.map((c) => c.members)).toEqual([
      [3, 4, 5, 6],
      [0, 1, 2],
    ]);
    expect(clusters[1]!.medoid).toBe(1); // 0.2 is closest in total to 0 and 0.3
    expect([4, 5]).toContain(clusters[0]!.medoid);
  });

  it('is independent of input order (ties break on index, not timing)', () => {
    const d = (i: number, j: number) => (Math.abs(i - j) === 1 ? 1 : 5);
    const a = completeLinkClusters(4, d, 1);
    const b = completeLinkClusters(4, d, 1);
    expect(a).toEqual(b);
    expect(a.map((c) => c.members)).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });
});

describe('failure clustering over signatures', () => {
  it('keeps different first-missing milestones apart and groups similar stalls', () => {
    const sigs = [
      sig(5, 1, 40, 0.1),
      sig(3, 1, 42, 0.105),
      sig(9, 1, 41, 0.1),
      sig(4, 3, 120, 0.2),
      sig(8, 3, 118, 0.2),
      sig(7, 1, 200, 0.3, 'grasped'), // same milestone, much later and elsewhere: its own cluster
    ];
    const clusters = clusterFailures(sigs, SCALES);
    expect(clusters.map((c) => c.seeds)).toEqual([[3, 5, 9], [4, 8], [7]]);
    expect(clusters.map((c) => c.first_missing)).toEqual(['m1', 'm3', 'm1']);
    expect(clusters[0]!.medoid_seed).toBe(9); // the middle one
    expect(clusters.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(signatureDistance(sigs[0]!, sigs[3]!, SCALES)).toBeGreaterThan(1e5);
  });

  it('gives the same clusters whatever order the signatures arrive in', () => {
    const sigs = [sig(1, 1, 40, 0.1), sig(2, 1, 43, 0.11), sig(3, 2, 90, 0.2), sig(4, 2, 140, 0.25)];
    expect(clusterFailures([...sigs].reverse(), SCALES)).toEqual(clusterFailures(sigs, SCALES));
  });
});
