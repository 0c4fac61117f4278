// A REP env server whose answers a test chooses, op by op (a real socket in the test's process):
// for bad replies, refusals and stalls. Ops it is not told about get a well-formed reply.
import * as zmq from 'zeromq';
import { decode, encode } from '../../../protocol/codec.js';
import { f32, u8 } from '../../../protocol/ndarray.js';

export type Answer = Record<string, unknown> | 'stall';
export type Handler = (request: Record<string, unknown>) => Answer;

export const SPEC = {
  name: 'toy',
  suites: { s: ['t'] },
  action_dim: 7,
  control_hz: 20,
  max_steps: { s: 10 },
  observation: { 'observation/state': { dtype: '<f4', shape: [8] }, 'observation/image': { dtype: '|u1', shape: [2, 2, 3] } },
  features: [{ name: 'observed.gap', unit: 'm', kind: 'number', provenance: 'observed', meaning: 'a gap' }],
};
export const obs = () => ({ 'observation/state': f32([8], new Float32Array(8)), 'observation/image': u8([2, 2, 3], new Uint8Array(12)) });
export const GOOD: Record<string, () => Record<string, unknown>> = {
  spec: () => ({ ok: true, spec: SPEC }),
  reset: () => ({ ok: true, obs: obs(), info: { reset_digest: 'd1', instruction: 'do t' } }),
  step: () => ({ ok: true, obs: obs(), reward: 0, done: false, info: { success: false, features: { 'observed.gap': 0.1 } } }),
  close: () => ({ ok: true }),
};

/** A REP env server whose answers the test chooses; unanswered ops get the well-formed reply. */
export class ScriptedServer {
  readonly requests: Record<string, unknown>[] = [];
  private constructor(
    private readonly socket: zmq.Reply,
    readonly endpoint: string,
    private readonly handler: Handler,
  ) {
    void this.serve();
  }

  static async start(handler: Handler = () => 'stall', bind = 'tcp://127.0.0.1:*'): Promise<ScriptedServer> {
    const socket = new zmq.Reply({ linger: 0 });
    // A socket closed a moment ago may still hold the port (ZeroMQ closes in the background).
    for (let attempt = 0; ; attempt++) {
      try {
        await socket.bind(bind);
        break;
      } catch (err) {
        if (attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    return new ScriptedServer(socket, socket.lastEndpoint!, handler);
  }

  spec(extra = ''): string {
    return `${this.endpoint.replace('tcp:', 'zmq:')}?timeout_ms=400&reset_timeout_ms=400${extra}`;
  }

  private async serve(): Promise<void> {
    try {
      for await (const [frame] of this.socket) {
        const request = decode(frame!) as Record<string, unknown>;
        this.requests.push(request);
        const answer = this.handler(request);
        if (answer === 'stall') continue; // never answers; REP then serves nobody else, as a hung server would
        await this.socket.send(encode(answer));
      }
    } catch {
      // closed
    }
  }

  close(): void {
    this.socket.close();
  }
}
