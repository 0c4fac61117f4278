// Reads a node's ROS 2 bag (MCAP, ros2msg schemas, cdr messages) back with @mcap/core and
// @foxglove/rosmsg2-serialization alone, as Foxglove would: its profile, topics, and any topic's
// messages decoded, with the time each was recorded at.
import { readFileSync } from 'node:fs';
import { parse } from '@foxglove/rosmsg';
import { MessageReader } from '@foxglove/rosmsg2-serialization';
import { McapIndexedReader, type McapTypes } from '@mcap/core';
import { DECOMPRESS_HANDLERS } from '../../../zinfra/recording/chunk-compression.js';

export interface ReadBag {
  readonly profile: string;
  readonly topics: string[];
  messages<T>(topic: string): Promise<T[]>;
  /** The messages with the node-clock time each was recorded at (ms). */
  records<T>(topic: string): Promise<{ readonly logTimeMs: number; readonly message: T }[]>;
}

export async function readBag(path: string): Promise<ReadBag> {
  const bytes = readFileSync(path);
  const reader = await McapIndexedReader.Initialize({
    readable: {
      size: async () => BigInt(bytes.byteLength),
      read: async (offset: bigint, length: bigint) => bytes.subarray(Number(offset), Number(offset + length)),
    },
    decompressHandlers: DECOMPRESS_HANDLERS,
  });
  const channels = [...reader.channelsById.values()];
  return {
    profile: reader.header.profile,
    topics: channels.map((c) => c.topic),
    async messages<T>(topic: string) {
      return (await records<T>(topic)).map((r) => r.message);
    },
    records,
  };

  async function records<T>(topic: string) {
    const channel = channels.find((c) => c.topic === topic);
    if (!channel) throw new Error(`${path} has no topic ${topic}`);
    const schema = reader.schemasById.get(channel.schemaId)!;
    const decode = new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true }));
    const out: { logTimeMs: number; message: T }[] = [];
    for await (const m of reader.readMessages({ topics: [topic] }) as AsyncIterable<McapTypes.Message>)
      out.push({ logTimeMs: Number(m.logTime) / 1e6, message: decode.readMessage<T>(m.data) });
    return out;
  }
}
