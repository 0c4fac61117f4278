// The node's safety behaviour on the in-memory ROS 2 graph (a test double), driven in simulated time
// by a recorded input sequence and a scripted policy (a test double): commands at the configured
// rate, the watchdog, the e-stop latch, pause/resume, the envelope, a lost policy server.
import { describe, expect, it } from 'vitest';
import type { DiagnosticArray, StringMessage, TwistStamped } from '../../../zinfra/ros2/messages.js';
import { InputReplay, recordedSequence, type RecordedInput } from './input-sequence.js';
import { nodeOnMemoryGraph, type Harness } from './node-harness.js';
import { ScriptedPolicy } from './scripted-policy.js';
import { SIM_TOPICS, simulatedRobotConfig } from './simulated-robot.js';

const TASK = 'spatial/left_cube_in_bowl';
const FORWARD = [0.4, 0, 0, 0, 0, 0, -1];

interface Run {
  readonly h: Harness;
  readonly policy: ScriptedPolicy;
  readonly twists: TwistStamped[];
  readonly events: StringMessage[];
  readonly diagnostics: DiagnosticArray[];
  /** Node-clock time of each tick, in tick order. */
  readonly tickTimes: number[];
  /** Runs ticks until `ms` after the start, replaying inputs; returns the tick kinds. */
  runUntil(ms: number): Promise<string[]>;
}

async function start(sequence: readonly RecordedInput[], overrides: Record<string, unknown> = {}, action = FORWARD): Promise<Run> {
  const policy = new ScriptedPolicy(action);
  const h = nodeOnMemoryGraph(
    simulatedRobotConfig(TASK, {
      critic: 'none',
      inputs: { ...(simulatedRobotConfig(TASK).inputs as object), objects: undefined },
      ...overrides,
    }),
    policy,
    'realtime',
  );
  const twists = h.bus.capture<TwistStamped>('geometry_msgs/TwistStamped', SIM_TOPICS.twist);
  const events = h.bus.capture<StringMessage>('std_msgs/String', '/zetta/events');
  const diagnostics = h.bus.capture<DiagnosticArray>('diagnostic_msgs/DiagnosticArray', '/diagnostics');
  const t0 = h.clock.now();
  const replay = new InputReplay(h.bus, sequence, t0);
  await h.node.beginEpisode({ recordPath: null });
  const periodMs = 1000 / h.config.control_hz;
  const tickTimes: number[] = [];
  const runUntil = async (ms: number) => {
    const kinds: string[] = [];
    while (h.clock.now() < t0 + ms) {
      replay.until(h.clock.now());
      tickTimes.push(h.clock.now());
      kinds.push(await h.node.tick());
      h.clock.advance(periodMs);
    }
    return kinds;
  };
  return { h, policy, twists, events, diagnostics, tickTimes, runUntil };
}

const moving = (t: TwistStamped) => t.twist.linear.x !== 0 || t.twist.linear.y !== 0 || t.twist.linear.z !== 0;
const stampMs = (t: TwistStamped) => t.header.stamp.sec * 1000 + t.header.stamp.nanosec / 1e6;
const lastStatus = (d: DiagnosticArray[], what: string) => d.at(-1)!.status.find((s) => s.name.endsWith(what))!;

