// The policy server's replies, with memory bounded per peer. A client that sends and never reads
// must not make the server hold its replies: each peer's outgoing queue holds at most
// `peerSendLimit` messages (ZeroMQ's send high-water mark), and a reply that finds it full is
// dropped, counted, and told on the server's log with the limit named. Nothing waits for a slow
// peer (send never blocks: sendTimeout 0), so one deaf client neither grows the server nor delays
// the replies to the others. zeromq.js allows one send in progress per socket (a second one fails
// with EBUSY), so sends are chained; each settles at once, so the chain never grows.
import type { Router } from 'zeromq';

/** Replies one peer may have waiting in the server before more are dropped. */
export const DEFAULT_PEER_SEND_LIMIT = 1000;

/** Peers whose drops the log keeps count of; beyond this the oldest is forgotten (memory stays bounded). */
const TRACKED_PEERS = 1024;

export interface ReplySenderStats {
  sent: number;
  /** Replies dropped because their peer's queue was full. */
  dropped: number;
  /** Replies to peers that had gone (nothing to do: the request left with them). */
  unroutable: number;
}

/** The socket options that make every send immediate: a full peer fails at once instead of waiting. */
export function routerSendOptions(peerSendLimit: number) {
  return { sendHighWaterMark: peerSendLimit, sendTimeout: 0, mandatory: true } as const;
}

export class ReplySender {
  readonly stats: ReplySenderStats = { sent: 0, dropped: 0, unroutable: 0 };
  /** Drops per peer since its last reply got through (logged at 1, 10, 100, ...). */
  private readonly dropsByPeer = new Map<string, number>();
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: Router,
    private readonly peerSendLimit: number,
    private readonly log: (line: string) => void,
  ) {}

  send(route: Buffer[], payload: Buffer): void {
    if (this.socket.closed) return;
    this.tail = this.tail.then(() =>
      this.socket.closed
        ? undefined
        : this.socket.send([...route, payload]).then(
            () => this.delivered(route),
            (err: unknown) => this.failed(route, err),
          ),
    );
  }

  /** Resolves once every reply queued so far was handed to ZeroMQ or dropped. */
  flushed(): Promise<void> {
    return this.tail;
  }

  private delivered(route: Buffer[]): void {
    this.stats.sent++;
    if (this.dropsByPeer.size > 0) this.dropsByPeer.delete(peerName(route));
  }

  private failed(route: Buffer[], err: unknown): void {
    const code = (err as { code?: unknown } | null)?.code;
    if (code !== 'EAGAIN') {
      this.stats.unroutable++; // EHOSTUNREACH: the peer left; anything else after close is moot
      return;
    }
    this.stats.dropped++;
    const peer = peerName(route);
    const drops = (this.dropsByPeer.get(peer) ?? 0) + 1;
    this.dropsByPeer.delete(peer); // re-inserted last: the map's order is the eviction order
    if (this.dropsByPeer.size >= TRACKED_PEERS) this.dropsByPeer.delete(this.dropsByPeer.keys().next().value!);
    this.dropsByPeer.set(peer, drops);
    if (isPowerOfTen(drops)) {
      this.log(
        `policy server: peer ${peer} does not read its replies: ${drops} dropped past its limit of ${this.peerSendLimit} waiting replies (peerSendLimit)`,
      );
    }
  }
}

function peerName(route: Buffer[]): string {
  return route[0]?.toString('hex') ?? '?';
}

function isPowerOfTen(n: number): boolean {
  while (n >= 10 && n % 10 === 0) n /= 10;
  return n === 1;
}
