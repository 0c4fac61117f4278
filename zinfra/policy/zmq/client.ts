// PolicyClient: talks to a Zetta policy server over a ZeroMQ DEALER socket.
//
// Several requests may be in flight; each has an id and its own deadline. A lost server is seen at
// once through the socket's disconnect events; a hung one through silence (liveness.ts: any frame is
// life, only silence while this client was listening counts, and the timeout stretches with the
// measured round trip, so a busy machine does not pass for a dead server). A connection refused at
// connect time fails the connect quickly instead of waiting out its timeout. When the server is
// lost, every pending request fails at once with PolicyUnavailable (well before its deadline), new
// requests fail fast, and the client rebuilds its socket and says hello again with exponential
// backoff until the server answers. A fresh socket also discards requests queued for
// the dead server, so a returning server never serves stale observations.
import { randomUUID } from 'node:crypto';
import { Dealer } from 'zeromq';
import { timerDelay } from '../../../util/timer-delay.js';
import {
  PROTOCOL_VERSION,
  decodeReply,
  encodeMessage,
  salvageId,
  type Reply,
  type Request,
  type WireMetadata,
} from '../../../protocol/messages.js';
import type { ProtocolError } from '../../../protocol/errors.js';
import type { NdArray, Observation } from '../../../protocol/ndarray.js';
import { ClientClosed, DeadlineExceeded, PolicyUnavailable, RemoteError } from '../errors.js';
import type { Policy, PolicyMetadata, PolicyResult, Timing } from '../policy.js';
import { EncodeArena, type Lease } from './encode-arena.js';
import { Liveness } from './liveness.js';
import { SendQueue } from './send-queue.js';

export interface PolicyClientOptions {
  /** e.g. `tcp://127.0.0.1:5555` or `ipc:///tmp/zetta.sock`. */
  readonly endpoint: string;
  readonly sessionId?: string;
  /** Deadline of a request that names none. */
  readonly defaultDeadlineMs?: number;
  readonly heartbeatIntervalMs?: number;
  /** Silence while listening longer than this (or than 8 round trips) means the server is hung. */
  readonly heartbeatTimeoutMs?: number;
  readonly reconnectInitialMs?: number;
  readonly reconnectMaxMs?: number;
}

export interface ConnectOptions extends PolicyClientOptions {
  /** How long to wait for the server's metadata (default 5000 ms). */
  readonly timeoutMs?: number;
  /** Give up sooner when every connection attempt for this long was refused (default 1000 ms). */
  readonly refusedTimeoutMs?: number;
}

export interface RequestContext {
  readonly episodeId: string;
  readonly step: number;
  readonly deadlineMs?: number;
}

export interface InferReply extends PolicyResult {
  readonly serverTiming: Timing;
  /** Client-measured time from send to reply. */
  readonly roundTripMs: number;
}

export type ClientState = 'connecting' | 'ready' | 'unavailable' | 'closed';

interface Pending {
  resolve(reply: Reply): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  lease: Lease;
}

const DEFAULTS = {
  defaultDeadlineMs: 2000,
  heartbeatIntervalMs: 100,
  heartbeatTimeoutMs: 3000,
  reconnectInitialMs: 50,
  reconnectMaxMs: 2000,
};

export class PolicyClient implements Policy {
  readonly sessionId: string;
  private readonly opts: typeof DEFAULTS & { endpoint: string };
  private socket!: Dealer;
  private sender!: SendQueue;
  private readonly pending = new Map<number, Pending>();
  private readonly arena = new EncodeArena();
  private nextId = 1;
  private readonly liveness: Liveness;
  /** When the connection attempts began to be refused, while none has succeeded since. */
  private refusedSince: number | undefined;
  private refusedTimeoutMs = Infinity;
  private backoffMs: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private meta: WireMetadata | undefined;
  private metaWaiters: Array<{ resolve(m: WireMetadata): void; reject(e: Error): void }> = [];
  private stateNow: ClientState = 'connecting';
  private inferCounter = 0;

  private constructor(options: PolicyClientOptions) {
    this.opts = { ...DEFAULTS, ...stripUndefined(options), endpoint: options.endpoint };
    this.sessionId = options.sessionId ?? randomUUID();
    this.backoffMs = this.opts.reconnectInitialMs;
    this.liveness = new Liveness({ intervalMs: this.opts.heartbeatIntervalMs, timeoutMs: this.opts.heartbeatTimeoutMs });
  }

  /** Connects and waits for the server's metadata (or fails with PolicyUnavailable after `timeoutMs`). */
  static async connect(options: ConnectOptions): Promise<PolicyClient> {
    const client = new PolicyClient(options);
    client.refusedTimeoutMs = options.refusedTimeoutMs ?? 1000;
    client.openSocket();
    client.heartbeat = setInterval(() => client.tick(), client.opts.heartbeatIntervalMs);
    client.heartbeat.unref();
    try {
      await client.waitForMetadata(options.timeoutMs ?? 5000);
    } catch (err) {
      await client.close();
      throw err;
    }
    return client;
  }

