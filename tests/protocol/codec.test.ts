import { describe, expect, it } from 'vitest';
import { Packr } from 'msgpackr';
import { decode, encode } from '../../protocol/codec.js';
import { ProtocolError } from '../../protocol/errors.js';
import { f32, isNdArray, ndarray, u8, type NdArray } from '../../protocol/ndarray.js';

const plain = new Packr({ useRecords: false, mapsAsObjects: false });
const bin = (s: string) => Buffer.from(s, 'utf8');

describe('ndarray codec (openpi msgpack_numpy convention)', () => {
  it('round-trips every dtype with its values and shape', () => {
    const arrays: NdArray[] = [
      u8([2, 3], Uint8Array.from([0, 1, 2, 253, 254, 255])),
      ndarray('|b1', [3], Uint8Array.from([1, 0, 1])),
      ndarray('<i4', [2], Int32Array.from([-7, 2 ** 31 - 1])),
      ndarray('<i8', [2], BigInt64Array.from([-1n, 2n ** 62n])),
      f32([1, 2], Float32Array.from([1.5, -2.25])),
      ndarray('<f8', [2], Float64Array.from([Math.PI, -0])),
    ];
    const back = decode(encode({ arrays })) as { arrays: NdArray[] };
    back.arrays.forEach((a, i) => {
      expect(a.dtype).toBe(arrays[i]!.dtype);
      expect(a.shape).toEqual(arrays[i]!.shape);
      expect(Array.from(a.data as ArrayLike<unknown>)).toEqual(Array.from(arrays[i]!.data as ArrayLike<unknown>));
    });
  });

  it('keeps a "__proto__" key of user data as a key on the wire', () => {
    const info = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as Record<string, unknown>;
    const back = decode(encode({ info })) as { info: Record<string, unknown> };
    expect(Object.keys(back.info).sort()).toEqual(['__proto__', 'a']);
    expect(back.info['__proto__']).toEqual(Object.assign(Object.create(null) as object, { x: 1 }));
    // a typed array under that key used to become the map's prototype and make the encoder throw
    expect(() => encode({ info: JSON.parse('{"__proto__": 1}') as object, data: { ['__proto__']: 1 } })).not.toThrow();
  });

  it('writes array keys as msgpack bin when asked, as openpi expects', () => {
    const bytes = encode({ a: f32([1], Float32Array.of(1)) }, { ndarrayKeys: 'bin' });
    const raw = plain.unpack(bytes) as Map<unknown, Map<unknown, unknown>>;
    const keys = [...raw.get('a')!.keys()];
    expect(keys.every((k) => k instanceof Uint8Array)).toBe(true);
    expect(keys.map((k) => Buffer.from(k as Uint8Array).toString())).toEqual(['__ndarray__', 'data', 'dtype', 'shape']);
  });

  it('reads arrays whose keys arrive as bin (from a Python peer)', () => {
    const data = Buffer.from(Float32Array.of(3, 4).buffer);
    const bytes = plain.pack(
      new Map([
        [
          bin('x'),
          new Map<unknown, unknown>([
            [bin('__ndarray__'), true],
            [bin('data'), data],
            [bin('dtype'), '<f4'],
            [bin('shape'), [2]],
          ]),
        ],
      ]),
    );
    const v = decode(bytes) as { x: NdArray };
    expect(isNdArray(v.x)).toBe(true);
    expect(Array.from(v.x.data as Float32Array)).toEqual([3, 4]);
  });

  it('copies misaligned float bytes instead of throwing', () => {
    // A one-byte string before the array shifts its bytes off a 4-byte boundary inside the frame.
    const bytes = encode({ s: 'x', a: f32([3], Float32Array.of(1, 2, 3)) });
    const v = decode(bytes) as { a: NdArray<'<f4'> };
    expect(Array.from(v.a.data)).toEqual([1, 2, 3]);
  });

  it.each([
    ['an unknown dtype', { __ndarray__: true, data: Buffer.alloc(4), dtype: '>f4', shape: [1] }, /dtype/],
    [
      'a shape that does not match the bytes',
      { __ndarray__: true, data: Buffer.alloc(12), dtype: '<f4', shape: [2, 2] },
      /needs 16 bytes, got 12/,
    ],
    ['a negative dimension', { __ndarray__: true, data: Buffer.alloc(0), dtype: '|u1', shape: [-1] }, /non-negative/],
    ['data that is not bytes', { __ndarray__: true, data: 'abc', dtype: '|u1', shape: [3] }, /bytes/],
  ])('rejects %s with a typed error', (_name, arr, message) => {
    const bytes = plain.pack({ a: arr });
    expect(() => decode(bytes)).toThrowError(ProtocolError);
    expect(() => decode(bytes)).toThrowError(message);
  });

  it('rejects bytes that are not msgpack with MALFORMED', () => {
    try {
      decode(Uint8Array.of(0xc1));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).code).toBe('MALFORMED');
    }
  });

  it('rejects absurd nesting instead of recursing without bound', () => {
    let v: unknown = 1;
    for (let i = 0; i < 100; i++) v = [v];
    expect(() => decode(plain.pack(v))).toThrowError(/deeper/);
  });
});
