// Everything `zetta ros2` starts, in the order that makes failures cheap: the config (refused with
// the field named), the critic bundle, the policy (a server that is not there fails here), and only
// then the ROS 2 graph. On a robot the node runs in real time on the wall clock; beside a simulator
// with `use_sim_time`, in lockstep on its /clock.
import type { World } from '../../sim/world.js';
import { loadWorld, resolveWorld } from '../../sim/worlds.js';
import { openPolicy } from '../policy/open-policy.js';
import type { Policy } from '../policy/policy.js';
import { wallClock, type NodeClock } from './clock.js';
import { Ros2ConfigError, type Ros2Config } from './config.js';
import type { RosGraph } from './graph.js';
import { liberoEncoder } from './libero-encoder.js';
import { runAtRate, type LoopHandle } from './node-loop.js';
import { openRobotGovernance, type RobotGovernance } from './robot-critic.js';
import { Ros2Node } from './ros2-node.js';
import { runInSimTime, SimClock } from './sim-time.js';

export interface RunningNode {
  readonly node: Ros2Node;
  readonly loop: LoopHandle;
  /** Stops the loop, ends the episode (the bag is closed) and leaves the graph; returns the bag's path. */
  shutdown(): Promise<string | null>;
}

export interface StartOptions {
  /** The graph to join; by default rclnodejs (loaded only when the rest has started cleanly). */
  readonly graph?: (nodeName: string) => Promise<RosGraph>;
  readonly clock?: NodeClock;
}

export interface PreparedNode {
  readonly world: World;
  readonly instruction: string;
  readonly governance: RobotGovernance;
}

/**
 * What needs no robot and no policy: the task (an unknown id names the known ones), the critic
 * bundle against the robot's observed features, and the object names the goal needs.
 */
export async function prepareNode(config: Ros2Config): Promise<PreparedNode> {
  const world = await loadWorld(resolveWorld(config.task.world));
  let task: ReturnType<World['task']>;
  try {
    task = world.task(config.task.id);
  } catch (err) {
    throw new Ros2ConfigError(`task.id: ${(err as Error).message}`);
  }
  if (!world.perception)
    throw new Ros2ConfigError(`task.world: the world "${world.name}" declares no robot perception, so its tasks cannot run on a robot`);
  const names = config.inputs.objects?.names;
  if (names) {
    const missing = world.perception.goalObjects(config.task.id).filter((o) => !names.includes(o));
    if (missing.length)
      throw new Ros2ConfigError(
        `inputs.objects.names: the goal of ${config.task.id} names ${missing.join(', ')}, which are not among ${names.join(', ')}`,
      );
  }
  const governance = openRobotGovernance(config.critic, world.features, config.safety.workspace, config.control_hz);
  return { world, instruction: config.task.instruction ?? task.instruction, governance };
}

export async function startRos2Node(config: Ros2Config, options: StartOptions = {}): Promise<RunningNode> {
  const { world, instruction, governance } = await prepareNode(config);
  const policy: Policy = await openPolicy(config.policy);
  let graph: RosGraph;
  try {
    graph = await (options.graph ?? defaultGraph)(config.node_name);
  } catch (err) {
    await policy.close();
    throw err;
  }
  const simClock = config.use_sim_time ? new SimClock() : undefined;
  const clock = options.clock ?? simClock ?? wallClock;
  const node = new Ros2Node({
    config,
    graph,
    clock,
    policy,
    governance,
    timing: simClock ? 'lockstep' : 'realtime',
    policyLabel: config.policy,
    encoder: config.policy_input === 'libero' ? liberoEncoder() : world.policyEncoder(),
    features: world.perception!.features(), // prepareNode refused a world without one
    instruction,
  });
  node.start();
  await node.beginEpisode();
  const loop = simClock ? runInSimTime(node, graph, simClock) : runAtRate(() => node.tick(), config.control_hz, clock);
  return {
    node,
    loop,
    async shutdown() {
      loop.stop();
      await loop.stopped;
      node.holdRobot('shutdown'); // the last command the robot gets is to stand still
      const path = await node.endEpisode({ ended: 'shutdown' });
      await graph.close();
      await policy.close();
      return path;
    },
  };
}

async function defaultGraph(nodeName: string): Promise<RosGraph> {
  const { RclnodejsGraph } = await import('./rclnodejs-graph.js');
  return RclnodejsGraph.open(nodeName);
}
