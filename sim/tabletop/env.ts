// The embedded simulator behind the Env contract: a MuJoCo (WebAssembly) tabletop suite.
import type { MainModule } from 'mujoco-js';
import {
  ACTION_DIM,
  STATE_DIM,
  STATE_NAMES,
  type EnvSpec,
  type FeatureFrame,
  type Observation,
  type ResetOptions,
  type ResetResult,
  type StepResult,
  type SyncEnv,
} from '../env.js';
import { SimInputError } from '../errors.js';
import type { SceneGeometry, SceneSolid } from '../scene-geometry.js';
import { mujoco } from './mujoco.js';
import { parsePerturbation } from '../perturbation/load.js';
import { NOMINAL } from '../perturbation/schema.js';
import { getTask } from './tasks/catalog.js';
import { milestoneNames } from './tasks/milestones.js';
import { POSITION_SCALE, ROTATION_SCALE, validateAction } from './action.js';
import { CONTROL_HZ, Episode } from './episode.js';
import { FEATURE_NAMES } from './features.js';
import { planEpisode } from './plan.js';
import { SceneSolidReader } from './scene-solids.js';

export class TabletopEnv implements SyncEnv, SceneGeometry {
  private episode: Episode | undefined;
  /** Made on the first sceneSolids() of an episode: episodes nobody draws pay nothing. */
  private solids: { readonly episode: Episode; readonly reader: SceneSolidReader } | undefined;
  private currentSpec: EnvSpec | undefined;
  private closed = false;

  private constructor(private readonly mj: MainModule) {}

  /** Loads MuJoCo (once per process) and returns an env with no episode yet: call reset. */
  static async create(): Promise<TabletopEnv> {
    return new TabletopEnv(await mujoco());
  }

  spec(): EnvSpec {
    if (this.currentSpec === undefined) throw new SimInputError('spec() is defined once reset() has chosen a task');
    return this.currentSpec;
  }

  resetSync(options: ResetOptions): ResetResult {
    if (this.closed) throw new SimInputError('env is closed');
    const task = getTask(String(options?.task));
    const seed = options.seed;
    if (!Number.isSafeInteger(seed) || seed < 0) throw new SimInputError(`seed must be a non-negative integer, got ${String(seed)}`);
    // Re-validate: a JavaScript caller may hand us anything, and a bad range must never reach physics.
    const perturbation = options.perturbation === undefined ? NOMINAL : parsePerturbation(options.perturbation);
    const plan = planEpisode(task, seed, perturbation);
    this.episode?.close();
    this.episode = undefined;
    this.solids = undefined;
    const episode = new Episode(this.mj, plan);
    this.episode = episode;
    this.currentSpec = {
      task: task.id,
      suite: task.suite,
      instruction: task.instruction,
      actionDim: ACTION_DIM,
      actionScale: { position: POSITION_SCALE, rotation: ROTATION_SCALE },
      stateDim: STATE_DIM,
      stateNames: STATE_NAMES,
      objects: episode.objectNames,
      controlHz: CONTROL_HZ,
      maxSteps: episode.maxSteps,
      milestones: milestoneNames(task.stages),
      features: FEATURE_NAMES,
    };
    return { obs: episode.obs, info: { resetDigest: episode.digest, instruction: task.instruction } };
  }

  stepSync(action: ArrayLike<number>): StepResult {
    const episode = this.active();
    validateAction(action);
    return episode.step(action);
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    return this.resetSync(options);
  }

  async step(action: ArrayLike<number>): Promise<StepResult> {
    return this.stepSync(action);
  }

  observe(): Observation {
    return this.active().obs;
  }

  features(): FeatureFrame {
    return this.active().features();
  }

  sceneSolids(): readonly SceneSolid[] {
    const episode = this.active();
    if (this.solids?.episode !== episode) this.solids = { episode, reader: new SceneSolidReader(this.mj, episode.world) };
    return this.solids.reader.read();
  }

  /** The live episode, for privileged consumers in this package (the scripted expert). */
  get current(): Episode {
    return this.active();
  }

  async close(): Promise<void> {
    this.closeSync();
  }

  closeSync(): void {
    this.episode?.close();
    this.episode = undefined;
    this.solids = undefined;
    this.closed = true;
  }

  private active(): Episode {
    if (this.closed) throw new SimInputError('env is closed');
    if (this.episode === undefined) throw new SimInputError('call reset() before step() or features()');
    return this.episode;
  }
}
