// An MCAP file written behind a control loop, for episode recordings and ROS 2 bags alike. It is
// created as `<path>.partial` and renamed into place only when finished, so a crash leaves a visibly
// incomplete file, never a truncated one that passes for complete. Writes run in order, each after
// every earlier one; after the first failure none runs, and finish() reports it.
import { mkdirSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { McapWriter, type IWritable } from '@mcap/core';
import { compressChunk, compressionReady } from './chunk-compression.js';

/** The writer's sink: the file handle, counting the bytes written (McapWriter asks for its position). */
class FileWritable implements IWritable {
  private offset = 0n;
  constructor(private readonly fh: FileHandle) {}
  async write(buffer: Uint8Array): Promise<unknown> {
    await this.fh.write(buffer);
    this.offset += BigInt(buffer.byteLength);
    return undefined;
  }
  position(): bigint {
    return this.offset;
  }
}

export class McapFile {
  private tail: Promise<void> = Promise.resolve();
  private failed: Error | undefined;

  private constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    readonly writer: McapWriter,
  ) {}

  static async open(path: string): Promise<McapFile> {
    mkdirSync(dirname(path), { recursive: true });
    await compressionReady();
    const fh = await open(`${path}.partial`, 'w');
    return new McapFile(path, fh, new McapWriter({ writable: new FileWritable(fh), chunkSize: 256 * 1024, compressChunk }));
  }

  /** Queues `job` after every earlier one; returns at once. A failure surfaces at finish(). */
  enqueue(job: () => Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.failed) return;
      try {
        await job();
      } catch (err) {
        this.failed = err as Error;
      }
    });
  }

  /** A value written in order (a schema's or a channel's id); the jobs that await it fail with it. */
  inOrder<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Writes `last` (the summary), ends the file and renames it into place; throws the first write failure. */
  async finish(last: () => Promise<void>): Promise<void> {
    this.enqueue(async () => {
      await last();
      await this.writer.end();
    });
    await this.tail;
    await this.fh.close();
    if (this.failed) throw this.failed;
    await rename(`${this.path}.partial`, this.path);
  }

  /** Ends the file without a summary (the run was interrupted); it stays a `.partial`. */
  async abandon(): Promise<void> {
    this.enqueue(() => this.writer.end());
    await this.tail;
    await this.fh.close();
  }
}
