// Which scenes demonstrations come from. LIBERO fixes 50 initial states per task and collects its
// demonstrations there; we do the same with seeds 0..49 of the nominal scene distribution. Held-out
// evaluation uses seeds ≥ HELD_OUT_SEED_MIN, so no evaluated scene was ever seen in training.

/** Initial states (seeds 0..49) per task by default, as in LIBERO. */
export const INITIAL_STATES_PER_TASK = 50;
/** Evaluation seeds start here; every training seed stays below it. */
export const HELD_OUT_SEED_MIN = 1000;

export interface DemoEpisodePlan {
  /** Position of the episode in the task's schedule (0-based). */
  readonly index: number;
  readonly seed: number;
  /** How many times this initial state was visited before: 0 is the clean pass. */
  readonly pass: number;
  /** Standard deviation of the execution noise (0: the expert's own action is executed). */
  readonly noiseStd: number;
}

/**
 * Checks a number of initial states per task: an integer ≥ 1 whose seeds 0..n-1 all stay below
 * HELD_OUT_SEED_MIN, so no training scene is ever an evaluation scene.
 */
export function checkInitialStates(initialStates: number): number {
  if (!Number.isInteger(initialStates) || initialStates < 1)
    throw new RangeError(`initial states must be an integer ≥ 1, got ${initialStates}`);
  if (initialStates > HELD_OUT_SEED_MIN) {
    throw new RangeError(
      `${initialStates} initial states would use seeds 0..${initialStates - 1}, reaching the held-out evaluation seeds (≥ ${HELD_OUT_SEED_MIN}); at most ${HELD_OUT_SEED_MIN}`,
    );
  }
  return initialStates;
}

/**
 * Episode i uses initial state i mod `initialStates` (default 50). The first visit of each initial state is executed clean;
 * later visits execute the expert's action plus noise, so the data also shows how the expert
 * recovers from small deviations (DART), while the labels stay the clean expert actions.
 */
export function demoSchedule(episodes: number, noiseStd: number, initialStates: number = INITIAL_STATES_PER_TASK): DemoEpisodePlan[] {
  if (!Number.isInteger(episodes) || episodes < 1) throw new RangeError(`episodes must be an integer ≥ 1, got ${episodes}`);
  if (!(noiseStd >= 0)) throw new RangeError(`noise std must be ≥ 0, got ${noiseStd}`);
  checkInitialStates(initialStates);
  const plans: DemoEpisodePlan[] = [];
  for (let index = 0; index < episodes; index++) {
    const seed = index % initialStates;
    const pass = Math.floor(index / initialStates);
    plans.push({ index, seed, pass, noiseStd: pass === 0 ? 0 : noiseStd });
  }
  return plans;
}
