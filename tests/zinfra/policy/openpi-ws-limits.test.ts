// The openpi WebSocket server's memory per connection is bounded, over real sockets: a client that
// floods frames faster than they are answered is closed (1008) with the limit named, and one that
// never reads its replies is cut off once they pass the byte limit, instead of piling up in the server.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encode } from '../../../protocol/codec.js';
import { f32, type Observation } from '../../../protocol/ndarray.js';
import { OpenpiWebsocketServer } from '../../../zinfra/policy/openpi-ws/server.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../../zinfra/policy/policy.js';

/** Answers every observation with a large chunk (`horizon` × 7) after `delayMs`. */
class ChunkPolicy implements Policy {
  constructor(
    private readonly horizon: number,
    private readonly delayMs: number,
  ) {}
  async metadata(): Promise<PolicyMetadata> {
    return { policyId: 'chunk', modelVersion: 'v1', actionHorizon: this.horizon, actionDim: 7, observationKeys: ['prompt'] };
  }
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    return batch.map(() => ({ actions: f32([this.horizon, 7], new Float32Array(this.horizon * 7)), policyTiming: {} }));
  }
  async close(): Promise<void> {}
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(policy: Policy, options: ConstructorParameters<typeof OpenpiWebsocketServer>[1]) {
  const log: string[] = [];
  const server = new OpenpiWebsocketServer(policy, { ...options, log: (l) => log.push(l) });
  const port = await server.start({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => server.close());
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  cleanups.push(() => ws.terminate());
  const closed = new Promise<{ code: number; reason: string }>((r) =>
    ws.once('close', (code, reason) => r({ code, reason: reason.toString() })),
  );
  await new Promise((r) => ws.once('open', r));
  return { ws, log, closed };
}

const frame = encode({ prompt: 'go' }, { ndarrayKeys: 'bin' });

describe('openpi-ws per-connection limits', () => {
  it('a client with more than maxPendingFrames frames waiting is closed with 1008, the limit named', async () => {
    const { ws, log, closed } = await serve(new ChunkPolicy(10, 20), { maxPendingFrames: 4 });
    for (let i = 0; i < 50; i++) ws.send(frame);
    expect(await closed).toEqual({ code: 1008, reason: 'more than 4 frames waiting for an answer (limit maxPendingFrames 4)' });
    expect(log).toEqual(['openpi-ws: a client sent more than 4 frames waiting for an answer (limit maxPendingFrames 4): closed']);
  });

  it('a client that never reads its replies is cut off at maxBufferedBytes', async () => {
    const { ws, log, closed } = await serve(new ChunkPolicy(4096, 0), { maxBufferedBytes: 1 << 20 });
    (ws as unknown as { _socket: { pause(): void } })._socket.pause(); // reads nothing from here on
    const sending = setInterval(() => {
      if (ws.readyState === ws.OPEN) ws.send(frame);
    }, 1);
    cleanups.push(() => clearInterval(sending));
    await closed;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^openpi-ws: a client left \d+ bytes of replies unread \(limit maxBufferedBytes 1048576\): cut off$/);
  }, 60_000);
});
