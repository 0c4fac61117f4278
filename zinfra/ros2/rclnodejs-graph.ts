// The RosGraph on a real ROS 2 graph, through rclnodejs (an optionalDependency: it needs a sourced
// ROS 2 — Humble, Jazzy or Kilted — to build and load). It is loaded by dynamic import with a
// computed specifier, so without it every other command still loads, and `zetta ros2` says in one
// line what is missing. Only the calls of rclnodejs the node needs are typed here.
import {
  resolveName,
  type GoalSender,
  type ParameterCheck,
  type Publisher,
  type QosProfile,
  type RosGraph,
  type Subscription,
} from './graph.js';
import type { TriggerResponse } from './messages.js';

interface RclPublisher {
  publish(message: unknown): void;
}
interface RclNode {
  createSubscription(type: string, topic: string, options: { qos: unknown }, callback: (m: unknown) => void): unknown;
  destroySubscription(subscription: unknown): void;
  createPublisher(type: string, topic: string, options: { qos: unknown }): RclPublisher;
  createService(
    type: string,
    name: string,
    options: object,
    callback: (request: unknown, response: { template: TriggerResponse; send(r: TriggerResponse): void }) => void,
  ): unknown;
  createClient(type: string, name: string): RclClient;
  countSubscribers(topic: string): number;
  countPublishers(topic: string): number;
  /** null where the distribution cannot count them (Humble). */
  countClients(service: string): number | null;
  declareParameter(parameter: unknown): unknown;
  addPreSetParametersCallback(callback: (parameters: RclParameter[]) => RclParameter[]): void;
  addOnSetParametersCallback(callback: (parameters: RclParameter[]) => { successful: boolean; reason: string }): void;
  spin(): void;
  destroy(): void;
}
interface RclParameter {
  readonly name: string;
  readonly type: number;
  readonly value: unknown;
}
interface RclGoalHandle {
  readonly request: { toPlainObject(): unknown };
  succeed(): void;
}
interface RclClient {
  waitForService(timeoutMs: number): Promise<boolean>;
  sendRequestAsync(request: unknown, options: { timeout: number }): Promise<unknown>;
}
interface Rclnodejs {
  init(): Promise<void>;
  shutdown(): void;
  removeSignalHandlers(): void;
  Node: new (name: string) => RclNode;
  ActionClient: new (node: RclNode, type: string, name: string) => { sendGoal(goal: unknown): Promise<unknown> };
  ActionServer: new (node: RclNode, type: string, name: string, execute: (handle: RclGoalHandle) => unknown) => unknown;
  /** An interface's generated classes, e.g. an action's Result. */
  require(type: string): { Result: new (init: unknown) => unknown };
  Parameter: new (name: string, type: number, value: unknown) => unknown;
  ParameterType: { PARAMETER_INTEGER: number; PARAMETER_DOUBLE: number };
  QoS: { profileSensorData: unknown; profileServicesDefault: unknown; profileDefault: unknown };
}

/** What `zetta ros2` prints when rclnodejs cannot be loaded: what is missing and how to get it. */
export class Ros2Unavailable extends Error {
  override readonly name = 'Ros2Unavailable';
}

/** How to get a working rclnodejs, for the one line `zetta ros2` prints when it is missing. */
export function rclnodejsHowTo(distro = process.env.ROS_DISTRO): string {
  const setup = distro ? `/opt/ros/${distro}/setup.bash` : '/opt/ros/humble/setup.bash (or jazzy)';
  return `source ${setup}, then run \`npm install rclnodejs\` and \`npx generate-ros-messages\` in the zetta package (zinfra/ros2/README.md)`;
}

/** Loads rclnodejs, or throws Ros2Unavailable with one line saying exactly what is missing. */
export async function loadRclnodejs(): Promise<Rclnodejs> {
  if (!process.env.ROS_DISTRO)
    throw new Ros2Unavailable(`ROS 2 is not sourced (ROS_DISTRO is unset) and rclnodejs needs it: ${rclnodejsHowTo()}`);
  const specifier = 'rclnodejs'; // computed, so bundlers and the dependency check do not resolve it
  try {
    const mod = (await import(specifier)) as { default?: Rclnodejs } & Rclnodejs;
    return mod.default ?? mod;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ERR_MODULE_NOT_FOUND' ? 'rclnodejs is not installed' : `rclnodejs does not load (${(err as Error).message.split('\n')[0]})`;
    throw new Ros2Unavailable(`${why}: ${rclnodejsHowTo()}`, { cause: err });
  }
}

/** `pkg/Type` → `pkg/<kind>/Type`, the form rclnodejs takes. */
function interfaceName(type: string, kind: 'msg' | 'srv' | 'action'): string {
  const [pkg, name] = type.split('/');
  return type.split('/').length === 3 ? type : `${pkg}/${kind}/${name}`;
}

/** rclnodejs has one context per process: initialized by the first graph, shut down by the last. */
let contextUsers = 0;
let contextReady: Promise<void> | undefined;

export class RclnodejsGraph implements RosGraph {
  private readonly checks = new Map<string, ParameterCheck>();

