// `zetta ros2 --config FILE` on a real ROS 2 graph, as a separate process between a real policy
// server (`zetta serve-policy`, the embedded ONNX policy, another process) and the embedded tabletop
// as a robot on the same graph (this process). Everything is seen from outside, as an operator sees
// it: parameters through the node's parameter services, ~/pause ~/resume ~/estop, /diagnostics,
// ~/events, commands over DDS, the bag it leaves, its exit. Skipped, with the reason in the name,
// where ROS 2 or rclnodejs is missing (CI).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallClock } from '../../../zinfra/ros2/clock.js';
import type { DiagnosticArray, StringMessage, TwistStamped } from '../../../zinfra/ros2/messages.js';
import { callTrigger, getNumericParameters, setParameter } from '../../../zinfra/ros2/operator-calls.js';
import { RclnodejsGraph } from '../../../zinfra/ros2/rclnodejs-graph.js';
import { TABLETOP_ROBOT_TOPICS, TabletopRobot } from '../../../zinfra/ros2/tabletop-robot.js';
import { readBag } from './bag-reading.js';
import { realGraphMissing, useDomain, sleep, startPolicyServer, startZetta, until, type ZettaProcess } from './real-graph-support.js';
import { simulatedRobotConfig } from './simulated-robot.js';

const missing = await realGraphMissing();
useDomain(12);
const TITLE = missing
  ? `zetta ros2 on a real ROS 2 graph (skipped: ${missing}; source a ROS 2 installation and install rclnodejs to run it)`
  : `zetta ros2 on a real ROS 2 ${process.env.ROS_DISTRO} graph, as a separate process`;

const TASK = 'spatial/left_cube_in_bowl';
const NODE = `zetta_cli_${process.pid}`;
const STALE_STATE_MS = 100;
const CONTROL_HZ = 20;
const PERIOD_MS = 1000 / CONTROL_HZ;

const moving = (t: TwistStamped) => t.twist.linear.x !== 0 || t.twist.linear.y !== 0 || t.twist.linear.z !== 0;

interface TickEvent {
  t_ms: number;
  source: string;
  hold?: string;
  sent: number[] | null;
}

