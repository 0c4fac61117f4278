// An MCAP writer's sink: a file handle that counts the bytes written, as McapWriter asks for its
// position. Episode recordings and ROS 2 bags both write through it.
import type { FileHandle } from 'node:fs/promises';
import type { IWritable } from '@mcap/core';

export class FileWritable implements IWritable {
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
