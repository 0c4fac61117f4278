// A benchmark client in its own process: it connects to one transport, then times one round trip
// each time the parent asks. A process per transport keeps each client's garbage collection (the
// WebSocket client copies every frame to mask it) out of the other transports' samples, while the
// parent still interleaves the transports round by round.
import { Dealer } from 'zeromq';
import { PolicyClient } from '../zinfra/policy/zmq/client.js';
import { OpenpiWebsocketPolicy } from '../zinfra/policy/openpi-ws/policy.js';
import { encodeBenchRequest, liberoObservation } from './libero-observation.js';
import { countSelf, type Counts } from './process-counters.js';

export type ClientSpec =
  | { readonly kind: 'zmq'; readonly endpoint: string }
  | { readonly kind: 'raw_zmq'; readonly endpoint: string }
  | { readonly kind: 'ws'; readonly url: string };
/** A round to time; `mark` starts this process's counts (after the warm-up), `report` sends them. */
export type ToClient = { readonly round: number } | { readonly mark: true } | { readonly report: true } | { readonly stop: true };
export type FromClient = { readonly ready: true } | { readonly us: number } | { readonly counts: Counts } | { readonly error: string };

async function connect(spec: ClientSpec): Promise<{ roundTrip(step: number): Promise<void>; close(): Promise<void> }> {
  const observations = [liberoObservation(1), liberoObservation(2)];
  if (spec.kind === 'zmq') {
    const client = await PolicyClient.connect({ endpoint: spec.endpoint, timeoutMs: 10_000 });
    return {
      roundTrip: async (step) => void (await client.request(observations[step % 2]!, { episodeId: 'bench', step, deadlineMs: 5000 })),
      close: () => client.close(),
    };
  }
  if (spec.kind === 'raw_zmq') {
    // The same bytes as the zmq client's request, encoded once: only the sockets are measured.
    const frames = observations.map(encodeBenchRequest);
    const socket = new Dealer({ linger: 0 });
    socket.connect(spec.endpoint);
    return {
      roundTrip: async (step) => {
        await socket.send(frames[step % 2]!);
        await socket.receive();
      },
      close: async () => socket.close(),
    };
  }
  const client = new OpenpiWebsocketPolicy(spec.url, { healthCheck: false });
  await client.connect();
  return { roundTrip: async (step) => void (await client.infer([observations[step % 2]!])), close: () => client.close() };
}

if (process.send) {
  const send = (m: FromClient) => process.send!(m);
  const client = await connect(JSON.parse(process.argv[2]!) as ClientSpec).catch((err: Error) => {
    send({ error: err.message });
    process.exit(1);
  });
  let counting: ReturnType<typeof countSelf> | undefined;
  process.on('message', (m: ToClient) => {
    if ('stop' in m) {
      void client.close().then(() => process.disconnect());
      return;
    }
    if ('mark' in m) {
      counting = countSelf();
      return;
    }
    if ('report' in m) {
      if (counting) send({ counts: counting.stop() });
      else send({ error: 'asked for counts before they were started' });
      return;
    }
    const start = process.hrtime.bigint();
    client.roundTrip(m.round).then(
      () => send({ us: Number(process.hrtime.bigint() - start) / 1000 }),
      (err: Error) => send({ error: err.message }),
    );
  });
  send({ ready: true });
}
