// Seeds: held-out seeds come from the command line; development seeds are derived, one contiguous
// block per generation, far from the usual held-out ranges. Disjointness is checked here, in code,
// every time a seed list is built or loaded: a held-out seed in a development rollout would let the
// campaign fit its candidates to the very episodes that judge them.

/** First development seed; generation g uses [DEV_SEED_BASE + (g−1)·n, DEV_SEED_BASE + g·n). */
export const DEV_SEED_BASE = 100_000;

export class SeedOverlapError extends Error {
  override readonly name = 'SeedOverlapError';
}

export class SeedSyntaxError extends Error {
  override readonly name = 'SeedSyntaxError';
}

/**
 * A campaign over several tasks runs every seed list on each task, and names an episode by its key:
 * task index × TASK_STRIDE + seed. Task 0's keys are its seeds, so a one-task campaign's artifacts are
 * what they always were. Seeds must stay below the stride.
 */
export const TASK_STRIDE = 10_000_000;

/** Every task's keys for these seeds, task by task. */
export function episodeKeys(taskCount: number, seeds: readonly number[]): number[] {
  if (taskCount > 1) {
    const big = seeds.find((s) => s >= TASK_STRIDE);
    if (big !== undefined) throw new SeedSyntaxError(`seed ${big}: a campaign over several tasks takes seeds below ${TASK_STRIDE}`);
  }
  return Array.from({ length: taskCount }, (_, i) => seeds.map((s) => episodeKey(i, s))).flat();
}

/** The key of task `taskIndex`'s episode at `seed` (the seed itself for task 0). */
export function episodeKey(taskIndex: number, seed: number): number {
  return taskIndex * TASK_STRIDE + seed;
}

/** The task index and seed an episode key names. */
export function keyParts(key: number, taskCount: number): { readonly task: number; readonly seed: number } {
  return taskCount > 1 ? { task: Math.floor(key / TASK_STRIDE), seed: key % TASK_STRIDE } : { task: 0, seed: key };
}

/** "1-20", "3,5,9-12" → sorted, unique, non-negative integers. */
export function parseSeedList(text: string): number[] {
  const seeds = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new SeedSyntaxError(`seed list "${text}": "${part}" is not N or A-B`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    // past 2^53 s + 1 === s and the range below would never end
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) throw new SeedSyntaxError(`seed list "${text}": "${part}" is too large`);
    if (b < a) throw new SeedSyntaxError(`seed list "${text}": range ${part} is backwards`);
    if (b - a > 100_000) throw new SeedSyntaxError(`seed list "${text}": range ${part} is too long`);
    for (let s = a; s <= b; s++) seeds.add(s);
  }
  return [...seeds].sort((x, y) => x - y);
}

export function devSeedsFor(generation: number, episodes: number, base = DEV_SEED_BASE): number[] {
  const first = base + (generation - 1) * episodes;
  return Array.from({ length: episodes }, (_, i) => first + i);
}

/** Throws SeedOverlapError naming the shared seeds. */
export function assertDisjoint(dev: readonly number[], heldout: readonly number[]): void {
  const held = new Set(heldout);
  const shared = dev.filter((s) => held.has(s));
  if (shared.length) {
    throw new SeedOverlapError(
      `seed sets that must be disjoint overlap (development, held-out, confirmation): ${shared.slice(0, 10).join(', ')}${shared.length > 10 ? ', …' : ''}`,
    );
  }
}

/** Groups sorted seeds into contiguous runs [first, count] (the evaluator takes first + i). */
export function contiguousRuns(seeds: readonly number[]): Array<{ first: number; count: number }> {
  const runs: Array<{ first: number; count: number }> = [];
  for (const s of [...seeds].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && last.first + last.count === s) last.count++;
    else runs.push({ first: s, count: 1 });
  }
  return runs;
}
