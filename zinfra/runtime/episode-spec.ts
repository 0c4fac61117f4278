// Which episode to run: the task, the seed that fixes its scene, and the perturbation applied to it.
// Its own module so the loop (run-episode.ts) and its observers (step-observer.ts) share it without
// importing each other.
import type { Perturbation } from '../../sim/perturbation/schema.js';

export interface EpisodeSpec {
  readonly task: string;
  readonly seed: number;
  readonly perturbation?: Perturbation | undefined;
}
