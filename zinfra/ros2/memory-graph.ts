// An in-memory ROS 2 graph for tests and the simulated robot: one bus, many nodes, synchronous
// delivery in publish order (deterministic; action goals too, straight to the server), the QoS
// recorded but not simulated. A topic used with two message types is refused, as DDS would not
// match them.
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

type Listener = (message: unknown) => void;

interface Topic {
  readonly type: string;
  readonly listeners: Set<Listener>;
  /** QoS of each endpoint, for tests that check inputs are sensor-data and commands reliable. */
  readonly qos: { readonly role: 'pub' | 'sub'; readonly node: string; readonly qos: QosProfile }[];
}

export class InMemoryRosBus {
  private readonly topics = new Map<string, Topic>();
  private readonly services = new Map<string, () => TriggerResponse>();
  private readonly goals = new Map<string, Set<Listener>>();
  private readonly parameters = new Map<string, { value: number; onSet: ParameterCheck }>();

  /** A node on this bus. */
  node(nodeName: string): RosGraph {
    return new InMemoryRosGraph(this, nodeName);
  }

  /** Publishes from outside any node (a test's recorded input sequence). */
  publish(type: string, topic: string, message: unknown): void {
    for (const l of this.topic(type, topic).listeners) l(message);
  }

  /** Listens from outside any node; returns the array the messages are pushed onto. */
  capture<T>(type: string, topic: string): T[] {
    const seen: T[] = [];
    this.topic(type, topic).listeners.add((m) => seen.push(structuredClone(m) as T));
    return seen;
  }

  /** Calls a Trigger service, as `ros2 service call` would. */
  call(name: string): TriggerResponse {
    const s = this.services.get(name);
    if (!s) throw new Error(`no service ${name}; offered: ${[...this.services.keys()].join(', ') || 'none'}`);
    return s();
  }

  /** Goals sent to an action server name. */
  captureGoals<G>(name: string): G[] {
    const seen: G[] = [];
    this.onGoal(name, (g) => seen.push(structuredClone(g) as G));
    return seen;
  }

  /** Sets `/<node>/<name>` as `ros2 param set` would; returns the refusal reason or null. */
  setParameter(fullName: string, value: number): string | null {
    const p = this.parameters.get(fullName);
    if (!p) return `no parameter ${fullName}`;
    const refused = p.onSet(value);
    if (refused === null) p.value = value;
    return refused;
  }

  getParameter(fullName: string): number | undefined {
    return this.parameters.get(fullName)?.value;
  }

  qosOf(topic: string): Topic['qos'] {
    return this.topics.get(topic)?.qos ?? [];
  }

  /** @internal the graph's side. */
  topic(type: string, name: string): Topic {
    let t = this.topics.get(name);
    if (!t) this.topics.set(name, (t = { type, listeners: new Set(), qos: [] }));
    if (t.type !== type) throw new Error(`topic ${name} carries ${t.type}, not ${type}`);
    return t;
  }

  /** @internal */
  offer(name: string, handler: () => TriggerResponse): void {
    if (this.services.has(name)) throw new Error(`service ${name} is offered twice`);
    this.services.set(name, handler);
  }

  /** @internal */
  goal(name: string, goal: unknown): void {
    for (const l of this.goals.get(name) ?? []) l(goal);
  }

  /** @internal an action server's side: every goal sent to `name`. */
  onGoal(name: string, listener: Listener): void {
    let set = this.goals.get(name);
    if (!set) this.goals.set(name, (set = new Set()));
    set.add(listener);
  }

  /** @internal */
  declare(fullName: string, value: number, onSet: ParameterCheck): void {
    this.parameters.set(fullName, { value, onSet });
  }
}

class InMemoryRosGraph implements RosGraph {
  constructor(
    private readonly bus: InMemoryRosBus,
    readonly nodeName: string,
  ) {}

  subscribe<T>(type: string, topic: string, qos: QosProfile, onMessage: (message: T) => void): Subscription {
    const t = this.bus.topic(type, resolveName(this.nodeName, topic));
    const l = onMessage as Listener;
    t.listeners.add(l);
    t.qos.push({ role: 'sub', node: this.nodeName, qos });
    return { close: () => void t.listeners.delete(l) };
  }

  advertise<T>(type: string, topic: string, qos: QosProfile): Publisher<T> {
    const t = this.bus.topic(type, resolveName(this.nodeName, topic));
    t.qos.push({ role: 'pub', node: this.nodeName, qos });
    return {
      publish: (m) => {
        for (const l of t.listeners) l(m);
      },
    };
  }

  serveTrigger(name: string, handler: () => TriggerResponse): void {
    this.bus.offer(resolveName(this.nodeName, name), handler);
  }

  actionClient<G>(_type: string, name: string): GoalSender<G> {
    const full = resolveName(this.nodeName, name);
    return { sendGoal: (g) => this.bus.goal(full, g) };
  }

  serveGoals<G, R>(_type: string, name: string, onGoal: (goal: G) => R): void {
    // The result goes nowhere: the in-memory action client never asks for it.
    this.bus.onGoal(resolveName(this.nodeName, name), (g) => void onGoal(g as G));
  }

  declareParameter(name: string, value: number, onSet: ParameterCheck): void {
    this.bus.declare(`/${this.nodeName}/${name}`, value, onSet);
  }

  async close(): Promise<void> {}
}
