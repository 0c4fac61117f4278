// The hand checks of the two hot messages may only ever accept what the zod schemas accept, with
// the same result; and they must take the ordinary messages, or they save nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from '../../protocol/codec.js';
import { checkActionChunk, checkInfer, checkResult } from '../../protocol/hot-messages.js';
import { actionChunkSchema, encodeMessage, inferSchema, resultSchema } from '../../protocol/messages.js';
import { f32, ndarray, u8 } from '../../protocol/ndarray.js';

/** Valid values and the edges around them: each field is drawn from these. */
const anyNumber = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, -0, 2 ** 32 - 1, 2 ** 32, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-9),
  fc.double(),
);
const anyScalar = fc.oneof(anyNumber, fc.constantFrom('', 'x', 'x'.repeat(256), 'x'.repeat(257), null, true), fc.string({ maxLength: 4 }));
const anyArray = fc.oneof(
  fc.constant(u8([2, 2, 3], new Uint8Array(12).fill(7))),
  fc.constant(f32([8], new Float32Array(8).fill(0.5))),
  fc.constant(f32([10, 7], new Float32Array(70).fill(0.25))),
  fc.constant(f32([1, 2], Float32Array.of(0, Number.NaN))),
  fc.constant(f32([1, 2], Float32Array.of(Number.POSITIVE_INFINITY, 0))),
  fc.constant(f32([2, 1, 1], new Float32Array(2))),
  fc.constant(ndarray('<f8', [1, 2], new Float64Array(2))),
  fc.constant({ dtype: '<f4', shape: [1, 1], data: [0] }),
  fc.constant(new Uint8Array(3)),
);
const anyValue = fc.oneof(anyScalar, anyArray, fc.constant([]), fc.constant({}));
const anyMap = (values: fc.Arbitrary<unknown>) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom('observation/image', 'observation/state', 'prompt', 'a', '__proto__', 'constructor'), values, {
      maxKeys: 4,
    }),
    anyScalar,
    fc.constant([]),
  );
const maybe = <T>(valid: fc.Arbitrary<T>, weird: fc.Arbitrary<unknown> = anyValue) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: weird });

const inferLike = fc.record(
  {
    type: maybe(fc.constant('infer'), fc.constantFrom('result', 'hello', 1)),
    id: maybe(fc.integer({ min: 0, max: 2 ** 32 - 1 }), anyNumber),
    session_id: maybe(fc.string({ minLength: 1, maxLength: 8 }), anyScalar),
    episode_id: maybe(fc.string({ minLength: 1, maxLength: 8 }), anyScalar),
    step: maybe(fc.nat(), anyNumber),
    deadline_ms: maybe(fc.integer({ min: 1, max: 5000 }), anyNumber),
    obs: maybe(anyMap(fc.oneof(anyArray, fc.string())), anyMap(anyValue)),
    extra: anyValue,
  },
  { requiredKeys: [] },
);
const resultLike = fc.record(
  {
    type: maybe(fc.constant('result'), fc.constantFrom('infer', 'error', 0)),
    id: maybe(fc.integer({ min: 0, max: 2 ** 32 - 1 }), anyNumber),
    actions: anyArray,
    policy_timing: maybe(
      fc.dictionary(fc.constantFrom('infer_ms', 'x', '__proto__'), fc.double({ noNaN: true, noDefaultInfinity: true })),
      anyMap(anyNumber),
    ),
    server_timing: maybe(fc.dictionary(fc.constantFrom('queue_ms', 'total_ms', 'batch_size'), fc.nat()), anyMap(anyNumber)),
    extra: anyValue,
  },
  { requiredKeys: [] },
);

/** What the hand check accepted, the schema accepts with the same data. */
function agrees<T>(
  check: (v: unknown) => T | null,
  schema: { safeParse(v: unknown): { success: boolean; data?: unknown } },
  v: unknown,
): boolean {
  const fast = check(v);
  if (fast === null) return true;
  const slow = schema.safeParse(v);
  expect(
    slow.success,
    JSON.stringify(v, (_k, x: unknown) => (ArrayBuffer.isView(x) ? `<${x.constructor.name}>` : x)),
  ).toBe(true);
  expect(fast).toEqual(slow.data);
  return true;
}

describe('hand checks of the hot messages', () => {
  it('accept an infer request only as the schema does, with the same result', () => {
    fc.assert(
      fc.property(inferLike, (v) => agrees(checkInfer, inferSchema, v)),
      { numRuns: 3000, seed: 11 },
    );
  });

  it('accept a result only as the schema does, with the same result', () => {
    fc.assert(
      fc.property(resultLike, (v) => agrees(checkResult, resultSchema, v)),
      { numRuns: 3000, seed: 12 },
    );
  });

  it('pass an action chunk only when it is float32, two-dimensional and finite', () => {
    fc.assert(
      fc.property(anyArray, (v) => agrees(checkActionChunk, actionChunkSchema, v)),
      { numRuns: 500, seed: 13 },
    );
    expect(checkActionChunk(f32([1, 2], Float32Array.of(0, Number.NaN)))).toBeNull();
    expect(checkActionChunk(f32([10, 7], new Float32Array(70)))).not.toBeNull();
  });

  it('take the ordinary messages off the wire themselves', () => {
    const obs = {
      'observation/image': u8([224, 224, 3], new Uint8Array(224 * 224 * 3)),
      'observation/state': f32([8], new Float32Array(8)),
      prompt: 'open the drawer',
    };
    const infer = decode(encodeMessage({ type: 'infer', id: 7, session_id: 's', episode_id: 'e', step: 0, deadline_ms: 2000, obs }));
    expect(checkInfer(infer)).toEqual(inferSchema.parse(infer));
    const result = decode(
      encodeMessage({
        type: 'result',
        id: 7,
        actions: f32([10, 7], new Float32Array(70).fill(0.1)),
        policy_timing: { infer_ms: 0.3 },
        server_timing: { queue_ms: 0, total_ms: 0.5, batch_size: 1 },
      }),
    );
    expect(checkResult(result)).toEqual(resultSchema.parse(result));
  });

  it('leave a key that would set a prototype to the schema', () => {
    const obs = JSON.parse('{"__proto__": "x", "prompt": "p"}') as Record<string, unknown>;
    expect(checkInfer({ type: 'infer', id: 1, session_id: 's', episode_id: 'e', step: 0, deadline_ms: 1, obs })).toBeNull();
  });
});
