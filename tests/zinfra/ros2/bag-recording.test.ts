// An episode of the node is recorded as a ROS 2 bag in MCAP: profile ros2, every schema ros2msg,
// every message cdr, so Foxglove shows it as it shows a bag. Read back with @mcap/core and
// @foxglove/rosmsg2-serialization alone. The robot is the simulated tabletop on the in-memory graph
// (a test double).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McapIndexedReader, type McapTypes } from '@mcap/core';
import { parse } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import { afterAll, describe, expect, it } from 'vitest';
import { DECOMPRESS_HANDLERS } from '../../../zinfra/recording/chunk-compression.js';
import type { TwistStamped } from '../../../zinfra/ros2/messages.js';
import { nodeOnMemoryGraph } from './node-harness.js';
import { ScriptedPolicy } from './scripted-policy.js';
import { SIM_TOPICS, SimulatedTabletopRobot, simulatedRobotConfig } from './simulated-robot.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-ros2-bag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function recordEpisode(path: string, steps: number): Promise<void> {
  const h = nodeOnMemoryGraph(
    simulatedRobotConfig('spatial/left_cube_in_bowl'),
    new ScriptedPolicy([0.2, 0, -0.1, 0, 0, 0.1, -1]),
    'lockstep',
  );
  const robot = await SimulatedTabletopRobot.create(h.bus);
  try {
    const { objects, instruction } = await robot.reset({ task: 'spatial/left_cube_in_bowl', seed: 1000 });
    await h.node.beginEpisode({ objects, instruction, label: 'bag', recordPath: path });
    for (let i = 0; i < steps; i++) {
      robot.publishState(h.clock.now());
      await h.node.tick();
      robot.step();
      h.clock.advance(50);
    }
    expect(await h.node.endEpisode()).toBe(path);
  } finally {
    await robot.close();
  }
}

function readable(bytes: Uint8Array) {
  return {
    size: async () => BigInt(bytes.byteLength),
    read: async (offset: bigint, length: bigint) => bytes.subarray(Number(offset), Number(offset + length)),
  };
}

describe('ROS 2 bag recording (MCAP, ros2msg + cdr) of a node on the in-memory graph (test double)', () => {
  it('records inputs, commands, events and diagnostics in ROS 2 encodings that decode back', async () => {
    const path = join(dir, 'episode.mcap');
    await recordEpisode(path, 30);
    const reader = await McapIndexedReader.Initialize({ readable: readable(readFileSync(path)), decompressHandlers: DECOMPRESS_HANDLERS });
    expect(reader.header.profile).toBe('ros2');
    const schemas = [...reader.schemasById.values()];
    expect(schemas.every((s) => s.encoding === 'ros2msg')).toBe(true);
    expect(schemas.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'sensor_msgs/msg/JointState',
        'geometry_msgs/msg/TwistStamped',
        'diagnostic_msgs/msg/DiagnosticArray',
        'std_msgs/msg/String',
      ]),
    );
    const channels = [...reader.channelsById.values()];
    expect(channels.every((c) => c.messageEncoding === 'cdr')).toBe(true);
    expect(channels.map((c) => c.topic)).toEqual(
      expect.arrayContaining([
        SIM_TOPICS.jointState,
        SIM_TOPICS.pose,
        SIM_TOPICS.objects,
        SIM_TOPICS.twist,
        SIM_TOPICS.gripper,
        '/zetta/events',
        '/diagnostics',
      ]),
    );
    const twistChannel = channels.find((c) => c.topic === SIM_TOPICS.twist)!;
    const schema = reader.schemasById.get(twistChannel.schemaId)!;
    const decode = new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true }));
    const twists: { t: bigint; msg: TwistStamped }[] = [];
    for await (const m of reader.readMessages({ topics: [SIM_TOPICS.twist] }) as AsyncIterable<McapTypes.Message>)
      twists.push({ t: m.logTime, msg: decode.readMessage<TwistStamped>(m.data) });
    expect(twists.length).toBe(30);
    expect(twists[10]!.t - twists[9]!.t).toBe(50_000_000n); // one control period on the node clock
    expect(twists[10]!.msg.twist.linear.x).toBeCloseTo(0.2, 5); // 0.2 × 0.05 m over 50 ms
    expect(twists[10]!.msg.header.frame_id).toBe('world');
    const meta = [];
    for await (const m of reader.readMetadata()) meta.push(m);
    expect(meta.map((m) => m.name)).toEqual(['zetta.ros2.episode', 'zetta.ros2.summary']);
    expect(meta[1]!.metadata.get('steps')).toBe('30');
  });
});
