// One request, one reply, with the env server: a REQ socket (or a DEALER with the empty delimiter
// frame), a deadline per request, and the connection's own events to tell a server that went away
// from one that is merely slow. After any failure the socket is thrown away and the next request
// opens a fresh one, so a late reply to an abandoned request can never be taken for the answer to
// the next one (and a REQ socket is never left waiting for a reply that will not come).
//
// Each request carries its own id in the envelope (REQ's `correlate`, or a frame of our own before
// the DEALER's delimiter; a REP server echoes the envelope as it is). A reply that answers an earlier
// request (a server that answered twice) is discarded, never read as the answer to this one; a reply
// without the envelope is refused.
//
// A server that went away between two requests took its episode with it, even if one is listening
// again by now (ZeroMQ reconnects by itself): a `step` after that fails at once instead of reaching
// a fresh server that never saw the reset. Only a new session (spec, reset, close) starts over.
import * as zmq from 'zeromq';
import { decode, encode } from '../../protocol/codec.js';
import { ProtocolError } from '../../protocol/errors.js';
import { timerDelay } from '../../util/timer-delay.js';
import type { RemoteEnvEndpoint } from './endpoint.js';
import { RemoteEnvReplyError, RemoteEnvUnavailable } from './errors.js';

type Sock = zmq.Request | zmq.Dealer;

/** Where a DEALER's reply comes from: [request id, delimiter, reply], the envelope REP echoes. */
const DEALER_REPLY_FRAMES = 3;

/** Between two sends of a request whose connection dropped. */
const RESEND_PAUSE_MS = 100;

export class EnvSocket {
  private socket: Sock | null = null;
  /** Set by the socket's disconnect event while a request waits: the server went away. */
  private dropped: (() => void) | null = null;
  /** The connection dropped since the last request was answered. */
  private lost = false;
  /** The id of the next DEALER request (REQ numbers its own). */
  private nextRequestId = 1;
  /** Replies to earlier requests discarded during the current one. */
  private staleReplies = 0;

  constructor(private readonly endpoint: RemoteEnvEndpoint) {}

  /**
   * Sends `{op, ...fields}` and resolves with the decoded reply, or throws RemoteEnvUnavailable /
   * RemoteEnvReplyError. A spec, reset or close whose connection drops is sent again on a fresh
   * socket until the deadline (a server being restarted drops connections while it goes down); a
   * step is not, since the episode it belongs to died with the server.
   */
  async request(op: string, fields: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      try {
        return await this.attempt(op, fields, Math.max(1, deadline - performance.now()), timeoutMs);
      } catch (err) {
        const dropped = err instanceof RemoteEnvUnavailable && err.reason === 'disconnected';
        if (!dropped || op === 'step' || deadline - performance.now() <= RESEND_PAUSE_MS) throw err;
        await new Promise((r) => setTimeout(r, RESEND_PAUSE_MS));
      }
    }
  }

  private async attempt(op: string, fields: Record<string, unknown>, leftMs: number, timeoutMs: number): Promise<unknown> {
    if (this.lost) {
      this.discard();
      if (op === 'step')
        throw this.unavailable(op, 'disconnected', `closed the connection before "${op}" (did the server exit?); its episode is gone`);
    }
    const socket = this.open();
    this.staleReplies = 0;
    let timer: NodeJS.Timeout | undefined;
    const failure = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const stale = this.staleReplies > 0 ? ` (${this.staleReplies} replies to earlier requests discarded)` : '';
        reject(this.unavailable(op, 'timeout', `did not answer "${op}" within ${timeoutMs} ms${stale}`));
      }, timerDelay(leftMs));
      this.dropped = () => reject(this.unavailable(op, 'disconnected', `closed the connection during "${op}" (did the server exit?)`));
    });
    try {
      const reply = await Promise.race([this.exchange(op, socket, encode({ op, ...fields })), failure]);
      return decodeReply(op, reply);
    } catch (err) {
      this.discard();
      throw err;
    } finally {
      clearTimeout(timer);
      this.dropped = null;
    }
  }

  close(): void {
    this.discard();
  }

  private async exchange(op: string, socket: Sock, frame: Buffer): Promise<Uint8Array> {
    if (this.endpoint.socket === 'req') {
      // REQ with `correlate` drops replies that do not carry the id of the request it waits for.
      await socket.send(frame);
      const [reply] = await socket.receive();
      return reply!;
    }
    const id = Buffer.alloc(4);
    id.writeUInt32BE(this.nextRequestId);
    this.nextRequestId = (this.nextRequestId % 0xffff_ffff) + 1;
    await socket.send([id, Buffer.alloc(0), frame]);
    for (;;) {
      const frames = await socket.receive();
      if (frames.length !== DEALER_REPLY_FRAMES || frames[1]!.byteLength !== 0 || frames[0]!.byteLength !== id.byteLength) {
        throw new RemoteEnvReplyError(
          op,
          '',
          `a reply of ${frames.length} frames without the request's envelope (its id and the empty delimiter, echoed as REP does)`,
        );
      }
      if (frames[0]!.equals(id)) return frames[2]!;
      this.staleReplies++; // the answer to an earlier request, sent again: not ours
    }
  }

  private open(): Sock {
    if (this.socket) return this.socket;
    const socket = this.endpoint.socket === 'dealer' ? new zmq.Dealer({ linger: 0 }) : new zmq.Request({ linger: 0, correlate: true });
    socket.events.on('disconnect', () => {
      if (this.socket !== socket) return;
      this.lost = true;
      this.dropped?.();
    });
    socket.connect(this.endpoint.address);
    this.socket = socket;
    return socket;
  }

  private discard(): void {
    const socket = this.socket;
    this.socket = null;
    // A receive still pending on the closed socket rejects; nobody is waiting for it any more.
    if (socket && !socket.closed) socket.close();
    this.lost = false;
  }

  private unavailable(op: string, reason: 'timeout' | 'disconnected', what: string): RemoteEnvUnavailable {
    return new RemoteEnvUnavailable(op, reason, `env server ${this.endpoint.address} ${what}`);
  }
}

function decodeReply(op: string, bytes: Uint8Array): unknown {
  try {
    return decode(bytes);
  } catch (err) {
    if (err instanceof ProtocolError) throw new RemoteEnvReplyError(op, '', err.message);
    throw err;
  }
}
