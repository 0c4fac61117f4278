import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../protocol/codec.js';
import { u8 } from '../../protocol/ndarray.js';
import { EncodeArena } from '../../zinfra/policy/zmq/encode-arena.js';

const message = (fill: number, bytes = 1000) => ({ type: 'x', image: u8([bytes], new Uint8Array(bytes).fill(fill)) });

describe('EncodeArena', () => {
  it('reuses a slab only after its request was released', () => {
    const arena = new EncodeArena(64 * 1024);
    const a = arena.encode(message(1));
    const b = arena.encode(message(2));
    expect(a.slab).toBeDefined();
    expect(b.slab!.buffer).not.toBe(a.slab!.buffer); // a is still in flight: never shared
    arena.release(a);
    const c = arena.encode(message(3));
    expect(c.slab!.buffer).toBe(a.slab!.buffer);
    // b's bytes are untouched by c's encoding
    expect((decode(b.bytes) as { image: { data: Uint8Array } }).image.data[0]).toBe(2);
  });

  it('encodes a message larger than a slab elsewhere and keeps the slab', () => {
    const arena = new EncodeArena(4 * 1024);
    const big = arena.encode(message(7, 10_000));
    expect(big.slab).toBeUndefined();
    expect((decode(big.bytes) as { image: { data: Uint8Array } }).image.data.length).toBe(10_000);
  });

  it('leaves the shared encoder off the slab, so reusing the slab never overwrites another message', () => {
    const arena = new EncodeArena(64 * 1024);
    const first = arena.encode(message(5));
    const ping = encode({ type: 'ping', id: 0, t: 1 }); // encoded after: must not live in the slab
    const snapshot = Buffer.from(ping);
    arena.release(first);
    arena.encode(message(6, 60_000)); // fills the reused slab end to end
    expect(ping.buffer).not.toBe(first.slab!.buffer);
    expect(Buffer.compare(ping, snapshot)).toBe(0);
  });
});
