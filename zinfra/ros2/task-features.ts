// What the critic may read on a robot: only observed features. For a task of the embedded catalog,
// the observed features (sim/tabletop/observed-features.ts) are computed from the very object poses
// the policy receives (a perception module's PoseArray) and the instruction's goal, exactly as the
// simulator computes them; nothing privileged exists here.
import { getTask } from '../../sim/tasks/catalog.js';
import { OBSERVED_FEATURE_NAMES, ObservedFeatureWriter, goalSlots } from '../../sim/tabletop/observed-features.js';
import { TABLETOP_FEATURES } from '../../sim/tabletop/feature-schema.js';
import type { Observation } from '../../sim/env.js';
import type { FeatureSchema, FeatureValues } from '../protocol/feature-schema.js';

/** The robot's feature schema: the tabletop's observed features, none of its privileged ones. */
export const ROBOT_FEATURES: FeatureSchema = Object.freeze({
  world: 'ros2',
  features: Object.freeze(TABLETOP_FEATURES.features.filter((f) => f.provenance === 'observed')),
});

export class TaskFeatures {
  readonly frame: FeatureValues;
  private readonly values = new Float64Array(OBSERVED_FEATURE_NAMES.length).fill(Number.NaN);
  private writer: ObservedFeatureWriter | null = null;

  constructor() {
    this.frame = { names: OBSERVED_FEATURE_NAMES, values: this.values };
  }

  /** Episode start: which objects the poses are, so the goal's object and receptacle are found. */
  begin(taskId: string, objectNames: readonly string[]): void {
    const task = getTask(taskId);
    const slots = goalSlots(task, objectNames);
    const missing = slots.objects.some((g) => g.slot < 0) || slots.fixtures.some((s) => s < 0);
    this.values.fill(Number.NaN);
    // Without the goal's objects among the poses, observed features stay NaN (rules reading them never fire).
    this.writer = missing ? null : new ObservedFeatureWriter(slots, this.values, 0);
  }

  /** This step's features from this step's observation; null before any object pose arrived. */
  update(obs: Observation, objectsSeen: boolean): FeatureValues | null {
    if (!this.writer || !objectsSeen) return null;
    this.writer.write(obs);
    return this.frame;
  }
}

/** The objects the task's goal names that are not among `objectNames` (what the PoseArray carries). */
export function goalObjectsMissing(taskId: string, objectNames: readonly string[]): string[] {
  const missing = new Set<string>();
  for (const p of getTask(taskId).goal) {
    if (p.op === 'In' || p.op === 'On' || p.op === 'Up') {
      if (!objectNames.includes(p.object)) missing.add(p.object);
      if (p.op !== 'Up' && !objectNames.includes(p.target)) missing.add(p.target);
    } else if (!objectNames.includes(p.target)) missing.add(p.target);
  }
  return [...missing];
}
