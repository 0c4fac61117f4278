// Builds the ROS 2 node on the in-memory graph (a test double) in simulated time, and runs one
// episode of the simulated tabletop robot through it: publish state → node tick → robot step.
import { world as tabletop } from '../../../sim/tabletop/tabletop-world.js';
import type { Perturbation } from '../../../sim/perturbation/schema.js';
import type { Policy } from '../../../zinfra/policy/policy.js';
import { ManualClock } from '../../../zinfra/ros2/clock.js';
import { parseRos2Config, type Ros2Config } from '../../../zinfra/ros2/config.js';
import { InMemoryRosBus } from '../../../zinfra/ros2/memory-graph.js';
import { openRobotGovernance } from '../../../zinfra/ros2/robot-critic.js';
import { Ros2Node } from '../../../zinfra/ros2/ros2-node.js';
import type { SimulatedTabletopRobot } from './simulated-robot.js';

export interface Harness {
  readonly bus: InMemoryRosBus;
  readonly clock: ManualClock;
  readonly node: Ros2Node;
  readonly config: Ros2Config;
}

export function nodeOnMemoryGraph(
  raw: Record<string, unknown>,
  policy: Policy,
  timing: 'realtime' | 'lockstep',
  bus = new InMemoryRosBus(),
): Harness {
  const config = parseRos2Config(raw);
  const clock = new ManualClock(1_000);
  const node = new Ros2Node({
    config,
    graph: bus.node(config.node_name),
    clock,
    policy,
    policyLabel: config.policy,
    encoder: tabletop.policyEncoder(),
    features: tabletop.perception!.features(),
    governance: openRobotGovernance(config.critic, tabletop.features, config.safety.workspace, config.control_hz),
    timing,
    instruction: tabletop.task(config.task.id).instruction,
  });
  node.start();
  return { bus, clock, node, config };
}

export interface GraphEpisode {
  readonly success: boolean;
  readonly steps: number;
  readonly commands: number;
}

/** One episode of `robot` driven by the node, in simulated time, to the task's end. */
export async function runGraphEpisode(
  h: Harness,
  robot: SimulatedTabletopRobot,
  spec: { task: string; seed: number; perturbation?: Perturbation },
): Promise<GraphEpisode> {
  const { objects, instruction } = await robot.reset(spec);
  await h.node.beginEpisode({ objects, instruction, label: `${spec.task}#${spec.seed}`, recordPath: null });
  const periodMs = 1000 / h.config.control_hz;
  let steps = 0;
  let commands = 0;
  for (;;) {
    robot.publishState(h.clock.now());
    if ((await h.node.tick()) === 'command') commands++;
    const r = robot.step();
    steps++;
    h.clock.advance(periodMs);
    if (r.done) {
      await h.node.endEpisode();
      return { success: r.info.success, steps, commands };
    }
  }
}
