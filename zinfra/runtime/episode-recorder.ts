// The episode's recording as a step observer: opens the MCAP file when the episode starts (its
// header from the reset and the env's spec), appends every executed step (state and objects as they
// were when the action was chosen, the action sent, the policy's proposal, the features and the
// critic's decision after the step), and closes the file with the summary, or leaves it a
// `.partial` when the loop stops on a bug. The writing itself is EpisodeWriter's (zinfra/recording).
import type { Env, StepResult } from '../../sim/env.js';
import type { CriticRuntime } from '../../critic/index.js';
import type { EpisodeSummary } from '../recording/episode-record.js';
import { EpisodeWriter } from '../recording/episode-writer.js';
import type { EpisodeStart, LoopStep, StepObserver } from './step-observer.js';

/** Labels written into the recording's header. */
export interface RecordingLabels {
  readonly policy: string;
  readonly critic: string;
}

const NOT_STARTED = new Float32Array(0);

export class EpisodeRecorder implements StepObserver {
  private writer: EpisodeWriter | undefined;
  private env: Env | undefined;
  private critic: CriticRuntime | undefined;
  // The observation's arrays are the env's and change in env.step: onAction copies them for onStep.
  private stateBefore: Float32Array = NOT_STARTED;
  private objectsBefore: Float32Array = NOT_STARTED;

  constructor(
    private readonly path: string,
    private readonly labels: RecordingLabels,
  ) {}

  async onStart({ spec, env, envSpec, reset, critic }: EpisodeStart): Promise<void> {
    this.env = env;
    this.critic = critic;
    this.writer = await EpisodeWriter.create(this.path, {
      episodeId: `${spec.task}#${spec.seed}`,
      task: spec.task,
      suite: envSpec.suite,
      seed: spec.seed,
      resetDigest: reset.info.resetDigest,
      instruction: reset.info.instruction,
      controlHz: envSpec.controlHz,
      perturbation: spec.perturbation ?? null,
      policy: this.labels.policy,
      critic: this.labels.critic,
      featureNames: env.features().names,
      objectNames: envSpec.objects,
    });
  }

  onAction(step: LoopStep): void {
    this.stateBefore = step.observation.state.slice();
    this.objectsBefore = step.observation.objects.slice();
  }

  /** Every array is copied: the writer queues the record and serializes it after later steps ran. */
  onStep(step: LoopStep, result: StepResult): void {
    const { action, source, proposed, fromChunk, reentered } = step.chosen;
    const critic = this.critic;
    this.writer!.append({
      step: step.index,
      state: this.stateBefore,
      objects: this.objectsBefore,
      policyAction: fromChunk ? proposed!.slice() : null,
      action: action.slice(),
      source,
      reward: result.reward,
      milestones: [...result.info.milestones],
      features: this.env!.features().values.slice(),
      ...(critic ? critic.describe(reentered) : {}),
    });
  }

  async onEnd(summary: EpisodeSummary): Promise<void> {
    await this.writer!.close(summary);
  }

  async onAbandon(): Promise<void> {
    await this.writer?.abandon();
  }
}
