// Records an episode of the node as an MCAP file that Foxglove opens as it opens a ROS 2 bag:
// profile `ros2`, every schema `ros2msg` (pkg/msg/Type with its dependencies), every message `cdr`.
// Inputs, commands, ~/events and /diagnostics are recorded under their topic names; log times are
// the node clock's. A message is encoded when it is recorded (the node reuses its message objects)
// and written behind the control loop, in order; the file is `<path>.partial` until close().
import { mkdirSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { McapWriter } from '@mcap/core';
import { compressChunk, compressionReady } from '../recording/chunk-compression.js';
import { codecFor } from './message-definitions.js';
import { FileWritable } from '../recording/file-writable.js';


interface Channel {
  id: Promise<number>;
  sequence: number;
}

export class BagRecorder {
  private tail: Promise<void>;
  private failed: Error | undefined;
  private closed = false;
  private readonly channels = new Map<string, Channel>();
  private readonly schemas = new Map<string, Promise<number>>();

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    private readonly writer: McapWriter,
    metadata: Readonly<Record<string, string>>,
  ) {
    this.tail = (async () => {
      await writer.start({ profile: 'ros2', library: 'zetta' });
      await writer.addMetadata({ name: 'zetta.ros2.episode', metadata: new Map(Object.entries(metadata)) });
    })();
  }

  static async create(path: string, metadata: Readonly<Record<string, string>>): Promise<BagRecorder> {
    mkdirSync(dirname(path), { recursive: true });
    await compressionReady();
    const fh = await open(`${path}.partial`, 'w');
    return new BagRecorder(path, fh, new McapWriter({ writable: new FileWritable(fh), chunkSize: 256 * 1024, compressChunk }), metadata);
  }

  /** Encodes `message` now and queues it; returns at once. A write failure surfaces at close(). */
  record(topic: string, type: string, message: unknown, timeMs: number): void {
    if (this.closed) return;
    const codec = codecFor(type);
    const data = codec.writer.writeMessage(message);
    const channel = this.channel(topic, type);
    const sequence = channel.sequence++;
    const time = BigInt(Math.max(0, Math.round(timeMs * 1e6)));
    this.enqueue(async () => {
      await this.writer.addMessage({ channelId: await channel.id, sequence, logTime: time, publishTime: time, data });
    });
  }

  async close(summary: Readonly<Record<string, string>>): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.enqueue(async () => {
      await this.writer.addMetadata({ name: 'zetta.ros2.summary', metadata: new Map(Object.entries(summary)) });
      await this.writer.end();
    });
    await this.tail;
    await this.fh.close();
    if (this.failed) throw this.failed;
    await rename(`${this.path}.partial`, this.path);
  }

  private channel(topic: string, type: string): Channel {
    const key = `${topic}\u0000${type}`;
    let c = this.channels.get(key);
    if (!c) {
      const schemaId = this.schema(type);
      const id = this.tail.then(async () => this.writer.registerChannel({ topic, schemaId: await schemaId, messageEncoding: 'cdr', metadata: new Map() }));
      this.tail = id.then(() => undefined, () => undefined);
      c = { id, sequence: 0 };
      this.channels.set(key, c);
    }
    return c;
  }

  private schema(type: string): Promise<number> {
    let s = this.schemas.get(type);
    if (!s) {
      const codec = codecFor(type);
      s = this.tail.then(() => this.writer.registerSchema({ name: codec.schemaName, encoding: 'ros2msg', data: new TextEncoder().encode(codec.schemaText) }));
      this.tail = s.then(() => undefined, () => undefined);
      this.schemas.set(type, s);
    }
    return s;
  }

  private enqueue(job: () => Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.failed) return;
      try {
        await job();
      } catch (err) {
        this.failed = err as Error;
      }
    });
  }
}
