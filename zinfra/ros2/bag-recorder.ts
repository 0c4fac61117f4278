// Records an episode of the node as an MCAP file that Foxglove opens as it opens a ROS 2 bag:
// profile `ros2`, every schema `ros2msg` (pkg/msg/Type with its dependencies), every message `cdr`.
// Inputs, commands, ~/events and /diagnostics are recorded under their topic names; log times are
// the node clock's. A message is encoded when it is recorded (the node reuses its message objects)
// and written behind the control loop, in order; the file is `<path>.partial` until close().
import type { McapWriter } from '@mcap/core';
import { McapFile } from '../recording/mcap-file.js';
import { codecFor } from './message-definitions.js';

interface Channel {
  id: Promise<number>;
  sequence: number;
}

export class BagRecorder {
  private closed = false;
  private readonly channels = new Map<string, Channel>();
  private readonly schemas = new Map<string, Promise<number>>();
  private readonly writer: McapWriter;

  private constructor(
    private readonly file: McapFile,
    metadata: Readonly<Record<string, string>>,
  ) {
    const writer = (this.writer = file.writer);
    file.enqueue(async () => {
      await writer.start({ profile: 'ros2', library: 'zetta' });
      await writer.addMetadata({ name: 'zetta.ros2.episode', metadata: new Map(Object.entries(metadata)) });
    });
  }

  static async create(path: string, metadata: Readonly<Record<string, string>>): Promise<BagRecorder> {
    return new BagRecorder(await McapFile.open(path), metadata);
  }

  get path(): string {
    return this.file.path;
  }

  /** Encodes `message` now and queues it; returns at once. A write failure surfaces at close(). */
  record(topic: string, type: string, message: unknown, timeMs: number): void {
    if (this.closed) return;
    const codec = codecFor(type);
    const data = codec.writer.writeMessage(message);
    const channel = this.channel(topic, type);
    const sequence = channel.sequence++;
    const time = BigInt(Math.max(0, Math.round(timeMs * 1e6)));
    this.file.enqueue(async () => {
      await this.writer.addMessage({ channelId: await channel.id, sequence, logTime: time, publishTime: time, data });
    });
  }

  async close(summary: Readonly<Record<string, string>>): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.file.finish(() => this.writer.addMetadata({ name: 'zetta.ros2.summary', metadata: new Map(Object.entries(summary)) }));
  }

  private channel(topic: string, type: string): Channel {
    const key = `${topic}\u0000${type}`;
    let c = this.channels.get(key);
    if (!c) {
      const schemaId = this.schema(type);
      const id = this.file.inOrder(async () =>
        this.writer.registerChannel({ topic, schemaId: await schemaId, messageEncoding: 'cdr', metadata: new Map() }),
      );
      c = { id, sequence: 0 };
      this.channels.set(key, c);
    }
    return c;
  }

  private schema(type: string): Promise<number> {
    let s = this.schemas.get(type);
    if (!s) {
      const codec = codecFor(type);
      s = this.file.inOrder(() =>
        this.writer.registerSchema({ name: codec.schemaName, encoding: 'ros2msg', data: new TextEncoder().encode(codec.schemaText) }),
      );
      this.schemas.set(type, s);
    }
    return s;
  }
}
