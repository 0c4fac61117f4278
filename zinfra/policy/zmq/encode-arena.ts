// Reusable buffers for encoding large requests. ZeroMQ sends buffers without copying and keeps them
// until they are on the wire, so a buffer is only reused once the request it carried has provably
// arrived — its reply came back. A request that timed out or was lost keeps its buffer forever
// (the garbage collector takes it), never reused while ZeroMQ might still read it.
import { encodeInto } from '../../../protocol/codec.js';
import { writeHotMessage } from '../../../protocol/hot-wire.js';

export interface Lease {
  readonly bytes: Buffer;
  /** The arena buffer to give back on reply, or undefined if the message did not fit in one. */
  readonly slab: Buffer | undefined;
}

export class EncodeArena {
  private readonly free: Buffer[] = [];

  constructor(
    private readonly slabBytes = 1 << 20,
    private readonly maxFree = 8,
  ) {}

  encode(message: unknown): Lease {
    const slab = this.free.pop() ?? Buffer.allocUnsafeSlow(this.slabBytes);
    const bytes = writeHotMessage(message, slab) ?? encodeInto(message, slab);
    if (bytes.buffer === slab.buffer) return { bytes, slab };
    this.free.push(slab); // too large for a slab: encoded elsewhere, the slab is still unused
    return { bytes, slab: undefined };
  }

  /** The reply arrived: the peer has every byte, the slab can carry the next request. */
  release(lease: Lease): void {
    if (lease.slab && this.free.length < this.maxFree) this.free.push(lease.slab);
  }
}
