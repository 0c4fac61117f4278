// Complete-link agglomerative clustering: repeatedly merge the two clusters whose *farthest* members
// are closest, until every remaining pair is farther apart than the cutoff. Complete link keeps
// clusters tight (every member within the cutoff of every other), which is what "one mechanism per
// cluster" needs; single link would chain different failures together. O(n³), fine for a batch of
// failed episodes. Ties break on the lowest member index, so the result never depends on timing.

export interface Cluster {
  /** Indices into the input, ascending. */
  readonly members: readonly number[];
  /** The member with the smallest total distance to the others (ties: the lowest index). */
  readonly medoid: number;
}

export function completeLinkClusters(n: number, distance: (i: number, j: number) => number, cutoff: number): Cluster[] {
  const d = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => (i === j ? 0 : distance(Math.min(i, j), Math.max(i, j)))),
  );
  let clusters: number[][] = Array.from({ length: n }, (_, i) => [i]);
  for (;;) {
    let best: [number, number] | null = null;
    let bestD = Infinity;
    for (let a = 0; a < clusters.length; a++) {
      for (let b = a + 1; b < clusters.length; b++) {
        const link = linkage(d, clusters[a]!, clusters[b]!);
        if (link <= cutoff && link < bestD) {
          bestD = link;
          best = [a, b];
        }
      }
    }
    if (!best) break;
    const [a, b] = best;
    const merged = [...clusters[a]!, ...clusters[b]!].sort((x, y) => x - y);
    clusters = clusters.filter((_, k) => k !== a && k !== b);
    clusters.push(merged);
    clusters.sort((x, y) => x[0]! - y[0]!);
  }
  return clusters
    .map((members) => ({ members, medoid: medoid(d, members) }))
    .sort((x, y) => y.members.length - x.members.length || x.members[0]! - y.members[0]!);
}

function linkage(d: number[][], a: readonly number[], b: readonly number[]): number {
  let worst = 0;
  for (const i of a) for (const j of b) worst = Math.max(worst, d[i]![j]!);
  return worst;
}

function medoid(d: number[][], members: readonly number[]): number {
  let best = members[0]!;
  let bestSum = Infinity;
  for (const i of members) {
    let sum = 0;
    for (const j of members) sum += d[i]![j]!;
    if (sum < bestSum) {
      bestSum = sum;
      best = i;
    }
  }
  return best;
}