  get state(): ClientState {
    return this.stateNow;
  }

  /** Resolves once the server has answered the handshake (at once when ready); PolicyUnavailable after timeoutMs. */
  async ready(timeoutMs: number): Promise<void> {
    await this.waitForMetadata(timeoutMs);
  }

  get inFlight(): number {
    return this.pending.size;
  }

  async metadata(): Promise<PolicyMetadata> {
    const m = this.meta ?? (await this.waitForMetadata(this.opts.defaultDeadlineMs));
    return {
      policyId: m.policy_id,
      modelVersion: m.model_version,
      actionHorizon: m.action_horizon,
      actionDim: m.action_dim,
      observationKeys: m.observation_keys,
      ...(m.extra ? { extra: m.extra } : {}),
    };
  }

  /** Asks for one action chunk. Rejects with PolicyUnavailable, DeadlineExceeded, RemoteError or ClientClosed. */
  async request(obs: Observation, ctx: RequestContext): Promise<InferReply> {
    const deadlineMs = ctx.deadlineMs ?? this.opts.defaultDeadlineMs;
    const sentAt = performance.now();
    const reply = await this.call(
      (id) => ({
        type: 'infer',
        id,
        session_id: this.sessionId,
        episode_id: ctx.episodeId,
        step: ctx.step,
        deadline_ms: deadlineMs,
        obs,
      }),
      deadlineMs,
    );
    if (reply.type !== 'result') throw unexpected(reply);
    const roundTripMs = performance.now() - sentAt;
    this.liveness.observeRoundTrip(roundTripMs); // a server that takes long to answer is slow, not gone
    return {
      actions: reply.actions as NdArray<'<f4'>,
      policyTiming: reply.policy_timing,
      serverTiming: reply.server_timing,
      roundTripMs,
    };
  }

