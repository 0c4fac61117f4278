// Simulated time (`use_sim_time: true`): the node's clock is the simulator's /clock, and the node
// ticks once per simulated period in lockstep with the robot — when /clock has moved to a time t and
// the robot's state stamped t (pose, fingers, objects) has arrived, whatever order DDS delivered
// them in. The tick waits for its chunk (lockstep timing), and the command it publishes carries t,
// so the robot steps on it and publishes t + period. /clock going back in time is a new episode
// (as ROS 2 nodes treat a time jump back): the episode ends and another begins, the bag with it.
import type { NodeClock } from './clock.js';
import type { RosGraph } from './graph.js';
import { CLOCK_TOPIC, CLOCK_TYPE, type ClockMessage, msOf } from './messages.js';
import type { LoopHandle } from './node-loop.js';
import type { Ros2Node } from './ros2-node.js';

/** The simulator's time (ms) as of the node's latest tick; 0 before the first. */
export class SimClock implements NodeClock {
  private t = 0;
  now(): number {
    return this.t;
  }
  set(ms: number): void {
    this.t = ms;
  }
}

/** How often the driver looks whether the period's inputs are all in (ms). */
const POLL_MS = 1;

export function runInSimTime(node: Ros2Node, graph: RosGraph, clock: SimClock): LoopHandle {
  let latest = Number.NaN;
  graph.subscribe<ClockMessage>(CLOCK_TYPE, CLOCK_TOPIC, 'reliable', (m) => {
    latest = msOf(m.clock);
  });
  const stamps = node.inputs.stampsMs;
  const withObjects = node.options.config.inputs.objects !== undefined;
  const periodReady = (t: number) => stamps.pose === t && stamps.gripper === t && (!withObjects || stamps.objects === t);
  let running = true;
  let wake: (() => void) | undefined;
  let ticked = Number.NaN;
  const stopped = (async () => {
    while (running) {
      const t = latest;
      if (t === ticked || !periodReady(t)) {
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, POLL_MS);
        });
        continue;
      }
      const back = t < ticked;
      clock.set(t);
      if (back) await startOver(node);
      // The inputs were taken before the clock moved: they are this period's.
      const inputs = node.inputs;
      inputs.poseAt = inputs.gripperAt = t;
      if (withObjects) inputs.objectsAt = t;
      ticked = t;
      await node.tick();
    }
  })();
  return {
    stopped,
    stop: () => {
      running = false;
      wake?.();
    },
    overruns: () => 0,
  };
}

async function startOver(node: Ros2Node): Promise<void> {
  await node.endEpisode({ ended: 'simulated time went back: a new episode' });
  await node.beginEpisode();
}
