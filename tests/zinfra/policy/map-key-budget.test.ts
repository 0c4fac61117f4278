// A request whose observation map carries hundreds of thousands of extra keys is refused (TOO_LARGE,
// the limit named) from its msgpack headers, before the server decodes or validates any of it: the
// count agrees with a full decode on arbitrary values, and it costs a fraction of that decode.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Dealer } from 'zeromq';
import { decode, encode } from '../../../protocol/codec.js';
import { decodeReply } from '../../../protocol/messages.js';
import { TrivialPolicy } from '../../../zinfra/policy/trivial/trivial-policy.js';
import { countMapKeys, DEFAULT_MAX_MAP_KEYS } from '../../../zinfra/policy/zmq/map-key-budget.js';
import { PolicyServer } from '../../../zinfra/policy/zmq/server.js';

const EXTRA_KEYS = 500_000;

/** Map keys of a decoded value, counted the slow way. */
function keysOf(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + keysOf(x), 0);
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return 0;
  return Object.values(v).reduce((n: number, x) => n + 1 + keysOf(x), 0);
}

let flooded: Buffer | undefined;
function floodedInfer(): Buffer {
  if (flooded) return flooded;
  const obs: Record<string, unknown> = { prompt: 'go' };
  for (let i = 0; i < EXTRA_KEYS; i++) obs[`k${i}`] = i;
  flooded = encode({ type: 'infer', id: 9, session_id: 's', episode_id: 'e', step: 0, deadline_ms: 1000, obs });
  return flooded;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('map keys counted before decoding', () => {
  it('agrees with a full decode on arbitrary msgpack values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const bytes = encode(value);
        expect(countMapKeys(bytes, Number.MAX_SAFE_INTEGER)).toBe(keysOf(decode(bytes)));
      }),
      { numRuns: 300 },
    );
  });

  it(`stops at the budget and costs less than unpacking a ${EXTRA_KEYS}-key observation`, () => {
    const frame = floodedInfer();
    let t = performance.now();
    expect(countMapKeys(frame, DEFAULT_MAX_MAP_KEYS)).toBe(DEFAULT_MAX_MAP_KEYS + 1);
    const countMs = performance.now() - t;
    t = performance.now();
    decode(frame); // msgpack alone, before any validation
    const decodeMs = performance.now() - t;
    process.stdout.write(`counting keys: ${countMs.toFixed(2)} ms; unpacking the frame: ${decodeMs.toFixed(0)} ms\n`);
    expect(countMs).toBeLessThan(decodeMs);
  });

  it('the policy server answers such a request TOO_LARGE, naming the limit', async () => {
    const server = await PolicyServer.start(new TrivialPolicy({ kind: 'open' }), { bind: 'tcp://127.0.0.1:*', log: () => undefined });
    cleanups.push(() => server.close());
    const dealer = new Dealer({ linger: 0 });
    cleanups.push(() => dealer.close());
    dealer.connect(server.endpoint);
    await dealer.send(floodedInfer());
    const [reply] = await dealer.receive();
    expect(decodeReply(reply!)).toMatchObject({
      type: 'error',
      code: 'TOO_LARGE',
      message: `more than ${DEFAULT_MAX_MAP_KEYS} map keys in one message (limit maxMapKeys)`,
    });
    expect(server.stats.requests).toBe(0); // never reached the scheduler
  });
});
