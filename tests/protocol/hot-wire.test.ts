// The direct reader and writer of the hot messages may only ever read and write what the generic
// codec does, and must take the messages Zetta's peers send, or they save nothing.
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../protocol/codec.js';
import { readHotMessage, writeHotMessage } from '../../protocol/hot-wire.js';
import { encodeMessage } from '../../protocol/messages.js';
import { f32, ndarray, u8 } from '../../protocol/ndarray.js';

/** Either the reader declines, or it reads exactly what the generic codec reads. */
function agrees(bytes: Uint8Array): void {
  const hot = readHotMessage(bytes);
  if (hot === null) return;
  let generic: unknown;
  expect(() => (generic = decode(bytes))).not.toThrow();
  expect(hot).toEqual(generic);
}

const scalar = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }),
  fc.constantFrom(0, -1, 127, 128, 255, 256, 65535, 65536, -32, -33, -129, 2 ** 40, -(2 ** 40), 0.5, Number.NaN, Number.POSITIVE_INFINITY),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.boolean(),
  fc.uint8Array({ maxLength: 300 }),
);
const array = fc.oneof(
  fc.constant(u8([2, 3], new Uint8Array(6).fill(9))),
  fc.constant(f32([10, 7], new Float32Array(70).fill(0.25))),
  fc.constant(ndarray('<f8', [2], Float64Array.of(1, Number.NaN))),
  fc.constant(ndarray('<i4', [0, 3], new Int32Array(0))),
);
const key = fc.oneof(
  fc.constantFrom('type', 'id', 'obs', 'shape', 'data', 'dtype', '__ndarray__', '__proto__', 'constructor'),
  fc.string({ maxLength: 20 }),
);
const tree = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, array, tie('map')),
  map: fc.dictionary(key, tie('value'), { maxKeys: 8 }),
})).map;

const obs = (side = 224) => ({
  'observation/image': u8([side, side, 3], new Uint8Array(side * side * 3).fill(3)),
  'observation/state': f32([8], Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8)),
  prompt: 'put the cube in the bowl',
});
const infer = (side = 224) =>
  encodeMessage({ type: 'infer', id: 7, session_id: 'session', episode_id: 'ep-1', step: 12, deadline_ms: 2000, obs: obs(side) });
const result = () =>
  encodeMessage({
    type: 'result',
    id: 4_000_000_000,
    actions: f32([10, 7], new Float32Array(70).fill(-0.5)),
    policy_timing: { infer_ms: 0.31 },
    server_timing: { queue_ms: 0, total_ms: 0.75, batch_size: 3 },
  });

describe('the direct reader of the hot messages', () => {
  it('reads an infer request and a result exactly as the generic codec does', () => {
    for (const bytes of [infer(), result()]) {
      expect(readHotMessage(bytes)).not.toBeNull();
      agrees(bytes);
    }
  });

  it('reads any value tree either as the generic codec does or not at all', () => {
    fc.assert(
      fc.property(tree, (t) => agrees(encode(t))),
      { numRuns: 2000, seed: 21 },
    );
  });

  it('declines the binary keys openpi writes, and maps with repeated keys', () => {
    expect(readHotMessage(encode({ obs: obs() }, { ndarrayKeys: 'bin' }))).toBeNull();
    const packr = new Packr({ useRecords: false, variableMapSize: true });
    const proto = packr.pack(
      new Map<unknown, unknown>([
        ['__proto__', 1],
        ['b', new Map([['__proto__', 'x']])],
      ]),
    );
    expect(readHotMessage(proto)).not.toBeNull();
    agrees(proto);
    // four keys, as an array's map has, one of them "__proto__" holding bytes
    agrees(
      packr.pack(
        new Map<unknown, unknown>([
          [
            'a',
            new Map<unknown, unknown>([
              ['__proto__', Buffer.from('xy')],
              ['__ndarray__', true],
              ['dtype', '|u1'],
              ['shape', [2]],
            ]),
          ],
        ]),
      ),
    );
    agrees(
      packr.pack(
        new Map<unknown, unknown>([
          [
            'a',
            new Map<unknown, unknown>([
              ['__proto__', Buffer.from('xy')],
              ['data', Buffer.from('xy')],
              ['dtype', '|u1'],
              ['shape', [2]],
            ]),
          ],
        ]),
      ),
    );
    const repeated = new Packr({ useRecords: false, variableMapSize: true }).pack(
      new Map<unknown, unknown>([
        ['a', 1],
        [Buffer.from('a'), 2],
      ]),
    );
    expect(readHotMessage(repeated)).toBeNull();
    agrees(repeated);
  });

  it('declines every truncation of an infer request, and declines or agrees on damaged bytes', () => {
    const bytes = infer(4); // the layout of a real request, with images small enough to compare quickly
    for (let n = 0; n < bytes.length; n++) expect(readHotMessage(bytes.subarray(0, n))).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: bytes.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, byte) => {
        const damaged = Buffer.from(bytes);
        damaged[at] = byte;
        agrees(damaged);
      }),
      { numRuns: 3000, seed: 22 },
    );
  });
});

/** Either the writer declines, or the generic codec reads back from it what it reads from its own bytes. */
function writesAsGeneric(value: unknown, target?: Buffer): void {
  const hot = writeHotMessage(value, target);
  if (hot === null) return;
  expect(decode(hot)).toEqual(decode(encode(value)));
}

describe('the direct writer of the hot messages', () => {
  it('writes an infer request and a result the generic codec reads back unchanged', () => {
    const request = { type: 'infer', id: 7, session_id: 'session', episode_id: 'ep-1', step: 12, deadline_ms: 2000, obs: obs() };
    const reply = {
      type: 'result',
      id: 4_000_000_000,
      actions: f32([10, 7], new Float32Array(70).fill(-0.5)),
      policy_timing: { infer_ms: 0.31 },
      server_timing: { queue_ms: 0, total_ms: 0.75, batch_size: 3 },
    };
    for (const m of [request, reply]) {
      expect(writeHotMessage(m)).not.toBeNull();
      writesAsGeneric(m);
      expect(readHotMessage(writeHotMessage(m)!)).toEqual(decode(encodeMessage(m as never)));
    }
  });

  it('writes into the target when the message fits, and into fresh memory when it does not', () => {
    const target = Buffer.alloc(1024);
    const small = writeHotMessage({ type: 'ping', id: 1, t: 5 }, target)!;
    expect(small.buffer).toBe(target.buffer);
    const large = writeHotMessage({ type: 'infer', obs: obs(32) }, target)!;
    expect(large.buffer).not.toBe(target.buffer);
    expect(decode(large)).toEqual(decode(encode({ type: 'infer', obs: obs(32) })));
  });

  it('writes any value tree as the generic codec reads it, or declines', () => {
    fc.assert(
      fc.property(tree, (t) => writesAsGeneric(t)),
      { numRuns: 2000, seed: 23 },
    );
    fc.assert(
      fc.property(tree, (t) => writesAsGeneric(t, Buffer.alloc(64))),
      { numRuns: 500, seed: 24 },
    );
  });

  it('declines what it does not write: lists, null, NaN, 64-bit integers, lone surrogates, raw typed arrays', () => {
    for (const v of [
      { a: [1, 2] },
      { a: null },
      { a: Number.NaN },
      { a: 2 ** 40 },
      { a: 'x\uD800' },
      { a: new Float32Array(2) },
      'top-level string',
    ]) {
      expect(writeHotMessage(v), JSON.stringify(v)).toBeNull();
    }
  });
});
