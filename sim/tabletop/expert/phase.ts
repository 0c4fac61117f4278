// A stage is scripted as a list of phases; each sets a target for the hand and says when it is
// done. A phase that notices failure (the object slipped out) sends the stage back to its start.
import type { World } from '../world.js';
import type { Target } from './motion.js';

export interface PhaseContext {
  readonly world: World;
  /** Steps spent in the current phase so far. */
  stepsInPhase: number;
  /** Values a phase hands to later ones (the grasp yaw, the object's offset in the hand, ...). */
  readonly memory: Map<string, number>;
}

export interface Phase {
  readonly name: string;
  /** Steps after which the stage is retried from its first phase. */
  readonly budget: number;
  target(ctx: PhaseContext, t: Target): void;
  done(ctx: PhaseContext, t: Target): boolean;
  failed?(ctx: PhaseContext): boolean;
}

export function remember(ctx: PhaseContext, key: string, value: number): number {
  ctx.memory.set(key, value);
  return value;
}

export function recall(ctx: PhaseContext, key: string, fallback: number): number {
  return ctx.memory.get(key) ?? fallback;
}
