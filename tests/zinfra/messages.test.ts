import { describe, expect, it } from 'vitest';
import { encode } from '../../zinfra/protocol/codec.js';
import { ProtocolError } from '../../zinfra/protocol/errors.js';
import { decodeReply, decodeRequest, encodeMessage } from '../../zinfra/protocol/messages.js';
import { f32, u8 } from '../../zinfra/protocol/ndarray.js';

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
    const bad = encode({ type: 'result', id: 1, actions: f32([1, 2], Float32Array.of(0, Number.NaN)), policy_timing: {}, server_timing: {} });
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
});
