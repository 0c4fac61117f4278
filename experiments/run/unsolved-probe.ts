// From scratch: which weak pairs (task, perturbation) the policy alone never solves. The search
// contrasts failures with successes before the point of no return; where the policy never succeeds
// it has nothing to tell them apart by (long/press_button_then_green_on_plate under position-shift,
// 0 of 30 development episodes: none of 39 condition-action pairs rescued a failure, in two full
// runs). Ten governance episodes cannot say which tasks those are: spatial/right_cube_on_plate under
// sensor-noise-delay was 0 of 10 there and 3 of 30 in its campaign's development episodes, where the
// search found the rule that loaded on six other tasks. So every pair the governance stage saw never
// solved is run again, the policy alone, at the development seeds its campaign's first generation
// would use: development seeds, where choices are made.
import { DEV_SEED_BASE } from '../../evolution/index.js';
import { evaluate, type EpisodeExecutor } from '../../measure/evaluation.js';
import { resolvePerturbation } from '../../sim/tabletop/index.js';
import type { GovernanceStageResult } from './governance-stage.js';

export interface UnsolvedProbeOptions {
  /** Episodes per pair: the campaigns' development episodes of a generation. */
  readonly episodes: number;
  readonly workers: number;
  readonly envsPerWorker: number;
  readonly executor?: EpisodeExecutor | undefined;
  readonly log?: (line: string) => void;
}

/** A pair's key in the set `unsolvedPairs` returns. */
export const pairKey = (p: { readonly task: string; readonly perturbation: string }): string => `${p.perturbation} ${p.task}`;

/** The pairs the policy alone solved in none of the governance stage's episodes nor of `episodes` more. */
export async function unsolvedPairs(governance: GovernanceStageResult, o: UnsolvedProbeOptions): Promise<Set<string>> {
  const unsolved = new Set<string>();
  for (const [perturbation, arms] of Object.entries(governance.conditions)) {
    const tasks = Object.entries(arms.perTask)
      .filter(([, t]) => t.policy.value === 0)
      .map(([task]) => task);
    if (tasks.length === 0) continue;
    // one evaluation per perturbation: one rollout pool for all its never-solved tasks
    const probe = await evaluate(
      {
        tasks,
        episodesPerTask: o.episodes,
        firstSeed: DEV_SEED_BASE,
        perturbation: resolvePerturbation(perturbation),
        policy: 'embedded',
        executeSteps: 5,
      },
      { workers: o.workers, envsPerWorker: o.envsPerWorker, executor: o.executor },
    );
    for (const task of tasks) {
      const { successes } = probe.tasks[task]!;
      o.log?.(
        `${task} under ${perturbation}: policy alone 0 of ${arms.seeds.length} in governance, ${successes} of ${o.episodes} at development seeds`,
      );
      if (successes === 0) unsolved.add(pairKey({ task, perturbation }));
    }
  }
  return unsolved;
}
