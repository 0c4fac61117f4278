// A recorded robot input sequence for the safety tests: what a robot's driver published, 20 Hz —
// the end-effector pose drifting slowly in x, the fingers open — replayed onto the in-memory graph
// (a test double) up to a given time, with gaps where the driver stalled.
import type { InMemoryRosBus } from '../../../zinfra/ros2/memory-graph.js';
import { stampOf, type JointState, type PoseStamped } from '../../../zinfra/ros2/messages.js';
import { FINGER_JOINTS, SIM_TOPICS } from './simulated-robot.js';

export interface RecordedInput {
  /** Milliseconds after the sequence starts. */
  readonly t: number;
  readonly eef: readonly [number, number, number];
  readonly fingers: readonly [number, number];
}

/** `seconds` of input at `hz`, with nothing published inside each [from, to) gap. */
export function recordedSequence(
  seconds: number,
  hz = 20,
  gaps: readonly (readonly [number, number])[] = [],
  start: readonly [number, number, number] = [0.1, 0, 0.2],
): RecordedInput[] {
  const out: RecordedInput[] = [];
  for (let k = 0; k * (1000 / hz) < seconds * 1000; k++) {
    const t = k * (1000 / hz);
    if (gaps.some(([a, b]) => t >= a && t < b)) continue;
    out.push({ t, eef: [start[0] + 0.0005 * k, start[1], start[2]], fingers: [0.04, 0.04] });
  }
  return out;
}

/** Publishes the sequence's messages as time passes (each one once, when its time has come). */
export class InputReplay {
  private next = 0;

  constructor(
    private readonly bus: InMemoryRosBus,
    private readonly sequence: readonly RecordedInput[],
    private readonly t0: number,
  ) {}

  until(nowMs: number): void {
    while (this.next < this.sequence.length && this.t0 + this.sequence[this.next]!.t <= nowMs) {
      const r = this.sequence[this.next++]!;
      const js: JointState = {
        header: { stamp: stampOf(this.t0 + r.t, { sec: 0, nanosec: 0 }), frame_id: '' },
        name: [...FINGER_JOINTS],
        position: [...r.fingers],
        velocity: [],
        effort: [],
      };
      const pose: PoseStamped = {
        header: { stamp: stampOf(this.t0 + r.t, { sec: 0, nanosec: 0 }), frame_id: 'world' },
        pose: { position: { x: r.eef[0], y: r.eef[1], z: r.eef[2] }, orientation: { w: 0, x: 1, y: 0, z: 0 } },
      };
      this.bus.publish('sensor_msgs/JointState', SIM_TOPICS.jointState, js);
      this.bus.publish('geometry_msgs/PoseStamped', SIM_TOPICS.pose, pose);
    }
  }
}
