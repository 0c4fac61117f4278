// The scripted expert: a phase controller over privileged state. It is the demonstration source for
// the base policy and the upper bound in reports. It reads the simulator's truth, never the
// (possibly noisy) observation, and emits actions in the same convention a policy does.
import { ACTION_DIM } from '../../env.js';
import type { Episode } from '../episode.js';
import type { World } from '../world.js';
import type { Stage } from '../tasks/types.js';
import { actionToward, type Target } from './motion.js';
import type { Phase, PhaseContext } from './phase.js';
import { phasesFor } from './skills.js';

/** How often a stage is started over (after a slip or a stuck phase) before the expert moves on. */
const MAX_RETRIES = 3;

export class ScriptedExpert {
  private stage = 0;
  private phase = 0;
  private retries = 0;
  private phases: Phase[];
  private readonly ctx: PhaseContext;
  private readonly target: Target = { x: 0, y: 0, z: 0, yaw: 0, grip: -1, speed: 0 };
  private readonly action = new Float64Array(ACTION_DIM);

  constructor(
    private readonly world: World,
    private readonly stages: readonly Stage[],
  ) {
    this.ctx = { world, stepsInPhase: 0, memory: new Map() };
    this.phases = phasesFor(world, stages[0]!);
  }

  static forEpisode(episode: Episode): ScriptedExpert {
    return new ScriptedExpert(episode.world, episode.plan.task.stages);
  }

  /** Where the expert is, for logs: `stage/phase`. */
  get where(): string {
    return this.stage >= this.stages.length ? 'done' : `${this.stage}:${this.phases[this.phase]!.name}`;
  }

  /** The next action (a buffer reused on every call). */
  act(): Float64Array {
    if (this.stage >= this.stages.length) return this.hold();
    this.advance();
    if (this.stage >= this.stages.length) return this.hold();
    const phase = this.phases[this.phase]!;
    phase.target(this.ctx, this.target);
    actionToward(this.world, this.target, this.action);
    this.ctx.stepsInPhase++;
    return this.action;
  }

  /** Moves through finished phases and stages, or back to a stage's start on failure. */
  private advance(): void {
    for (let guard = 0; guard < 16 && this.stage < this.stages.length; guard++) {
      const phase = this.phases[this.phase]!;
      phase.target(this.ctx, this.target);
      if (phase.failed?.(this.ctx) || this.ctx.stepsInPhase > phase.budget) {
        this.restartStage();
        return;
      }
      if (!phase.done(this.ctx, this.target)) return;
      this.enterPhase(this.phase + 1);
    }
  }

  private enterPhase(k: number): void {
    this.ctx.stepsInPhase = 0;
    if (k < this.phases.length) {
      this.phase = k;
      return;
    }
    this.stage++;
    this.phase = 0;
    this.retries = 0;
    this.ctx.memory.clear();
    if (this.stage < this.stages.length) this.phases = phasesFor(this.world, this.stages[this.stage]!);
  }

  private restartStage(): void {
    this.retries++;
    if (this.retries > MAX_RETRIES) {
      // Give up on this stage; the episode will be scored as it stands.
      this.enterPhase(this.phases.length);
      return;
    }
    this.ctx.stepsInPhase = 0;
    this.ctx.memory.clear();
    this.phase = 0;
  }

  private hold(): Float64Array {
    this.action.fill(0);
    this.action[ACTION_DIM - 1] = this.target.grip;
    return this.action;
  }
}
