// One episode of the embedded tabletop: a compiled scene, its physics state, and the per-step work
// (delay, disturbance, action, substeps, latches, goal, milestones, observation, features).
// Everything the step path touches is allocated here, once.
import type { MainModule, MjData, MjModel } from 'mujoco-js';
import type { Observation, StepResult } from '../env.js';
import { SimPhysicsError } from '../errors.js';
import { Rng } from '../math/rng.js';
import { compileModel } from './mujoco.js';
import { sceneXml } from './scene/model.js';
import { compileMilestones, type MilestoneDef } from './tasks/milestones.js';
import { compilePredicate, type Check } from './tasks/predicates.js';
import { SUITE_MAX_STEPS } from './tasks/types.js';
import { ActionApplier } from './action.js';
import { ActionDelay } from './delay.js';
import { resetDigest } from './digest.js';
import { applyDisturbance } from './disturbance.js';
import { FeatureWriter, OBSERVED_OFFSET } from './features.js';
import { mainObject } from './layout.js';
import { ObservationWriter } from './observation.js';
import { ObservedFeatureWriter, goalSlots } from './observed-features.js';
import type { EpisodePlan } from './plan.js';
import { World } from './world.js';

export const CONTROL_HZ = 20;
/** 25 × 2 ms = one 20 Hz control period. */
export const SUBSTEPS = 25;
/** Physics steps run at reset so objects settle on the table before the first observation. */
const SETTLE_STEPS = 50;

export class Episode {
  readonly world: World;
  readonly digest: string;
  readonly maxSteps: number;
  readonly objectNames: readonly string[];
  private t = 0;
  private reached: readonly string[] = [];
  private disturbed = false;
  private readonly milestones: MilestoneDef[];
  private readonly goal: Check[];
  private readonly delay: ActionDelay;
  private readonly applier = new ActionApplier();
  private readonly observation: ObservationWriter;
  private readonly featureWriter: FeatureWriter;
  private readonly observedWriter: ObservedFeatureWriter;
  private readonly result: { obs: Observation; reward: number; done: boolean; info: { success: boolean; milestones: readonly string[] } };

  constructor(
    private readonly mj: MainModule,
    readonly plan: EpisodePlan,
  ) {
    const xml = sceneXml(plan.scene);
    const model: MjModel = compileModel(mj, xml);
    const data: MjData = new mj.MjData(model);
    try {
      this.world = new World(mj, model, data, plan.scene);
    } catch (err) {
      // Free the WebAssembly memory of a scene we cannot use.
      data.delete();
      model.delete();
      throw err;
    }
    const task = plan.task;
    this.maxSteps = SUITE_MAX_STEPS[task.suite];
    this.objectNames = [...task.movables.map((m) => m.name), ...task.fixtures.map((f) => f.name)];
    this.milestones = compileMilestones(this.world, task.stages);
    this.goal = task.goal.map((p) => compilePredicate(this.world, p));
    this.delay = new ActionDelay(plan.sampled.sensor.actionDelay);
    const noise = Rng.derive(task.id, plan.seed, 'noise');
    this.observation = new ObservationWriter(this.world, this.objectNames, task.instruction, plan.sampled.sensor.stateNoiseStd, noise);
    this.featureWriter = new FeatureWriter(this.world, task.stages);
    this.observedWriter = new ObservedFeatureWriter(goalSlots(task, this.objectNames), this.featureWriter.frame.values, OBSERVED_OFFSET);
    this.settle();
    this.digest = resetDigest(plan, xml, this.world.qpos, this.world.qvel);
    this.applier.init(this.world);
    const success = this.evaluate();
    this.result = { obs: this.observation.write(0), reward: 0, done: false, info: { success, milestones: this.reached } };
    this.observedWriter.write(this.result.obs);
  }

  get obs(): Observation {
    return this.result.obs;
  }

  features(): FeatureWriter['frame'] {
    return this.featureWriter.frame;
  }

  /** One 20 Hz control step. The action must already be validated. The result object is reused. */
  step(action: ArrayLike<number>): StepResult {
    const w = this.world;
    // Another simulator in this thread may have grown the shared WebAssembly memory since our last
    // step, which empties every view we hold: fetch them again before touching state.
    w.refresh();
    const executed = this.delay.push(action);
    this.maybeDisturb();
    this.applier.apply(w, executed);
    for (let i = 0; i < SUBSTEPS; i++) this.mj.mj_step(w.model, w.data);
    w.refresh();
    this.checkFinite();
    w.updateLatches();
    this.t++;
    const success = this.evaluate();
    const r = this.result;
    r.obs = this.observation.write(this.t);
    this.observedWriter.write(r.obs);
    r.reward = success ? 1 : 0;
    r.done = success || this.t >= this.maxSteps;
    r.info.success = success;
    r.info.milestones = this.reached;
    return r;
  }

  close(): void {
    this.world.data.delete();
    this.world.model.delete();
  }

  private settle(): void {
    const w = this.world;
    w.ctrl[0] = w.ctrl[1] = 0.04;
    for (let i = 0; i < SETTLE_STEPS; i++) this.mj.mj_step(w.model, w.data);
    w.refresh();
  }

  /** Updates milestones (latched, in order) and features; returns whether the goal holds. */
  private evaluate(): boolean {
    let met = 0;
    for (const g of this.goal) if (g()) met++;
    const success = met === this.goal.length;
    let n = this.reached.length;
    while (n < this.milestones.length && this.milestones[n]!.check()) n++;
    // A new array only when something changed, so arrays handed out earlier stay valid snapshots.
    if (n !== this.reached.length) this.reached = this.milestones.slice(0, n).map((m) => m.name);
    const stage = n < this.milestones.length ? this.milestones[n]!.stage : this.plan.task.stages.length - 1;
    this.featureWriter.write({
      t: this.t,
      stage,
      milestonesReached: n,
      milestonesTotal: this.milestones.length,
      goalProgress: this.goal.length === 0 ? 1 : met / this.goal.length,
      success,
      disturbed: this.disturbed,
    });
    return success;
  }

  private maybeDisturb(): void {
    const d = this.plan.sampled.disturbance;
    if (d === null || this.disturbed || this.t !== d.step) return;
    const name = mainObject(this.plan.task);
    if (name === undefined) return;
    this.disturbed = applyDisturbance(this.mj, this.world, this.world.movable(name), d);
  }

  private checkFinite(): void {
    const q = this.world.qpos;
    for (let i = 0; i < q.length; i++) {
      if (!Number.isFinite(q[i]!))
        throw new SimPhysicsError(`physics diverged at step ${this.t} of ${this.plan.task.id} seed ${this.plan.seed}`);
    }
  }
}