  /** The Policy interface: each observation goes out as its own request, all in flight together. */
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    const step = this.inferCounter++;
    return Promise.all(batch.map((obs, i) => this.request(obs, { episodeId: `batch-${step}`, step: i })));
  }

  async episodeStart(episodeId: string, info?: Record<string, unknown>): Promise<void> {
    await this.call(
      (id) => ({ type: 'episode_start', id, session_id: this.sessionId, episode_id: episodeId, info }),
      this.opts.defaultDeadlineMs,
    );
  }

  async episodeEnd(episodeId: string, info?: Record<string, unknown>): Promise<void> {
    await this.call(
      (id) => ({ type: 'episode_end', id, session_id: this.sessionId, episode_id: episodeId, info }),
      this.opts.defaultDeadlineMs,
    );
  }

  async close(): Promise<void> {
    if (this.stateNow === 'closed') return;
    this.stateNow = 'closed';
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnectTimer);
    this.failAll(() => new ClientClosed());
    for (const w of this.metaWaiters.splice(0)) w.reject(new ClientClosed());
    this.socket.close();
  }

  private call(build: (id: number) => Request, deadlineMs: number): Promise<Reply> {
    if (this.stateNow === 'closed') return Promise.reject(new ClientClosed());
    if (this.stateNow !== 'ready') {
      return Promise.reject(new PolicyUnavailable(`policy server at ${this.opts.endpoint} is ${this.stateNow}`));
    }
    const id = this.allocateId();
    let lease: Lease;
    try {
      lease = this.arena.encode(build(id));
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<Reply>((resolve, reject) => {
      // setImmediate runs after pending I/O: a reply already in the socket when a late timer fires wins.
      const timer = setTimeout(
        () =>
          setImmediate(() => {
            if (this.pending.get(id)?.timer !== timer) return;
            this.pending.delete(id);
            reject(new DeadlineExceeded(deadlineMs));
          }),
        timerDelay(deadlineMs),
      );
      this.pending.set(id, { resolve, reject, timer, lease });
      this.sender.send([lease.bytes]);
    }).then((reply) => {
      if (reply.type === 'error') throw new RemoteError(reply.code, reply.message, reply.retryable);
      return reply;
    });
  }

  private allocateId(): number {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffff_ffff ? 1 : this.nextId + 1;
    return id;
  }

  private openSocket(): void {
    const socket = new Dealer({ linger: 0, receiveHighWaterMark: 0, sendHighWaterMark: 0 });
    socket.connect(this.opts.endpoint);
    socket.events.on('disconnect', () => {
      if (socket === this.socket) this.markUnavailable('connection lost');
    });
    socket.events.on('connect', () => {
      if (socket === this.socket) this.refusedSince = undefined;
    });
    socket.events.on('connect:retry', () => {
      if (socket === this.socket) this.refusedSince ??= performance.now();
    });
    this.socket = socket;
    this.sender = new SendQueue(socket, (err) => this.markUnavailable(`send failed: ${err.message}`));
    this.liveness.reset();
    void this.receiveLoop(socket);
    this.sendHello();
  }

  private sendHello(): void {
    this.sender.send([encodeMessage({ type: 'hello', id: 0, protocol: PROTOCOL_VERSION })]);
  }

  private async receiveLoop(socket: Dealer): Promise<void> {
    try {
      for await (const frames of socket) {
        const frame = frames[frames.length - 1];
        if (frame) this.onFrame(frame);
      }
    } catch {
      // The socket was closed under the loop (close or reconnect): nothing to do.
    }
  }

  private onFrame(frame: Buffer): void {
    this.liveness.heard();
    let reply: Reply;
    try {
      reply = decodeReply(frame);
    } catch (err) {
      // A reply we cannot read fails the request it names, if any; otherwise it is dropped.
      this.failOne(frame, err as ProtocolError);
      return;
    }
    if (reply.type === 'metadata') return this.onMetadata(reply.metadata);
    if (reply.type === 'pong') return this.liveness.observeRoundTrip(Date.now() - reply.t);
    if (reply.id === null) return;
    const p = this.pending.get(reply.id);
    if (!p) return; // late reply to a request that already timed out
    this.pending.delete(reply.id);
    clearTimeout(p.timer);
    this.arena.release(p.lease); // answered, so the server has the whole request
    p.resolve(reply);
  }

  private failOne(frame: Buffer, err: ProtocolError): void {
    const id = salvageId(frame);
    const p = id === null ? undefined : this.pending.get(id);
    if (!p || id === null) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    this.arena.release(p.lease);
    p.reject(new RemoteError(err.code, err.message, false));
  }

  private onMetadata(m: WireMetadata): void {
    this.meta = m;
    this.stateNow = 'ready';
    this.backoffMs = this.opts.reconnectInitialMs;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    for (const w of this.metaWaiters.splice(0)) w.resolve(m);
  }

  private tick(): void {
    if (this.stateNow === 'connecting') return this.checkRefused();
    if (this.stateNow !== 'ready') return;
    if (this.liveness.tick(performance.now())) {
      // Judge only after reading what the socket already holds (setImmediate runs after pending I/O).
      setImmediate(() => {
        const { silenceMs, timeoutMs } = this.liveness;
        if (this.stateNow === 'ready' && silenceMs > timeoutMs)
          this.markUnavailable(`silent for ${Math.round(silenceMs)} ms (timeout ${Math.round(timeoutMs)} ms)`);
      });
      return;
    }
    this.sender.send([encodeMessage({ type: 'ping', id: 0, t: Date.now() })]);
  }

  /** While connecting: nobody listening (every attempt refused for a while) fails the wait now. */
  private checkRefused(): void {
    if (this.refusedSince === undefined || performance.now() - this.refusedSince < this.refusedTimeoutMs) return;
    const err = new PolicyUnavailable(
      `policy server at ${this.opts.endpoint} is unreachable: connection refused for ${Math.round(this.refusedTimeoutMs)} ms`,
    );
    for (const w of this.metaWaiters.splice(0)) w.reject(err);
  }

  private markUnavailable(reason: string): void {
    if (this.stateNow === 'closed' || this.stateNow === 'unavailable') return;
    this.stateNow = 'unavailable';
    this.failAll(() => new PolicyUnavailable(`policy server at ${this.opts.endpoint} unavailable: ${reason}`));
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stateNow === 'closed' || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.stateNow === 'ready' || this.stateNow === 'closed') return;
      this.socket.close();
      this.openSocket();
      this.backoffMs = Math.min(this.backoffMs * 2, this.opts.reconnectMaxMs);
      this.scheduleReconnect();
    }, this.backoffMs);
    this.reconnectTimer.unref();
  }

  private waitForMetadata(timeoutMs: number): Promise<WireMetadata> {
    if (this.meta && this.stateNow === 'ready') return Promise.resolve(this.meta);
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (m: WireMetadata) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.metaWaiters = this.metaWaiters.filter((w) => w !== waiter);
        reject(new PolicyUnavailable(`no policy server answered at ${this.opts.endpoint} within ${timeoutMs} ms`));
      }, timerDelay(timeoutMs));
      this.metaWaiters.push(waiter);
      if (this.stateNow === 'connecting') this.scheduleReconnect();
    });
  }

  private failAll(makeError: () => Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(makeError());
    }
  }
}

function unexpected(reply: Reply): Error {
  return new RemoteError('UNSUPPORTED', `unexpected reply of type ${reply.type}`, false);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
