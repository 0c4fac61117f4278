// The final stage's seeds: fresh ones, above every seed that chose anything in the run. The
// governance stage's seeds chose the campaigns' tasks, the held-out seeds chose what each campaign
// promoted and the confirmation seeds judged it; a final figure at any of them would rest on seeds
// that chose. The development seeds (far above) are kept clear too.
import { DEV_SEED_BASE, parseSeedList } from '../../evolution/index.js';

export interface SeedsThatChose {
  /** The baseline and governance stages: episodes per task from the first seed. */
  readonly firstSeed: number;
  readonly episodes: number;
  /** The campaigns' held-out and confirmation lists (`1000-1019`). */
  readonly heldout: string;
  readonly confirmation: string;
  /** The campaigns' development episodes per generation, and their generations. */
  readonly devEpisodes: number;
  readonly generations: number;
}

/** The first seed of the final stage: the next multiple of 1000 above every seed that chose. */
export function finalFirstSeed(s: SeedsThatChose, finalEpisodes: number): number {
  const chose = [s.firstSeed + s.episodes - 1, ...parseSeedList(s.heldout), ...parseSeedList(s.confirmation)];
  let first = (Math.floor(Math.max(...chose) / 1000) + 1) * 1000;
  const devEnd = DEV_SEED_BASE + s.devEpisodes * s.generations;
  // a block that would reach into the development seeds starts above them instead
  if (first + finalEpisodes > DEV_SEED_BASE && first < devEnd) first = (Math.floor(devEnd / 1000) + 1) * 1000;
  return first;
}
