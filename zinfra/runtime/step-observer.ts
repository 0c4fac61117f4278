// What watches the control loop without steering it: the episode's recording, its tallies, and any
// other per-step bookkeeping. The loop (run-episode.ts) calls every registered observer at the same
// points of every step and knows nothing of what they keep, so it reads as observe → choose → step.
//
// The step hooks run on the hot path, every control period: the loop hands each hook the same
// objects every step (one LoopStep per episode, overwritten; the env's own StepResult), so calling
// them allocates nothing. An observer that keeps a value past its hook copies it.
import type { Env, EnvSpec, Observation as EnvObservation, ResetResult, StepResult } from '../../sim/env.js';
import type { CriticRuntime } from '../../critic/index.js';
import type { EpisodeSummary } from '../recording/episode-record.js';
import type { Chosen } from './choose-action.js';
import type { EpisodeSpec } from './episode-spec.js';

/** The episode as it starts: reset done, the critic about to be reset, no step taken. */
export interface EpisodeStart {
  readonly spec: EpisodeSpec;
  readonly env: Env;
  readonly envSpec: EnvSpec;
  readonly reset: ResetResult;
  /** The runtime critic governing the episode, if any (its decisions are readable after each step). */
  readonly critic: CriticRuntime | undefined;
}

/** One control step as the observers see it; one object per episode, overwritten every step. */
export interface LoopStep {
  /** Steps taken before this one (0 for the first). */
  index: number;
  /**
   * The observation the action was chosen from. Its arrays belong to the env, which overwrites
   * them in env.step: an observer that keeps them copies them in onAction.
   */
  observation: EnvObservation;
  /** What the step executes (choose-action.ts); its arrays are overwritten by the next step. */
  readonly chosen: Chosen;
}

export interface StepObserver {
  /** Once, before the first step. The loop waits for it (a recording opens its file here). */
  onStart?(start: EpisodeStart): Promise<void> | void;
  /** The action is chosen and env.step not yet called: the observation still holds this step's values. */
  onAction?(step: LoopStep): void;
  /** env.step returned `result` for this step's action. */
  onStep(step: LoopStep, result: StepResult): void;
  /** Once, after the last step, with the episode's summary; the outcome waits for it. */
  onEnd?(summary: EpisodeSummary): Promise<void> | void;
  /** The loop stopped on a bug (the error is rethrown): no summary will come. */
  onAbandon?(): Promise<void> | void;
}
