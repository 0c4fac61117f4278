import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../protocol/codec.js';
import { ProtocolError } from '../../protocol/errors.js';
import { decodeReply, decodeRequest, encodeMessage, replySchema, requestSchema } from '../../protocol/messages.js';
import { f32, u8 } from '../../protocol/ndarray.js';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProtocolError);
    return (err as ProtocolError).code;
  }
  throw new Error('expected a ProtocolError');
};

describe('protocol messages', () => {
  it('round-trips an infer request with a LIBERO-sized observation', () => {
    const image = u8([224, 224, 3], new Uint8Array(224 * 224 * 3).fill(7));
    const req = {
      type: 'infer' as const,
      id: 42,
      session_id: 's',
      episode_id: 'e',
      step: 3,
      deadline_ms: 500,
      obs: { 'observation/image': image, 'observation/state': f32([8], new Float32Array(8).fill(0.5)), prompt: 'open the drawer' },
    };
    const back = decodeRequest(encodeMessage(req));
    expect(back.type).toBe('infer');
    if (back.type !== 'infer') return;
    expect(back.obs.prompt).toBe('open the drawer');
    expect((back.obs['observation/image'] as typeof image).shape).toEqual([224, 224, 3]);
    expect(back.step).toBe(3);
  });

  it('rejects a result whose actions are not finite, with NON_FINITE_ACTIONS', () => {
    const bad = encode({
      type: 'result',
      id: 1,
      actions: f32([1, 2], Float32Array.of(0, Number.NaN)),
      policy_timing: {},
      server_timing: {},
    });
    expect(codeOf(() => decodeReply(bad))).toBe('NON_FINITE_ACTIONS');
    const inf = encode({ type: 'result', id: 1, actions: f32([1, 2], Float32Array.of(Infinity, 0)), policy_timing: {}, server_timing: {} });
    expect(codeOf(() => decodeReply(inf))).toBe('NON_FINITE_ACTIONS');
  });

  it('rejects actions that are not a float32 matrix', () => {
    const bad = encode({ type: 'result', id: 1, actions: f32([2], Float32Array.of(0, 1)), policy_timing: {}, server_timing: {} });
    expect(codeOf(() => decodeReply(bad))).toBe('MALFORMED');
  });

  it('names an unknown message type as UNSUPPORTED and a missing field as MALFORMED', () => {
    expect(codeOf(() => decodeRequest(encode({ type: 'teleport', id: 1 })))).toBe('UNSUPPORTED');
    const noStep = encode({ type: 'infer', id: 1, session_id: 's', episode_id: 'e', deadline_ms: 5, obs: {} });
    expect(() => decodeRequest(noStep)).toThrowError(/step/);
  });

  it('accepts an error reply with a null id', () => {
    const r = decodeReply(encode({ type: 'error', id: null, code: 'MALFORMED', message: 'x', retryable: false }));
    expect(r).toMatchObject({ type: 'error', id: null, code: 'MALFORMED' });
  });

  it('validates each type with its own schema exactly as the discriminated unions do (2,000 cases each)', () => {
    const id = fc.oneof(fc.integer({ min: -2, max: 2 ** 32 + 1 }), fc.double(), fc.constant(null));
    const text = fc.oneof(fc.string({ maxLength: 4 }), fc.integer());
    const obs = fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string(), fc.constant(f32([1], Float32Array.of(1))), fc.integer()), {
      maxKeys: 3,
    });
    const value = (types: readonly string[]) =>
      fc.record(
        {
          type: fc.oneof(fc.constantFrom(...types), fc.string({ maxLength: 3 }), fc.integer()),
          id,
          protocol: fc.integer(),
          session_id: text,
          episode_id: text,
          step: fc.integer({ min: -1, max: 3 }),
          deadline_ms: fc.double(),
          obs,
          t: fc.double(),
          code: fc.constantFrom('MALFORMED', 'NOPE'),
          message: text,
          retryable: fc.boolean(),
          actions: fc.constant(f32([1, 1], Float32Array.of(0.5))),
          policy_timing: fc.constant({}),
          server_timing: fc.constant({}),
        },
        { requiredKeys: ['type'] },
      );
    let acceptedCount = 0;
    const agrees =
      (decodeFn: (b: Uint8Array) => unknown, union: { safeParse(v: unknown): { success: boolean } }) => (v: Record<string, unknown>) => {
        let accepted = true;
        try {
          decodeFn(encode(v));
        } catch (err) {
          if (!(err instanceof ProtocolError)) throw err;
          accepted = false;
        }
        if (accepted) acceptedCount++;
        return accepted === union.safeParse(decode(encode(v))).success;
      };
    fc.assert(fc.property(value(['hello', 'infer', 'episode_start', 'episode_end', 'ping']), agrees(decodeRequest, requestSchema)), {
      numRuns: 2_000,
      seed: 23,
    });
    fc.assert(fc.property(value(['metadata', 'result', 'error', 'ack', 'pong']), agrees(decodeReply, replySchema)), {
      numRuns: 2_000,
      seed: 29,
    });
    expect(acceptedCount).toBeGreaterThan(100); // the property saw valid messages, not only rejections
  });
});
