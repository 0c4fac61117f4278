// Running the expert: one episode, or many for a success rate.
import type { Perturbation } from '../../perturbation/schema.js';
import type { TabletopEnv } from '../env.js';
import { ScriptedExpert } from './expert.js';

export interface ExpertEpisode {
  readonly task: string;
  readonly seed: number;
  readonly success: boolean;
  readonly steps: number;
  readonly milestones: readonly string[];
  readonly resetDigest: string;
}

export function runExpertEpisode(env: TabletopEnv, task: string, seed: number, perturbation?: Perturbation): ExpertEpisode {
  const reset = env.resetSync({ task, seed, ...(perturbation ? { perturbation } : {}) });
  const expert = ScriptedExpert.forEpisode(env.current);
  const max = env.spec().maxSteps;
  let steps = 0;
  let success = false;
  let milestones: readonly string[] = [];
  while (steps < max) {
    const r = env.stepSync(expert.act());
    steps++;
    milestones = r.info.milestones;
    success = r.info.success;
    if (r.done) break;
  }
  return { task, seed, success, steps, milestones, resetDigest: reset.info.resetDigest };
}

export interface ExpertSummary {
  readonly task: string;
  readonly episodes: number;
  readonly successes: number;
  readonly successRate: number;
  readonly meanSteps: number;
  readonly failedSeeds: readonly number[];
}

export interface EvaluateOptions {
  readonly task: string;
  readonly episodes: number;
  readonly firstSeed?: number;
  readonly perturbation?: Perturbation;
  readonly onEpisode?: (e: ExpertEpisode, index: number) => void;
}

export function evaluateExpert(env: TabletopEnv, o: EvaluateOptions): ExpertSummary {
  const first = o.firstSeed ?? 0;
  let successes = 0;
  let steps = 0;
  const failedSeeds: number[] = [];
  for (let i = 0; i < o.episodes; i++) {
    const e = runExpertEpisode(env, o.task, first + i, o.perturbation);
    if (e.success) successes++;
    else failedSeeds.push(e.seed);
    steps += e.steps;
    o.onEpisode?.(e, i);
  }
  return {
    task: o.task,
    episodes: o.episodes,
    successes,
    successRate: o.episodes === 0 ? 0 : successes / o.episodes,
    meanSteps: o.episodes === 0 ? 0 : steps / o.episodes,
    failedSeeds,
  };
}