describe('ROS 2 node safety on the in-memory graph (test double), simulated time', () => {
  it('publishes one command per control period at the configured rate, reliable, with inputs as sensor data', async () => {
    const r = await start(recordedSequence(3), { control_hz: 25 });
    await r.runUntil(2000);
    expect(r.twists.length).toBe(50); // 25 Hz × 2 s
    const gaps = r.twists.slice(1).map((t, i) => stampMs(t) - stampMs(r.twists[i]!));
    for (const g of gaps) expect(g).toBeCloseTo(40, 6);
    expect(r.twists.filter(moving).length).toBeGreaterThan(40);
    // 0.4 × 0.05 m per step over a 40 ms period = 0.5 m/s, in the configured frame
    expect(r.twists.at(-1)!.twist.linear.x).toBeCloseTo(0.5, 6);
    expect(r.twists.at(-1)!.header.frame_id).toBe('world');
    expect(r.h.bus.qosOf(SIM_TOPICS.twist).find((q) => q.role === 'pub')!.qos).toBe('reliable');
    expect(r.h.bus.qosOf(SIM_TOPICS.jointState).find((q) => q.role === 'sub')!.qos).toBe('sensor-data');
    expect(r.diagnostics.length).toBe(2); // 1 Hz
  });

  it('holds within 100 ms plus one period of stale input, says why on /diagnostics, and moves again when input returns', async () => {
    const stallAt = 1000;
    const r = await start(recordedSequence(4, 20, [[stallAt, 2500]]));
    const kinds = await r.runUntil(3500);
    const lastInput = stallAt - 50;
    const firstHold = r.tickTimes.findIndex((t, i) => t > r.tickTimes[0]! + stallAt && kinds[i] === 'hold');
    const heldAfter = r.tickTimes[firstHold]! - (r.tickTimes[0]! + lastInput);
    expect(heldAfter).toBeGreaterThan(100);
    expect(heldAfter).toBeLessThanOrEqual(100 + 50);
    expect(moving(r.twists[firstHold]!)).toBe(false);
    // every tick of the stall holds, and ticks after it command again
    const stalled = r.tickTimes.map((t, i) => [t - r.tickTimes[0]!, kinds[i]] as const).filter(([t]) => t >= lastInput + 150 && t < 2500);
    expect(stalled.every(([, k]) => k === 'hold')).toBe(true);
    expect(kinds.at(-1)).toBe('command');
    const during = r.diagnostics.find((d) => d.status.some((s) => s.name.endsWith('watchdog') && s.level === 2))!;
    expect(during.status.find((s) => s.name.endsWith('watchdog'))!.message).toMatch(/robot state \d+ ms old \(limit 100 ms\)/);
    expect(r.events.some((e) => JSON.parse(e.data).hold?.startsWith('robot state'))).toBe(true);
  });

  it('latches an e-stop until ~/resume: pause and fresh input do not release it', async () => {
    const r = await start(recordedSequence(4));
    await r.runUntil(500);
    expect(r.h.bus.call('/zetta/estop').success).toBe(true);
    const n = r.twists.length;
    expect(moving(r.twists.at(-1)!)).toBe(false); // the e-stop itself publishes a hold at once
    const held = await r.runUntil(1500);
    expect(held.every((k) => k === 'hold')).toBe(true);
    r.h.bus.call('/zetta/pause');
    expect((await r.runUntil(2000)).every((k) => k === 'hold')).toBe(true);
    expect(r.twists.slice(n).some(moving)).toBe(false);
    await r.runUntil(2600); // a diagnostics tick while latched
    expect(lastStatus(r.diagnostics, 'control').message).toMatch(/estop/);
    expect(r.h.bus.call('/zetta/resume').message).toMatch(/cleared estop/);
    const after = await r.runUntil(3200);
    expect(after.filter((k) => k === 'command').length).toBeGreaterThan(5);
    expect(moving(r.twists.at(-1)!)).toBe(true);
  });

  it('applies the safety envelope even with no critic: a push out of the workspace is clamped at its wall', async () => {
    // x max of the default box is 0.5 m; the hand starts 1 cm inside it and the policy pushes +x at full speed
    const r = await start(recordedSequence(2, 20, [], [0.49, 0, 0.2]), {}, [1, 0, 0, 0, 0, 0, -1]);
    await r.runUntil(300);
    const last = r.twists.at(-1)!;
    expect(moving(last)).toBe(true);
    const stepM = last.twist.linear.x * 0.05;
    const eefX = 0.49 + 0.0005 * 5; // where the replayed hand is by then
    expect(eefX + stepM).toBeLessThanOrEqual(0.5 + 1e-6);
    expect(last.twist.linear.x).toBeLessThan(1); // unclamped it would be 1 m/s
    const sent = JSON.parse(r.events.at(-1)!.data).sent as number[];
    expect(sent[0]).toBeLessThan(1);
  });

  it('holds while the policy server is lost, says so, and drives again when it returns', async () => {
    const r = await start(recordedSequence(6));
    await r.runUntil(1000);
    r.policy.mode = 'fail';
    const n = r.twists.length;
    const lost = await r.runUntil(3000);
    const duringOutage = r.twists.slice(n + 6); // once the queued actions are spent
    expect(duringOutage.length).toBeGreaterThan(20);
    expect(duringOutage.some(moving)).toBe(false);
    expect(lost.filter((k) => k === 'command').length).toBe(lost.length); // it keeps publishing holds at the rate
    const link = lastStatus(r.diagnostics, 'policy link');
    expect(link.level).toBe(2);
    expect(link.message).toMatch(/scripted policy server is down/);
    expect(lastStatus(r.diagnostics, 'watchdog').message).toMatch(/no action chunk for \d+ ms/);
    r.policy.mode = 'answer';
    await r.runUntil(4100);
    expect(moving(r.twists.at(-1)!)).toBe(true);
    expect(lastStatus(r.diagnostics, 'policy link').level).toBe(0);
  });

  it('abandons a chunk that never comes past its deadline, holding meanwhile, and asks again', async () => {
    const r = await start(recordedSequence(4), { safety: { chunk_deadline_ms: 300 } });
    await r.runUntil(500);
    r.policy.mode = 'hang';
    const calls = r.policy.calls;
    await r.runUntil(1500);
    expect(r.twists.slice(-5).some(moving)).toBe(false);
    expect(r.policy.calls - calls).toBeGreaterThanOrEqual(3); // re-asked about every 300 ms
    r.policy.mode = 'answer';
    await r.runUntil(2200);
    expect(moving(r.twists.at(-1)!)).toBe(true);
  });

  it('takes the watchdog limit as a parameter and refuses to change the control rate', async () => {
    const r = await start(recordedSequence(3, 20, [[1000, 1200]]));
    expect(r.h.bus.setParameter('/zetta/control_hz', 50)).toMatch(/fixed at start/);
    expect(r.h.bus.setParameter('/zetta/stale_state_ms', 300)).toBeNull();
    const kinds = await r.runUntil(2000);
    expect(kinds.every((k) => k === 'command')).toBe(true); // a 200 ms gap is within 300 ms
  });
});
