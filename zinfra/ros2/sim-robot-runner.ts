// Runs episodes of the embedded tabletop as a ROS 2 robot (tabletop-robot.ts) for `zetta sim-robot`.
// Lockstep: the robot publishes its state stamped t and /clock = t, waits for the command stamped t
// (the node runs with use_sim_time), steps, and moves t on by one period; every episode starts at
// t = 0, which a node on sim time takes as a new episode. Real time: the robot steps at the control
// rate on the wall clock with whatever command came last (none for two periods: it holds, as MoveIt
// Servo's incoming-command timeout does), so the node meets it as it meets an arm.
import type { Perturbation } from '../../sim/perturbation/schema.js';
import { wallClock } from './clock.js';
import type { Publisher } from './graph.js';
import { type ClockMessage, stampOf } from './messages.js';
import type { TabletopRobot } from './tabletop-robot.js';

export interface SimRobotRun {
  readonly task: string;
  readonly seeds: readonly number[];
  readonly perturbation?: Perturbation;
  readonly controlHz: number;
  /** Publish /clock and step only on the command for the current time. */
  readonly lockstep: boolean;
  /** Lockstep: republish the state and clock when no command came for this long (a lost message). */
  readonly resendAfterMs?: number;
  /** Give up on the node after this long without a command. */
  readonly commandTimeoutMs?: number;
  /** Ends the run between two steps (SIGINT): runSimRobot then throws SimRobotStopped. */
  readonly signal?: AbortSignal;
}

export interface SimRobotEpisode {
  readonly seed: number;
  readonly success: boolean;
  readonly steps: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class NodeSilent extends Error {
  override readonly name = 'NodeSilent';
}

export class SimRobotStopped extends Error {
  override readonly name = 'SimRobotStopped';
}

function checkStopped(run: SimRobotRun): void {
  if (run.signal?.aborted) throw new SimRobotStopped('the simulated robot was stopped');
}

/** Runs every seed's episode to its end; `onEpisode` hears each outcome as it comes. */
export async function runSimRobot(
  robot: TabletopRobot,
  clockPub: Publisher<ClockMessage>,
  run: SimRobotRun,
  onEpisode: (e: SimRobotEpisode) => void = () => {},
): Promise<SimRobotEpisode[]> {
  const out: SimRobotEpisode[] = [];
  for (const seed of run.seeds) {
    await robot.reset({ task: run.task, seed, ...(run.perturbation ? { perturbation: run.perturbation } : {}) });
    const e = run.lockstep ? await lockstepEpisode(robot, clockPub, run, seed) : await realtimeEpisode(robot, run, seed);
    out.push(e);
    onEpisode(e);
  }
  return out;
}

async function lockstepEpisode(robot: TabletopRobot, clockPub: Publisher<ClockMessage>, run: SimRobotRun, seed: number) {
  const periodMs = 1000 / run.controlHz;
  const clock: ClockMessage = { clock: { sec: 0, nanosec: 0 } };
  const resendAfterMs = run.resendAfterMs ?? 1000;
  const timeoutMs = run.commandTimeoutMs ?? 30_000;
  for (let step = 0; ; step++) {
    const t = step * periodMs;
    const publish = () => {
      robot.publishState(t);
      stampOf(t, clock.clock);
      clockPub.publish(clock);
    };
    publish();
    const since = wallClock.now();
    let sent = since;
    while (!(robot.commandsSinceStep > 0 && robot.lastTwistStampMs === t)) {
      checkStopped(run);
      const now = wallClock.now();
      if (now - since > timeoutMs) throw new NodeSilent(`no command for t = ${t} ms from the node within ${timeoutMs} ms`);
      if (now - sent > resendAfterMs) {
        publish();
        sent = now;
      }
      await sleep(1);
    }
    const r = robot.step();
    if (r.done) return { seed, success: r.info.success, steps: step + 1 };
  }
}

async function realtimeEpisode(robot: TabletopRobot, run: SimRobotRun, seed: number) {
  const periodMs = 1000 / run.controlHz;
  let next = wallClock.now();
  let lastCommandAt = next;
  for (let step = 0; ; step++) {
    checkStopped(run);
    robot.publishState(wallClock.now());
    next += periodMs;
    await sleep(Math.max(0, next - wallClock.now()));
    if (robot.commandsSinceStep > 0) lastCommandAt = wallClock.now();
    else if (wallClock.now() - lastCommandAt > 2 * periodMs) robot.action.fill(0, 0, 6); // no command: hold
    const r = robot.step();
    if (r.done) return { seed, success: r.info.success, steps: step + 1 };
  }
}
