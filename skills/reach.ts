// A skill's reach: the tasks a trial showed it helps on, beyond (or inside) the family it was made
// in. A campaign makes a skill on its own tasks; its guard then offers it to its task family, which
// is both too wide (a missed-grasp retry made on a pick task breaks a button press, where the hand
// closes on nothing by design) and too narrow (the same retry lifts pick tasks of every suite).
// A reach trial runs the task with and without the skill at the same development seeds, under
// each perturbation the trial names, and the skill loads on that task only where it rescued more
// seeds than it broke and its critic-alone arm stayed under the cap. Where a trial ran, its
// verdict decides; elsewhere the family guard does. Pure: the trial's rollouts are reach-trial.ts.

/** Reach trials run at development seeds from here: far above every campaign's (DEV_SEED_BASE plus a few hundred). */
export const REACH_FIRST_SEED = 150_000;

/** One task's trial, as the store keeps it. */
export interface ReachEvidence {
  readonly perturbations: readonly string[];
  readonly seeds: readonly number[];
  /** Successes of the both arm over every (perturbation, seed), without and with the skill. */
  readonly without: number;
  readonly with: number;
  readonly episodes: number;
  /** Paired (perturbation, seed) outcomes: b = only with the skill succeeded, c = only without. */
  readonly b: number;
  readonly c: number;
  /** The best trivial policy's success under the base with the skill, the worst perturbation's. */
  readonly critic_alone: number;
  readonly critic_alone_cap: number;
}

export interface ReachVerdict {
  readonly task: string;
  readonly loads: boolean;
  readonly reason: string;
  readonly evidence: ReachEvidence;
}

/** A skill's latest verdict per task (a task with no trial is absent). */
export type Reach = ReadonlyMap<string, ReachVerdict>;

/** The verdict on one task: it loads where it rescued more than it broke, with its critic alone under the cap. */
export function reachVerdict(task: string, e: ReachEvidence): ReachVerdict {
  const seeds = `${e.b} rescued, ${e.c} broken of ${e.episodes} paired episodes (${e.perturbations.join(', ')})`;
  if (e.critic_alone > e.critic_alone_cap)
    return {
      task,
      loads: false,
      reason: `critic alone ${pct(e.critic_alone)} is over the cap ${pct(e.critic_alone_cap)}; ${seeds}`,
      evidence: e,
    };
  if (e.b <= e.c) return { task, loads: false, reason: `no net rescue: ${seeds}`, evidence: e };
  return { task, loads: true, reason: seeds, evidence: e };
}

function pct(x: number): string {
  return `${(100 * x).toFixed(0)}%`;
}
