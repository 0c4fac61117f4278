// A 2-D point mass that reaches for a goal disc on a plane, sometimes with a wall in the way: a
// world small and different from the tabletop (no gripper, no objects to move, kinematics instead
// of MuJoCo). The action layout is the runtime's (7 numbers); only dx and dy move the mass, 5 cm per
// step at 1. A wall stops the mass where it would cross it. The observation carries the goal as
// its one "object", as a perception module would report it (noisy under `sensor.state_noise_std`).
import { createHash } from 'node:crypto';
import type { Env, EnvSpec, FeatureFrame, Observation, ResetOptions, ResetResult, StepResult } from '../env.js';
import { OBJECT_POSE_DIM, STATE_DIM, STATE_NAMES } from '../env.js';
import { SimInputError } from '../errors.js';
import { Rng } from '../math/rng.js';
import { POINT_MASS_TASKS, type PointMassTask } from './tasks.js';

export const STEP_M = 0.05;
export const CONTROL_HZ = 20;
const HEIGHT = 0.1;
/** Within this of the goal's centre (m) the goal is approached; within REACHED_M it is reached. */
const APPROACHED_M = 0.15;
const REACHED_M = 0.03;

/** The frame's keys; the schema (point-mass-world.ts) names them. */
export const POINT_MASS_FEATURE_KEYS = [
  'x',
  'y',
  'goal_dx',
  'goal_dy',
  'goal_dist',
  'true_goal_dist',
  'wall_contact',
  'milestones_reached',
] as const;
const K = Object.fromEntries(POINT_MASS_FEATURE_KEYS.map((k, i) => [k, i])) as Record<(typeof POINT_MASS_FEATURE_KEYS)[number], number>;

export class PointMassEnv implements Env {
  private task: PointMassTask = POINT_MASS_TASKS[0]!;
  private readonly pos = new Float64Array(2);
  private readonly goal = new Float64Array(2);
  private noise = 0;
  private rng = Rng.derive('point-mass', 0, 'sensor');
  private t = 0;
  private blocked = false;
  private reached: string[] = [];
  private readonly state = new Float32Array(STATE_DIM);
  private readonly objects = new Float32Array(OBJECT_POSE_DIM);
  private readonly frame: FeatureFrame = { names: POINT_MASS_FEATURE_KEYS, values: new Float64Array(POINT_MASS_FEATURE_KEYS.length) };
  private obs: Observation = { state: this.state, objects: this.objects, t: 0, prompt: '' };

  spec(): EnvSpec {
    return {
      task: this.task.id,
      suite: this.task.suite,
      instruction: this.task.instruction,
      actionDim: 7,
      actionScale: { position: STEP_M, rotation: 0 },
      stateDim: STATE_DIM,
      stateNames: STATE_NAMES,
      objects: ['goal'],
      controlHz: CONTROL_HZ,
      maxSteps: this.task.maxSteps,
      milestones: this.task.milestones,
      features: POINT_MASS_FEATURE_KEYS,
    };
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    const task = POINT_MASS_TASKS.find((t) => t.id === options.task);
    if (!task)
      throw new SimInputError(`unknown point-mass task "${options.task}"; known tasks: ${POINT_MASS_TASKS.map((t) => t.id).join(', ')}`);
    this.task = task;
    const layout = Rng.derive(task.id, options.seed, 'layout');
    this.pos.set([layout.uniform(-0.3, -0.2), layout.uniform(-0.1, 0.1)]);
    const shift = options.perturbation?.position?.shift_m;
    const s = shift ? layout.uniform(shift[0], shift[1]) : 0;
    const angle = layout.uniform(0, 2 * Math.PI);
    this.goal.set([layout.uniform(0.2, 0.3) + s * Math.cos(angle), layout.uniform(-0.1, 0.1) + s * Math.sin(angle)]);
    this.noise = options.perturbation?.sensor?.state_noise_std ?? 0;
    this.rng = Rng.derive(task.id, options.seed, 'sensor');
    this.t = 0;
    this.blocked = false;
    this.reached = [];
    this.observeNow();
    const resetDigest = createHash('sha256')
      .update(JSON.stringify({ task: task.id, seed: options.seed, pos: [...this.pos], goal: [...this.goal], noise: this.noise }))
      .digest('hex');
    return { obs: this.obs, info: { resetDigest, instruction: task.instruction } };
  }

  async step(action: ArrayLike<number>): Promise<StepResult> {
    if (action.length !== 7) throw new SimInputError(`action must have 7 numbers, got ${action.length}`);
    const dx = clamp(action[0]!) * STEP_M;
    const dy = clamp(action[1]!) * STEP_M;
    this.move(dx, dy);
    this.t++;
    this.track();
    this.observeNow();
    const success = this.reached.includes('goal.reached');
    return {
      obs: this.obs,
      reward: success ? 1 : 0,
      done: success || this.t >= this.task.maxSteps,
      info: { success, milestones: this.reached },
    };
  }

  observe(): Observation {
    return this.obs;
  }

  features(): FeatureFrame {
    return this.frame;
  }

  async close(): Promise<void> {}

  /** Moves by (dx, dy), stopping short of a wall it would cross. */
  private move(dx: number, dy: number): void {
    const wall = this.task.wall;
    const [x, y] = [this.pos[0]!, this.pos[1]!];
    let nx = x + dx;
    const ny = y + dy;
    this.blocked = false;
    if (wall && (x - wall.x) * (nx - wall.x) <= 0 && dx !== 0 && Math.abs(y + (dy * (wall.x - x)) / dx) <= wall.halfLength) {
      nx = wall.x - Math.sign(dx) * 0.005;
      this.blocked = true;
    }
    this.pos[0] = nx;
    this.pos[1] = ny;
  }

  private track(): void {
    const d = Math.hypot(this.goal[0]! - this.pos[0]!, this.goal[1]! - this.pos[1]!);
    if (d < APPROACHED_M && !this.reached.includes('goal.approached')) this.reached = [...this.reached, 'goal.approached'];
    if (d < REACHED_M && !this.reached.includes('goal.reached')) this.reached = [...this.reached, 'goal.reached'];
  }

  private observeNow(): void {
    const n = () => (this.noise > 0 ? this.noise * this.rng.normal() : 0);
    this.state.fill(0);
    this.state[0] = this.pos[0]!;
    this.state[1] = this.pos[1]!;
    this.state[2] = HEIGHT;
    this.objects.fill(0);
    this.objects[0] = this.goal[0]! + n();
    this.objects[1] = this.goal[1]! + n();
    this.objects[3] = 1;
    this.obs = { state: this.state, objects: this.objects, t: this.t, prompt: this.task.instruction };
    const v = this.frame.values as Float64Array;
    v[K.x] = this.pos[0]!;
    v[K.y] = this.pos[1]!;
    v[K.goal_dx] = this.objects[0]! - this.pos[0]!;
    v[K.goal_dy] = this.objects[1]! - this.pos[1]!;
    v[K.goal_dist] = Math.hypot(v[K.goal_dx]!, v[K.goal_dy]!);
    v[K.true_goal_dist] = Math.hypot(this.goal[0]! - this.pos[0]!, this.goal[1]! - this.pos[1]!);
    v[K.wall_contact] = this.blocked ? 1 : 0;
    v[K.milestones_reached] = this.reached.length;
  }
}

function clamp(a: number): number {
  return Number.isFinite(a) ? Math.max(-1, Math.min(1, a)) : 0;
}
