// Fuzzing the boundary: whatever bytes arrive, decoding ends quickly in a value or a ProtocolError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Packr } from 'msgpackr';
import { Dealer } from 'zeromq';
import { PolicyServer } from '../../zinfra/policy/zmq/server.js';
import { ProtocolError } from '../../protocol/errors.js';
import { decodeReply, decodeRequest, encodeMessage } from '../../protocol/messages.js';
import { f32, u8 } from '../../protocol/ndarray.js';
import { ScriptedPolicy, stateObservation } from '../support/scripted-policy.js';

const validFrames: Buffer[] = [
  encodeMessage({
    type: 'infer',
    id: 1,
    session_id: 's',
    episode_id: 'e',
    step: 0,
    deadline_ms: 50,
    obs: {
      'observation/image': u8([4, 4, 3], new Uint8Array(48).fill(9)),
      'observation/state': f32([8], new Float32Array(8)),
      prompt: 'p',
    },
  }),
  encodeMessage({
    type: 'result',
    id: 2,
    actions: f32([2, 7], new Float32Array(14).fill(0.1)),
    policy_timing: { infer_ms: 1 },
    server_timing: {},
  }),
  encodeMessage({ type: 'hello', id: 0, protocol: 1 }),
  encodeMessage({ type: 'error', id: 3, code: 'OVERLOADED', message: 'busy', retryable: true }),
];

/** Decoding must either succeed or throw a ProtocolError; any other throw fails the property. */
function decodesOrThrowsTyped(bytes: Uint8Array): boolean {
  for (const decodeFn of [decodeRequest, decodeReply]) {
    try {
      decodeFn(bytes);
    } catch (err) {
      if (!(err instanceof ProtocolError)) throw err;
    }
  }
  return true;
}

const mutation = fc.record({
  frame: fc.integer({ min: 0, max: validFrames.length - 1 }),
  edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
  truncateTo: fc.option(fc.nat()),
});

describe('decoder fuzzing', () => {
  it('random bytes never produce an untyped error (5,000 cases)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 512 }), decodesOrThrowsTyped), { numRuns: 5_000, seed: 7 });
  });

  it('mutated and truncated valid frames never produce an untyped error (5,000 cases)', () => {
    fc.assert(
      fc.property(mutation, ({ frame, edits, truncateTo }) => {
        const bytes = Uint8Array.from(validFrames[frame]!);
        for (const [pos, value] of edits) bytes[pos % bytes.length] = value;
        const cut = truncateTo === null ? bytes : bytes.subarray(0, truncateTo % (bytes.length + 1));
        return decodesOrThrowsTyped(cut);
      }),
      { numRuns: 5_000, seed: 11 },
    );
  });

  it('structurally valid msgpack of arbitrary shape never produces an untyped error (2,000 cases)', () => {
    const packr = new Packr({ useRecords: false });
    const anyValue = fc.anything({ withBigInt: false, withTypedArray: true, withMap: true, withSet: false, withDate: false, maxDepth: 4 });
    const messageLike = fc.record({
      type: fc.constantFrom('infer', 'result', 'hello', 'error', 'ping', 'x'),
      id: fc.oneof(fc.integer(), fc.double()),
      obs: anyValue,
      actions: anyValue,
    });
    fc.assert(
      fc.property(fc.oneof(anyValue, messageLike), (v) => decodesOrThrowsTyped(packr.pack(v))),
      { numRuns: 2_000, seed: 13 },
    );
  });

  it('still decodes the valid frames it mutates (the fuzzer starts from real messages)', () => {
    expect(decodeRequest(validFrames[0]!).type).toBe('infer');
    expect(decodeReply(validFrames[1]!).type).toBe('result');
  });
});

describe('a live server under fuzzed frames', () => {
  it('answers 500 garbage frames with 500 typed errors and then serves a valid request', async () => {
    const server = await PolicyServer.start(new ScriptedPolicy(), { bind: 'tcp://127.0.0.1:0' });
    const raw = new Dealer({ linger: 0 });
    raw.connect(server.endpoint);
    const frames = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 256 }), { numRuns: 500, seed: 17 });
    for (const f of frames) await raw.send(Buffer.from(f));
    const codes = new Set<string>();
    for (let i = 0; i < frames.length; i++) {
      const reply = decodeReply((await raw.receive())[0]!);
      expect(reply.type).toBe('error');
      if (reply.type === 'error') codes.add(reply.code);
    }
    expect([...codes].every((c) => ['MALFORMED', 'UNSUPPORTED'].includes(c))).toBe(true);
    await raw.send(
      encodeMessage({
        type: 'infer',
        id: 99,
        session_id: 's',
        episode_id: 'e',
        step: 0,
        deadline_ms: 1000,
        obs: stateObservation([1, 2, 3, 4, 5, 6, 7, 8]),
      }),
    );
    expect(decodeReply((await raw.receive())[0]!)).toMatchObject({ type: 'result', id: 99 });
    raw.close();
    await server.close();
  });
});
