// The RosGraph port: the little of ROS 2 the node uses — topics with a QoS, Trigger services, an
// action client that only sends goals, and numeric parameters — plus, for a simulated robot, an
// action server that takes every goal at once. rclnodejs implements it on a robot (rclnodejs-graph.ts);
// the in-memory graph (memory-graph.ts) implements it in tests. Names starting with `~/` are
// private to the node (`/<node_name>/…`), as in ROS 2.
import type { TriggerResponse } from './messages.js';

/** sensor-data: best effort, keep last 5 (inputs); reliable: keep last 10, reliable (commands, status). */
export type QosProfile = 'sensor-data' | 'reliable';

export interface Publisher<T> {
  publish(message: T): void;
}

export interface Subscription {
  close(): void;
}

export interface GoalSender<G> {
  /** Fire and forget: the node never waits on a goal's result in its control loop. */
  sendGoal(goal: G): void;
}

/** A parameter's new value is refused when the callback returns a reason. */
export type ParameterCheck = (value: number) => string | null;

export interface RosGraph {
  readonly nodeName: string;
  subscribe<T>(type: string, topic: string, qos: QosProfile, onMessage: (message: T) => void): Subscription;
  advertise<T>(type: string, topic: string, qos: QosProfile): Publisher<T>;
  /** A std_srvs/Trigger service. */
  serveTrigger(name: string, handler: () => TriggerResponse): void;
  actionClient<G>(type: string, name: string): GoalSender<G>;
  /**
   * An action server that accepts every goal, hands it to `onGoal` as it arrives and reports it
   * succeeded at once with the result `onGoal` returns (a simulated controller taking a setpoint).
   */
  serveGoals<G, R>(type: string, name: string, onGoal: (goal: G) => R): void;
  /** Declares `name` with its start value; `onSet` checks every later set, never the declaration. */
  declareParameter(name: string, value: number, onSet: ParameterCheck): void;
  close(): Promise<void>;
}

/** `~/x` → `/<node>/x`; other names are kept (a relative name is taken from the root). */
export function resolveName(nodeName: string, name: string): string {
  if (name.startsWith('~/')) return `/${nodeName}/${name.slice(2)}`;
  return name.startsWith('/') ? name : `/${name}`;
}
