// RemoteEnv: the Env contract over the env wire (README.md beside this file), to a server that runs
// any simulator (LIBERO, RoboCasa, anyone's). The observation map is kept whole for the policy; the
// 8-D robot state the critic reads is `observation/state` (or `state`) when the server sends one.
import type { Env, EnvSpec, FeatureFrame, Observation, ResetOptions, ResetResult, StepResult } from '../env.js';
import { ACTION_DIM, STATE_DIM, STATE_NAMES } from '../env.js';
import { SimInputError } from '../errors.js';
import type { RemoteEnvEndpoint } from './endpoint.js';
import { EnvSocket } from './env-socket.js';
import {
  checkFeatures,
  checkObservation,
  parseCloseReply,
  parseResetReply,
  parseSpecReply,
  parseStepReply,
  type WireEnvSpec,
  type WireObservation,
} from './env-wire.js';
import { findTask, remoteTasks, type WireTask } from './remote-tasks.js';

/** LIBERO's scale: what an action of 1 means, in metres and radians per step. */
export const REMOTE_ACTION_SCALE = { position: 0.05, rotation: 0.5 } as const;

/** The keys, in order of preference, whose 8 numbers are the robot state. */
const STATE_KEYS = ['observation/state', 'state'];
const CLOSE_TIMEOUT_MS = 2_000;

/** The env's observation plus the server's map, which goes to the policy unchanged. */
export interface RemoteObservation extends Observation {
  readonly map: WireObservation;
}

/** Asks the server for its spec: the first thing a client does, and the check that it is there. */
export async function fetchSpec(endpoint: RemoteEnvEndpoint): Promise<WireEnvSpec> {
  const socket = new EnvSocket(endpoint);
  try {
    return parseSpecReply(await socket.request('spec', {}, endpoint.timeoutMs));
  } finally {
    socket.close();
  }
}

export class RemoteEnv implements Env {
  private readonly socket: EnvSocket;
  private readonly tasks: readonly WireTask[];
  private readonly stateKey: string | undefined;
  private readonly state = new Float32Array(STATE_DIM);
  private readonly objects = new Float32Array(0);
  private readonly action = new Float32Array(ACTION_DIM);
  private readonly frame: FeatureFrame;
  private task: WireTask | undefined;
  private instruction = '';
  private obs: RemoteObservation = { state: this.state, objects: this.objects, t: 0, prompt: '', map: {} };
  private t = 0;

  constructor(
    private readonly endpoint: RemoteEnvEndpoint,
    private readonly wire: WireEnvSpec,
  ) {
    this.socket = new EnvSocket(endpoint);
    this.tasks = remoteTasks(wire);
    this.stateKey = STATE_KEYS.find((k) => {
      const o = wire.observation[k];
      return o !== undefined && o.shape.reduce((a, b) => a * b, 1) === STATE_DIM && (o.dtype === '<f4' || o.dtype === '<f8');
    });
    const names = wire.features.map((f) => f.name);
    this.frame = { names, values: new Float64Array(names.length).fill(Number.NaN) };
  }

  spec(): EnvSpec {
    const task = this.task;
    if (!task) throw new SimInputError('RemoteEnv.spec() is valid after the first reset');
    return {
      task: task.id,
      suite: task.suite,
      instruction: this.instruction,
      actionDim: ACTION_DIM,
      actionScale: REMOTE_ACTION_SCALE,
      stateDim: STATE_DIM,
      stateNames: STATE_NAMES,
      objects: [],
      controlHz: this.wire.control_hz,
      maxSteps: task.maxSteps,
      milestones: [],
      features: this.frame.names,
    };
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    const task = findTask(this.tasks, options.task, this.wire.name);
    const request = { suite: task.suite, task: task.wireTask, seed: options.seed, perturbation: options.perturbation ?? null };
    const reply = parseResetReply(await this.socket.request('reset', request, this.endpoint.resetTimeoutMs));
    checkObservation('reset', reply.obs, this.wire.observation);
    this.task = task;
    this.instruction = reply.info.instruction;
    this.t = 0;
    (this.frame.values as Float64Array).fill(Number.NaN);
    this.observeNow(reply.obs);
    return { obs: this.obs, info: { resetDigest: reply.info.reset_digest, instruction: reply.info.instruction } };
  }

  async step(action: ArrayLike<number>): Promise<StepResult> {
    if (!this.task) throw new SimInputError('RemoteEnv.step() before reset()');
    if (action.length !== ACTION_DIM) throw new SimInputError(`action must have ${ACTION_DIM} numbers, got ${action.length}`);
    for (let i = 0; i < ACTION_DIM; i++) {
      const a = action[i]!;
      if (typeof a !== 'number' || !Number.isFinite(a)) throw new SimInputError(`action[${i}] is not a finite number (${String(a)})`);
      this.action[i] = a;
    }
    const frame = { __ndarray__: true, data: new Uint8Array(this.action.buffer.slice(0)), dtype: '<f4', shape: [ACTION_DIM] };
    const reply = parseStepReply(await this.socket.request('step', { action: frame }, this.endpoint.timeoutMs));
    checkObservation('step', reply.obs, this.wire.observation);
    checkFeatures(reply.info.features, this.wire.features);
    this.t++;
    this.observeNow(reply.obs);
    this.readFeatures(reply.info.features);
    return { obs: this.obs, reward: reply.reward, done: reply.done, info: { success: reply.info.success, milestones: [] } };
  }

  observe(): Observation {
    return this.obs;
  }

  features(): FeatureFrame {
    return this.frame;
  }

  /** Tells the server the session is over; a server that is already gone is not an error here. */
  async close(): Promise<void> {
    try {
      parseCloseReply(await this.socket.request('close', {}, Math.min(CLOSE_TIMEOUT_MS, this.endpoint.timeoutMs)));
    } catch {
      // closing: nothing left to do with a server that cannot hear us
    } finally {
      this.socket.close();
    }
  }

  private observeNow(map: WireObservation): void {
    const raw = this.stateKey === undefined ? undefined : map[this.stateKey];
    if (raw !== undefined && typeof raw !== 'string') for (let i = 0; i < STATE_DIM; i++) this.state[i] = Number(raw.data[i]);
    else this.state.fill(0);
    // The policy gets the instruction as openpi's `prompt` unless the server set one itself.
    if (map.prompt === undefined) map.prompt = this.instruction;
    this.obs = { state: this.state, objects: this.objects, t: this.t, prompt: this.instruction, map };
  }

  private readFeatures(values: Record<string, number | boolean>): void {
    const names = this.frame.names;
    const v = this.frame.values as Float64Array;
    for (let i = 0; i < names.length; i++) {
      const x = values[names[i]!];
      v[i] = typeof x === 'boolean' ? (x ? 1 : 0) : typeof x === 'number' ? x : Number.NaN;
    }
  }
}