describe.skipIf(missing !== null)(TITLE, () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-ros2-real-'));
  const endpoint = `ipc://${join(dir, 'policy.sock')}`;
  let server: ZettaProcess;
  let zetta: ZettaProcess;
  let graph: RclnodejsGraph;
  let robot: TabletopRobot;
  let feeding = true;
  let lastStatePublishedAt = 0;
  let drive: ReturnType<typeof setInterval>;
  const twists: { at: number; msg: TwistStamped }[] = [];
  const diagnostics: DiagnosticArray[] = [];
  const events: TickEvent[] = [];
  const twistsSince = (i: number) => twists.slice(i).map((t) => t.msg);

  beforeAll(async () => {
    server = await startPolicyServer(endpoint);
    graph = await RclnodejsGraph.open(`zetta_test_robot_${process.pid}`);
    robot = await TabletopRobot.create(graph, CONTROL_HZ);
    await robot.reset({ task: TASK, seed: 1000 });
    graph.subscribe<TwistStamped>('geometry_msgs/TwistStamped', TABLETOP_ROBOT_TOPICS.twist, 'reliable', (m) =>
      twists.push({ at: wallClock.now(), msg: m }),
    );
    graph.subscribe<DiagnosticArray>('diagnostic_msgs/DiagnosticArray', '/diagnostics', 'reliable', (m) => {
      if (m.status.some((s) => s.name.startsWith(`${NODE}:`))) diagnostics.push(m);
    });
    graph.subscribe<StringMessage>('std_msgs/String', `/${NODE}/events`, 'reliable', (m) => events.push(JSON.parse(m.data) as TickEvent));
    // The robot: state every 10 ms (while fed), a step whenever a twist came since the last one.
    drive = setInterval(() => {
      if (robot.commandsSinceStep > 0) robot.step();
      if (!feeding) return;
      lastStatePublishedAt = wallClock.now();
      robot.publishState(lastStatePublishedAt);
    }, 10);
    const config = join(dir, 'node.json');
    writeFileSync(
      config,
      JSON.stringify(
        simulatedRobotConfig(TASK, {
          node_name: NODE,
          policy: endpoint,
          control_hz: CONTROL_HZ,
          safety: { stale_state_ms: STALE_STATE_MS },
          recording: { dir, enabled: true },
        }),
      ),
    );
    zetta = startZetta(['ros2', '--config', config, '--json']);
    await zetta.waitFor(new RegExp(`node /${NODE} running at ${CONTROL_HZ} Hz`), 60_000);
  }, 120_000);

  afterAll(async () => {
    clearInterval(drive);
    await zetta?.stop('SIGKILL');
    await server?.stop('SIGKILL');
    await robot?.close();
    await graph?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drives the robot over DDS with chunks from the policy server', async () => {
    await until(() => twists.filter((t) => moving(t.msg)).length >= 10, 30_000, 'ten moving twists');
    expect(twists.at(-1)!.msg.header.frame_id).toBe('world');
  }, 40_000);

  it('declares its parameters: reads them, sets one as `ros2 param set` does, refuses a fixed one with the reason', async () => {
    const names = ['control_hz', 'execute_steps', 'stale_state_ms', 'chunk_timeout_ms', 'max_linear_mps', 'max_angular_rps'];
    expect(await getNumericParameters(graph, NODE, names)).toEqual([CONTROL_HZ, 5, STALE_STATE_MS, 200, 1.5, 15]);
    // `ros2 param set /zetta stale_state_ms 80` sends an integer.
    expect(await setParameter(graph, NODE, 'stale_state_ms', 80n)).toEqual({ successful: true, reason: '' });
    expect(await getNumericParameters(graph, NODE, ['stale_state_ms'])).toEqual([80]);
    const fixed = await setParameter(graph, NODE, 'control_hz', 10);
    expect(fixed.successful).toBe(false);
    expect(fixed.reason).toBe('control_hz is fixed at start (restart the node with another config)');
    expect(await getNumericParameters(graph, NODE, ['control_hz'])).toEqual([CONTROL_HZ]);
    const negative = await setParameter(graph, NODE, 'max_linear_mps', -1);
    expect(negative).toEqual({ successful: false, reason: 'max_linear_mps must be a positive number' });
    expect((await setParameter(graph, NODE, 'stale_state_ms', STALE_STATE_MS)).successful).toBe(true);
  }, 30_000);

  it('publishes /diagnostics once a second with its four statuses, and one ~/events message per tick', async () => {
    const first = diagnostics.length;
    await until(() => diagnostics.length >= first + 3, 10_000, 'three more /diagnostics');
    const stamps = diagnostics.slice(first).map((d) => d.header.stamp.sec * 1000 + d.header.stamp.nanosec / 1e6);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! - stamps[i - 1]!).toBeGreaterThanOrEqual(999);
    const names = diagnostics.at(-1)!.status.map((s) => s.name);
    expect(names).toEqual(['policy link', 'critic', 'watchdog', 'control'].map((n) => `${NODE}: ${n}`));
    expect(diagnostics.at(-1)!.status[0]!.level).toBe(0);
    expect(events.length).toBeGreaterThan(20);
    expect(events.filter((e) => e.source !== 'hold').every((e) => Array.isArray(e.sent) && e.sent.length === 7)).toBe(true);
  }, 20_000);

  it('~/estop holds at once and stays latched through fresh state and chunks until ~/resume', async () => {
    await until(() => twists.some((t) => moving(t.msg)), 10_000, 'a moving twist');
    const estop = await callTrigger(graph, `/${NODE}/estop`);
    expect(estop).toEqual({ success: true, message: 'e-stop latched: holding until ~/resume' });
    const from = twists.length;
    await until(() => twists.length >= from + 2 * CONTROL_HZ, 10_000, 'two seconds of ticks');
    expect(twistsSince(from + 1).some(moving)).toBe(false); // the one in flight may have left before
    expect((await callTrigger(graph, `/${NODE}/pause`)).success).toBe(true);
    const resumed = await callTrigger(graph, `/${NODE}/resume`);
    expect(resumed.success).toBe(true);
    expect(resumed.message).toMatch(/^resumed/);
    const back = twists.length;
    await until(() => twistsSince(back).some(moving), 10_000, 'driving again after ~/resume');
  }, 30_000);

  it(`holds within ${STALE_STATE_MS} ms plus one period when the robot's state stops, and drives again when it returns`, async () => {
    await until(() => twists.some((t) => moving(t.msg)), 10_000, 'a moving twist');
    const from = events.length;
    feeding = false;
    const stoppedAt = lastStatePublishedAt;
    await until(() => events.slice(from).some((e) => e.hold?.startsWith('robot state')), 5_000, 'a watchdog hold');
    const i = from + events.slice(from).findIndex((e) => e.hold?.startsWith('robot state'));
    const hold = events[i]!;
    const ageAtHold = Number(/robot state (\d+) ms old/.exec(hold.hold!)![1]);
    const previous = events[i - 1]!; // the last tick before the watchdog's first hold
    expect(previous.hold?.startsWith('robot state') ?? false).toBe(false);
    // On time, the first stale tick is at most one period after the state went stale; a tick the
    // machine delayed is allowed its own delay, measured on the node's clock.
    const period = Math.max(PERIOD_MS, hold.t_ms - previous.t_ms);
    // The reason gives the age rounded to the ms: an age just over the limit reads as the limit.
    expect(ageAtHold).toBeGreaterThanOrEqual(STALE_STATE_MS);
    expect(ageAtHold).toBeLessThanOrEqual(STALE_STATE_MS + period + 1);
    const firstHeldTwist = twists.find((t) => t.at > stoppedAt && !moving(t.msg) && t.at >= stoppedAt + STALE_STATE_MS);
    console.log(
      `watchdog: state age at the first hold ${ageAtHold} ms (tick spacing ${(hold.t_ms - previous.t_ms).toFixed(1)} ms); ` +
        `last state published → held twist received: ${firstHeldTwist ? (firstHeldTwist.at - stoppedAt).toFixed(1) : '?'} ms`,
    );
    const held = twists.length;
    await sleep(500);
    expect(twistsSince(held).some(moving)).toBe(false);
    feeding = true;
    const back = twists.length;
    await until(() => twistsSince(back).some(moving), 10_000, 'driving again once state returns');
  }, 30_000);

  it('holds the robot while the policy server is gone, says so on /diagnostics, and drives again when it returns', async () => {
    try {
      await server.stop('SIGTERM');
      const gone = events.length;
      await until(() => events.length >= gone + 3 * CONTROL_HZ, 15_000, 'three seconds of ticks without a server');
      // Once the queued actions are spent (well within two seconds), no tick carries a policy action:
      // the robot holds, or only the critic's recovery program (which needs no policy) moves it.
      const later = events.slice(gone + 2 * CONTROL_HZ);
      expect(later.filter((e) => e.source === 'policy')).toEqual([]);
      expect(later.every((e) => e.source === 'hold' || e.source === 'recovery')).toBe(true);
      await until(() => diagnostics.at(-1)!.status[0]!.level === 2, 5_000, 'policy link ERROR on /diagnostics');
      expect(diagnostics.at(-1)!.status[0]!.message).toMatch(/^policy unreachable, robot held/);
    } finally {
      server = await startPolicyServer(endpoint);
    }
    const back = events.length;
    await until(() => events.slice(back).some((e) => e.source === 'policy'), 30_000, 'the policy driving again once the server is back');
  }, 60_000);

  it('stops cleanly on SIGINT: the robot is held last, exit code 0, and the bag reads back as ROS 2 messages', async () => {
    const code = await zetta.stop('SIGINT');
    expect(code).toBe(0);
    await sleep(200);
    expect(moving(twists.at(-1)!.msg)).toBe(false);
    const { bag, steps } = JSON.parse(zetta.output.stdout.trim().split('\n').at(-1)!) as { bag: string; steps: number };
    expect(steps).toBeGreaterThan(0);
    const read = await readBag(bag);
    expect(read.profile).toBe('ros2');
    expect(read.topics).toEqual(
      expect.arrayContaining([
        TABLETOP_ROBOT_TOPICS.jointState,
        TABLETOP_ROBOT_TOPICS.pose,
        TABLETOP_ROBOT_TOPICS.twist,
        TABLETOP_ROBOT_TOPICS.gripper,
        `/${NODE}/events`,
        '/diagnostics',
      ]),
    );
    const recorded = await read.messages<TwistStamped>(TABLETOP_ROBOT_TOPICS.twist);
    expect(recorded.length).toBeGreaterThan(steps / 2);
    expect(recorded.some(moving)).toBe(true);
    expect(moving(recorded.at(-1)!)).toBe(false); // the shutdown's hold, recorded too
  }, 30_000);

  it('stops cleanly on SIGTERM too', async () => {
    const config = join(dir, 'term.json');
    const name = `${NODE}_term`;
    writeFileSync(config, JSON.stringify(simulatedRobotConfig(TASK, { node_name: name, policy: endpoint, recording: { enabled: false } })));
    const term = startZetta(['ros2', '--config', config]);
    await term.waitFor(new RegExp(`node /${name} running`), 60_000);
    const from = twists.length;
    await until(() => twists.length >= from + 10, 10_000, 'ten ticks');
    expect(await term.stop('SIGTERM')).toBe(0);
    expect(term.output.stderr).toMatch(/stopped after \d+ steps/);
  }, 90_000);
});
