// The demonstrations of one task, column by column: per step the policy observation exactly as
// PolicyObservationWriter produced it, the clean expert action (the label) and the executed one;
// per episode its seed, noise, length and outcome. `arrays()` is the npz layout of README.md.
import { ACTION_DIM, STATE_DIM, OBJECT_POSE_DIM } from '../../sim/env.js';
import { POLICY_KEYS, POLICY_OBJECT_SLOTS, POLICY_TASKS, policyTaskIndex } from '../../sim/tabletop/policy-io.js';
import type { Observation as PolicyObservation, NdArray } from '../../protocol/ndarray.js';
import type { NpyArray } from '../build/npz-writer.js';
import { FloatColumn, IntColumn } from './columns.js';
import type { DemoEpisodePlan } from './schedule.js';

/** Written into every file, so a reader can refuse a layout it does not know. */
export const DEMO_FORMAT = 'zetta-demos/1';

export class TaskDemos {
  readonly taskIndex: number;
  private readonly state = new FloatColumn(STATE_DIM);
  private readonly objects = new FloatColumn(POLICY_OBJECT_SLOTS * OBJECT_POSE_DIM);
  private readonly taskOneHot = new FloatColumn(POLICY_TASKS.length);
  private readonly stepInput = new FloatColumn(1);
  private readonly actions = new FloatColumn(ACTION_DIM);
  private readonly executed = new FloatColumn(ACTION_DIM);
  private readonly episode = new IntColumn();
  private readonly step = new IntColumn();
  private readonly episodeSeed = new IntColumn();
  private readonly episodePass = new IntColumn();
  private readonly episodeNoise: number[] = [];
  private readonly episodeStart = new IntColumn();
  private readonly episodeLength = new IntColumn();
  private readonly episodeSuccess = new IntColumn();
  private open: { plan: DemoEpisodePlan; start: number } | undefined;

  constructor(
    readonly task: string,
    readonly prompt: string,
  ) {
    this.taskIndex = policyTaskIndex(task);
  }

  get episodes(): number {
    return this.episodeSeed.length;
  }

  get steps(): number {
    return this.step.length;
  }

  beginEpisode(plan: DemoEpisodePlan): void {
    if (this.open) throw new Error('beginEpisode: the previous episode was not ended');
    this.open = { plan, start: this.steps };
  }

  addStep(obs: PolicyObservation, label: ArrayLike<number>, executed: ArrayLike<number>): void {
    const open = this.open;
    if (!open) throw new Error('addStep outside an episode');
    this.state.push(floats(obs, POLICY_KEYS.state));
    this.objects.push(floats(obs, POLICY_KEYS.objects));
    this.taskOneHot.push(floats(obs, POLICY_KEYS.task));
    this.stepInput.push(floats(obs, POLICY_KEYS.step));
    this.actions.push(label);
    this.executed.push(executed);
    this.episode.push(this.episodes);
    this.step.push(this.steps - open.start);
  }

  /** Keeps the episode's rows, or cuts them off again when `keep` is false. */
  endEpisode(success: boolean, keep: boolean): void {
    const open = this.open;
    if (!open) throw new Error('endEpisode outside an episode');
    this.open = undefined;
    if (!keep) {
      for (const c of [this.state, this.objects, this.taskOneHot, this.stepInput, this.actions, this.executed, this.episode, this.step])
        c.truncate(open.start);
      return;
    }
    this.episodeSeed.push(open.plan.seed);
    this.episodePass.push(open.plan.pass);
    this.episodeNoise.push(open.plan.noiseStd);
    this.episodeStart.push(open.start);
    this.episodeLength.push(this.steps - open.start);
    this.episodeSuccess.push(success ? 1 : 0);
  }

  /** The npz entries, keyed as documented in models/demos/README.md. */
  arrays(): Record<string, NpyArray> {
    const n = this.steps;
    const e = this.episodes;
    const f4 = (c: FloatColumn): NpyArray => ({ kind: 'f4', shape: [n, c.width], data: c.values() });
    const i8 = (c: IntColumn, rows: number): NpyArray => ({ kind: 'i8', shape: [rows], data: c.values() });
    return {
      format: { kind: 'U', shape: [], data: DEMO_FORMAT },
      task: { kind: 'U', shape: [], data: this.task },
      prompt: { kind: 'U', shape: [], data: this.prompt },
      [POLICY_KEYS.state]: f4(this.state),
      [POLICY_KEYS.objects]: f4(this.objects),
      [POLICY_KEYS.task]: f4(this.taskOneHot),
      [POLICY_KEYS.step]: f4(this.stepInput),
      actions: f4(this.actions),
      executed_actions: f4(this.executed),
      episode: i8(this.episode, n),
      step: i8(this.step, n),
      task_index: { kind: 'i8', shape: [n], data: new BigInt64Array(n).fill(BigInt(this.taskIndex)) },
      episode_seed: i8(this.episodeSeed, e),
      episode_pass: i8(this.episodePass, e),
      episode_noise_std: { kind: 'f4', shape: [e], data: Float32Array.from(this.episodeNoise) },
      episode_start: i8(this.episodeStart, e),
      episode_length: i8(this.episodeLength, e),
      episode_success: i8(this.episodeSuccess, e),
    };
  }
}

function floats(obs: PolicyObservation, key: string): Float32Array {
  const v = obs[key] as NdArray | string | undefined;
  if (v === undefined || typeof v === 'string' || !(v.data instanceof Float32Array))
    throw new Error(`policy observation has no float32 '${key}'`);
  return v.data;
}
