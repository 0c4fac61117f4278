// What a robot's perception gives the critic on a tabletop task: only observed features, computed
// from the very object poses the policy receives (a perception module's PoseArray) and the
// instruction's goal, exactly as the simulator computes them (observed-features.ts). Nothing
// privileged exists on a robot.
import type { FeatureValues } from '../../protocol/feature-schema.js';
import type { Observation } from '../env.js';
import type { PerceivedFeatures, RobotPerception } from '../world.js';
import { OBSERVED_FEATURE_NAMES, ObservedFeatureWriter, goalSlots } from './observed-features.js';
import { getTask } from './tasks/catalog.js';

class TabletopPerceivedFeatures implements PerceivedFeatures {
  private readonly values = new Float64Array(OBSERVED_FEATURE_NAMES.length).fill(Number.NaN);
  private readonly frame: FeatureValues = { names: OBSERVED_FEATURE_NAMES, values: this.values };
  private writer: ObservedFeatureWriter | null = null;

  begin(taskId: string, objectNames: readonly string[]): void {
    const slots = goalSlots(getTask(taskId), objectNames);
    const missing = slots.objects.some((g) => g.slot < 0) || slots.fixtures.some((s) => s < 0);
    this.values.fill(Number.NaN);
    // Without the goal's objects among the poses, observed features stay NaN (rules reading them never fire).
    this.writer = missing ? null : new ObservedFeatureWriter(slots, this.values, 0);
  }

  update(obs: Observation, objectsSeen: boolean): FeatureValues | null {
    if (!this.writer || !objectsSeen) return null;
    this.writer.write(obs);
    return this.frame;
  }
}

/** The objects and receptacles a task's goal names. */
function goalObjects(taskId: string): string[] {
  const named = new Set<string>();
  for (const p of getTask(taskId).goal) {
    if (p.op === 'In' || p.op === 'On' || p.op === 'Up') {
      named.add(p.object);
      if (p.op !== 'Up') named.add(p.target);
    } else named.add(p.target);
  }
  return [...named];
}

export const tabletopPerception: RobotPerception = {
  goalObjects,
  features: () => new TabletopPerceivedFeatures(),
};
