// `zetta sim-robot`'s process: the tabletop robot on a real ROS 2 graph (node /sim_robot). It waits
// until a node listens to its state and publishes commands (DDS discovery; with the gripper action,
// until the node's action client is there too), then runs the episodes; SIGINT or SIGTERM ends it
// between steps, leaving the graph cleanly.
import { CLOCK_TOPIC, CLOCK_TYPE, type ClockMessage } from './messages.js';
import { RclnodejsGraph } from './rclnodejs-graph.js';
import { runSimRobot, type SimRobotEpisode, type SimRobotRun, SimRobotStopped } from './sim-robot-runner.js';
import { TABLETOP_ROBOT_TOPICS, TabletopRobot, type TabletopRobotOptions } from './tabletop-robot.js';

/** What the robot offers: its gripper interface and its camera. */
export type SimRobotInterfaces = Pick<TabletopRobotOptions, 'gripper' | 'camera'>;

/** How long discovery may take before the robot says nobody is driving it. */
const DISCOVERY_TIMEOUT_MS = 60_000;
/** Matched on the graph is not yet matched on every data path: a little more time for that. */
const DISCOVERY_GRACE_MS = 500;

export async function serveSimRobot(
  run: SimRobotRun,
  interfaces: SimRobotInterfaces,
  onEpisode: (e: SimRobotEpisode) => void,
  nodeName = 'sim_robot',
): Promise<SimRobotEpisode[] | 'interrupted'> {
  const graph = await RclnodejsGraph.open(nodeName);
  const robot = await TabletopRobot.create(graph, run.controlHz, interfaces);
  const clockPub = graph.advertise<ClockMessage>(CLOCK_TYPE, CLOCK_TOPIC, 'reliable');
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    await waitForNode(graph, run.lockstep, interfaces.gripper === 'action', stop.signal);
    return await runSimRobot(robot, clockPub, { ...run, signal: stop.signal }, onEpisode);
  } catch (err) {
    if (err instanceof SimRobotStopped) return 'interrupted';
    throw err;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await robot.close();
    await graph.close();
  }
}

async function waitForNode(graph: RclnodejsGraph, lockstep: boolean, gripperAction: boolean, signal: AbortSignal): Promise<void> {
  const deadline = performance.now() + DISCOVERY_TIMEOUT_MS;
  // A goal sent before the client has found the server is lost. Humble cannot count clients (null):
  // there the discovery grace below has to do.
  const countsClients = gripperAction && graph.actionClientCount(TABLETOP_ROBOT_TOPICS.gripperAction) !== null;
  const found = () =>
    graph.endpointCount(TABLETOP_ROBOT_TOPICS.pose, 'subscribers') > 0 &&
    graph.endpointCount(TABLETOP_ROBOT_TOPICS.twist, 'publishers') > 0 &&
    (!lockstep || graph.endpointCount(CLOCK_TOPIC, 'subscribers') > 0) &&
    (!countsClients || (graph.actionClientCount(TABLETOP_ROBOT_TOPICS.gripperAction) ?? 0) > 0);
  while (!found()) {
    if (signal.aborted) throw new SimRobotStopped('the simulated robot was stopped before a node came');
    if (performance.now() > deadline)
      throw new Error(
        `no node subscribes to ${TABLETOP_ROBOT_TOPICS.pose}${lockstep ? ` and ${CLOCK_TOPIC}` : ''} and publishes ${TABLETOP_ROBOT_TOPICS.twist}${countsClients ? ` and sends goals to ${TABLETOP_ROBOT_TOPICS.gripperAction}` : ''} within ${DISCOVERY_TIMEOUT_MS / 1000} s`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, DISCOVERY_GRACE_MS));
}
