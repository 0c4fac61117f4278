// Serves any Policy the way openpi's websocket_policy_server.py does, so openpi clients (the LIBERO,
// ALOHA and DROID examples, WebsocketClientPolicy) can drive a Zetta-served policy, and so the
// transport benchmark has an openpi-style WebSocket baseline.
//
// Per connection: one binary msgpack metadata frame first; then each binary msgpack observation is
// answered with `{actions, policy_timing, server_timing: {infer_ms, prev_total_ms?}}`, one at a time,
// in order. Arrays go out with bin keys, since openpi's msgpack_numpy looks up b"__ndarray__". Any
// failure (undecodable frame, bad observation, backend throw, non-finite actions) is answered as
// openpi does: a text frame with the error's stack, then close 1011. GET /healthz answers "OK".
//
// Memory is bounded per connection: a client that sends frames faster than they are answered (more
// than `maxPendingFrames` waiting) is closed with 1008, and one that does not read its replies (more
// than `maxBufferedBytes` of them unsent) is cut off; either way the server's log names the limit.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { decode, encode } from '../../../protocol/codec.js';
import { ProtocolError } from '../../../protocol/errors.js';
import { metadataToOpenpi, readActions, readObservation } from './wire.js';
import type { Policy } from '../policy.js';

export interface OpenpiWebsocketServerOptions {
  /** Largest observation frame accepted; a bigger one closes the connection (1009). Default 64 MiB. */
  readonly maxMessageBytes?: number;
  /** Extra keys for the metadata frame (openpi configs publish e.g. `reset_pose`). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Observation frames one connection may have waiting for an answer. Default 16. */
  readonly maxPendingFrames?: number;
  /** Reply bytes one connection may leave unread before it is cut off. Default 16 MiB. */
  readonly maxBufferedBytes?: number;
  /** Where a connection closed for breaking a limit is told; default stderr. */
  readonly log?: (line: string) => void;
}

export interface OpenpiListenOptions {
  /** Default 127.0.0.1 (openpi binds 0.0.0.0; exposing a policy is the caller's choice). */
  readonly host?: string;
  /** Default 8000, openpi's port; 0 picks a free one. */
  readonly port?: number;
}

const CLOSE_REASON = 'Internal server error. Traceback included in previous frame.';
export const DEFAULT_MAX_PENDING_FRAMES = 16;
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** WebSocket close code for a peer that broke the server's policy (here: a limit). */
const POLICY_VIOLATION = 1008;

export class OpenpiWebsocketServer {
  private http: http.Server | null = null;
  private wss: WebSocketServer | null = null;
  private metadataFrame: Buffer | null = null;

  constructor(
    private readonly policy: Policy,
    private readonly options: OpenpiWebsocketServerOptions = {},
  ) {}

  /** Starts listening; resolves to the bound port. */
  async start({ host = '127.0.0.1', port = 8000 }: OpenpiListenOptions = {}): Promise<number> {
    if (this.http) throw new Error('OpenpiWebsocketServer already started');
    const meta = await this.policy.metadata();
    this.metadataFrame = encode(metadataToOpenpi(meta, this.options.metadata), { ndarrayKeys: 'bin' });
    const server = http.createServer(healthz);
    const wss = new WebSocketServer({
      server,
      perMessageDeflate: false,
      maxPayload: this.options.maxMessageBytes ?? 64 * 1024 * 1024,
    });
    wss.on('connection', (ws) => this.serve(ws));
    this.http = server;
    this.wss = wss;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  }

  /** Closes every connection (1001) and stops listening. */
  async close(): Promise<void> {
    const { http: server, wss } = this;
    this.http = null;
    this.wss = null;
    if (!server || !wss) return;
    for (const ws of wss.clients) ws.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    for (const ws of wss.clients) ws.terminate();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private serve(ws: WebSocket): void {
    ws.send(this.metadataFrame!);
    // Frames are answered one at a time, in arrival order, as openpi's recv → infer → send loop does.
    let chain = Promise.resolve();
    let failed = false;
    let prevTotalMs: number | undefined;
    let pending = 0;
    const maxPending = this.options.maxPendingFrames ?? DEFAULT_MAX_PENDING_FRAMES;
    ws.on('error', () => undefined); // a broken socket is closed by ws; nothing to answer
    ws.on('message', (data, isBinary) => {
      const received = performance.now();
      if (failed) return;
      if (++pending > maxPending) {
        failed = true;
        this.refuse(ws, `more than ${maxPending} frames waiting for an answer (limit maxPendingFrames ${maxPending})`);
        return;
      }
      chain = chain.then(async () => {
        pending--;
        if (failed || ws.readyState !== ws.OPEN) return;
        try {
          const reply = await this.answer(data as Buffer, isBinary, prevTotalMs);
          if (this.unread(ws)) {
            failed = true;
            return;
          }
          ws.send(reply, { binary: true });
          // openpi's prev_total_ms also counts the wait for the frame; here it runs from arrival to send.
          prevTotalMs = performance.now() - received;
        } catch (err) {
          failed = true;
          ws.send(traceback(err));
          ws.close(1011, CLOSE_REASON);
        }
      });
    });
  }

  /** True (and the connection cut off) when the client has left too many replies unread. */
  private unread(ws: WebSocket): boolean {
    const limit = this.options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    if (ws.bufferedAmount <= limit) return false;
    this.log(`openpi-ws: a client left ${ws.bufferedAmount} bytes of replies unread (limit maxBufferedBytes ${limit}): cut off`);
    ws.terminate(); // a close frame would queue behind what it does not read
    return true;
  }

  private refuse(ws: WebSocket, why: string): void {
    this.log(`openpi-ws: a client sent ${why}: closed`);
    ws.close(POLICY_VIOLATION, why.slice(0, 123));
  }

  private log(line: string): void {
    (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  private async answer(frame: Buffer, isBinary: boolean, prevTotalMs: number | undefined): Promise<Buffer> {
    if (!isBinary) throw new ProtocolError('MALFORMED', 'expected a binary msgpack frame, got text');
    const obs = readObservation(decode(frame));
    const t0 = performance.now();
    const [result] = await this.policy.infer([obs]);
    const inferMs = performance.now() - t0;
    if (!result) throw new Error('the policy returned no result');
    // Non-finite or misshapen actions are never forwarded: the client gets the error instead.
    const actions = readActions(result.actions);
    const serverTiming: Record<string, number> = { infer_ms: inferMs };
    if (prevTotalMs !== undefined) serverTiming.prev_total_ms = prevTotalMs;
    return encode({ actions, policy_timing: result.policyTiming, server_timing: serverTiming }, { ndarrayKeys: 'bin' });
  }
}

/** openpi answers GET /healthz with "OK"; anything else that is not a WebSocket upgrade gets 426. */
function healthz(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = (req.url ?? '').split('?')[0];
  if (path === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('OK\n');
    return;
  }
  res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' }).end('Upgrade Required\n');
}

/** The text frame openpi sends on failure is Python's traceback; here, the error's stack. */
function traceback(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