  private constructor(
    private readonly rcl: Rclnodejs,
    private readonly node: RclNode,
    readonly nodeName: string,
  ) {
    // The node's parameters are numbers: `ros2 param set /zetta stale_state_ms 80` sends an integer,
    // taken as the double it stands for (any other type still meets the type check, with its reason).
    node.addPreSetParametersCallback((parameters) =>
      parameters.map((p) =>
        this.checks.has(p.name) && p.type === rcl.ParameterType.PARAMETER_INTEGER
          ? (new rcl.Parameter(p.name, rcl.ParameterType.PARAMETER_DOUBLE, Number(p.value)) as RclParameter)
          : p,
      ),
    );
    node.addOnSetParametersCallback((parameters) => {
      for (const p of parameters) {
        const refused = this.checks.get(p.name)?.(Number(p.value));
        if (refused) return { successful: false, reason: refused };
      }
      return { successful: true, reason: '' };
    });
  }

  static async open(nodeName: string): Promise<RclnodejsGraph> {
    const rcl = await loadRclnodejs();
    // rclnodejs shuts the context down on SIGINT by itself; the node must still publish its hold and
    // close its bag then, so the process's own handlers (`zetta ros2`) decide when it ends.
    rcl.removeSignalHandlers();
    contextReady ??= rcl.init();
    contextUsers++;
    await contextReady;
    const node = new rcl.Node(nodeName);
    const graph = new RclnodejsGraph(rcl, node, nodeName);
    node.spin();
    return graph;
  }

  subscribe<T>(type: string, topic: string, qos: QosProfile, onMessage: (message: T) => void): Subscription {
    const sub = this.node.createSubscription(interfaceName(type, 'msg'), resolveName(this.nodeName, topic), { qos: this.qos(qos) }, (m) =>
      onMessage(m as T),
    );
    return { close: () => this.node.destroySubscription(sub) };
  }

  advertise<T>(type: string, topic: string, qos: QosProfile): Publisher<T> {
    return this.node.createPublisher(interfaceName(type, 'msg'), resolveName(this.nodeName, topic), { qos: this.qos(qos) });
  }

  serveTrigger(name: string, handler: () => TriggerResponse): void {
    this.node.createService(interfaceName('std_srvs/Trigger', 'srv'), resolveName(this.nodeName, name), {}, (_request, response) => {
      const result = response.template;
      const r = handler();
      result.success = r.success;
      result.message = r.message;
      response.send(result);
    });
  }

  actionClient<G>(type: string, name: string): GoalSender<G> {
    const client = new this.rcl.ActionClient(this.node, interfaceName(type, 'action'), resolveName(this.nodeName, name));
    // A goal the server refuses or never answers must not stop the control loop: log and go on.
    return {
      sendGoal: (goal) =>
        void client
          .sendGoal(goal)
          .catch((err: unknown) => process.stderr.write(`zetta ros2: gripper goal failed: ${(err as Error).message}\n`)),
    };
  }

  serveGoals<G, R>(type: string, name: string, onGoal: (goal: G) => R): void {
    const action = interfaceName(type, 'action');
    const Result = this.rcl.require(action).Result;
    // rclnodejs runs the execute callback within the spin that took the goal: the goal is in effect
    // before anything that arrived after it is handled.
    new this.rcl.ActionServer(this.node, action, resolveName(this.nodeName, name), (handle) => {
      const result = onGoal(handle.request.toPlainObject() as G);
      handle.succeed();
      return new Result(result);
    });
  }

  declareParameter(name: string, value: number, onSet: ParameterCheck): void {
    // rclnodejs runs the set-parameters callback on the declaration too; the check guards later sets
    // only (a fixed parameter refuses every set, its own declaration included), so it is armed after.
    this.node.declareParameter(new this.rcl.Parameter(name, this.rcl.ParameterType.PARAMETER_DOUBLE, value));
    this.checks.set(name, onSet);
  }

  /**
   * Calls a service as `ros2 service call` does (the operator's side: tests, a simulated robot).
   * Throws when no server answers within `timeoutMs`.
   */
  async callService<Response>(type: string, name: string, request: unknown, timeoutMs = 5000): Promise<Response> {
    const client = this.node.createClient(interfaceName(type, 'srv'), resolveName(this.nodeName, name));
    if (!(await client.waitForService(timeoutMs))) throw new Error(`no ${type} server at ${name} within ${timeoutMs} ms`);
    return (await client.sendRequestAsync(request, { timeout: timeoutMs })) as Response;
  }

  /** Endpoints on the graph for `topic`, as `ros2 topic info` counts them. */
  endpointCount(topic: string, role: 'publishers' | 'subscribers'): number {
    const name = resolveName(this.nodeName, topic);
    return role === 'publishers' ? this.node.countPublishers(name) : this.node.countSubscribers(name);
  }

  /**
   * Action clients on the graph for the action `name` (its goal service's clients); null where the
   * distribution cannot count them (Humble).
   */
  actionClientCount(name: string): number | null {
    return this.node.countClients(`${resolveName(this.nodeName, name)}/_action/send_goal`) ?? null;
  }

  async close(): Promise<void> {
    this.node.destroy();
    if (--contextUsers === 0) {
      contextReady = undefined;
      this.rcl.shutdown();
    }
  }

  private qos(profile: QosProfile): unknown {
    return profile === 'sensor-data' ? this.rcl.QoS.profileSensorData : this.rcl.QoS.profileDefault;
  }
}
