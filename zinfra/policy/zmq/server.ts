// PolicyServer: serves any Policy backend over a ZeroMQ ROUTER socket (protocol in protocol/PROTOCOL.md).
//
// Every frame gets an answer: a bad one gets a typed error and the server keeps serving. Infer
// requests go through an InferenceBatchScheduler, which batches them for the backend, bounds the
// queue (OVERLOADED) and fails requests that cannot start before their deadline. Replies go out
// through a ReplySender: each peer may have at most `peerSendLimit` replies waiting, so a client that
// never reads costs the server a bounded amount of memory (reply-sender.ts).
import { Router } from 'zeromq';
import { ERROR_CODES, isRetryable, ProtocolError, type ErrorCode } from '../../../protocol/errors.js';
import { checkActionChunk } from '../../../protocol/hot-messages.js';
import {
  PROTOCOL_VERSION,
  actionChunkSchema,
  decodeRequest,
  encodeMessage,
  salvageId,
  type InferRequest,
  type Reply,
} from '../../../protocol/messages.js';
import { InferenceBatchScheduler, type ScheduledResult, type SchedulerOptions } from './batch-scheduler.js';
import { DeadlineExceeded, Overloaded } from '../errors.js';
import type { NdArray } from '../../../protocol/ndarray.js';
import type { Policy, PolicyMetadata } from '../policy.js';
import { countMapKeys, DEFAULT_MAX_MAP_KEYS } from './map-key-budget.js';
import { DEFAULT_PEER_SEND_LIMIT, ReplySender, routerSendOptions, type ReplySenderStats } from './reply-sender.js';

export interface PolicyServerOptions extends SchedulerOptions {
  /** e.g. `tcp://127.0.0.1:5555`, `tcp://127.0.0.1:0` (any free port) or `ipc:///tmp/zetta.sock`. */
  readonly bind: string;
  /** Frames larger than this get TOO_LARGE without being decoded. */
  readonly maxMessageBytes?: number;
  /** Map keys one request may hold (all maps together); more get TOO_LARGE before any decoding. */
  readonly maxMapKeys?: number;
  /** Replies one peer may have waiting to be sent; more are dropped (a peer that does not read). */
  readonly peerSendLimit?: number;
  /** Where the server tells of peers whose replies it drops; default stderr. */
  readonly log?: (line: string) => void;
}

export interface PolicyServerStats {
  requests: number;
  errors: Partial<Record<ErrorCode, number>>;
}

interface Job {
  readonly route: Buffer[];
  readonly request: InferRequest;
  readonly receivedAt: number;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export class PolicyServer {
  readonly stats: PolicyServerStats = { requests: 0, errors: {} };
  private closed = false;
  private readonly maxMessageBytes: number;
  private readonly maxMapKeys: number;
  private readonly sender: ReplySender;
  private readonly loop: Promise<void>;

  private constructor(
    readonly scheduler: InferenceBatchScheduler,
    private readonly socket: Router,
    options: PolicyServerOptions,
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxMapKeys = options.maxMapKeys ?? DEFAULT_MAX_MAP_KEYS;
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    this.sender = new ReplySender(socket, options.peerSendLimit ?? DEFAULT_PEER_SEND_LIMIT, log);
    this.loop = this.receiveLoop();
  }

  static async start(policy: Policy, options: PolicyServerOptions): Promise<PolicyServer> {
    const scheduler = await InferenceBatchScheduler.create(policy, options);
    const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    // ZeroMQ's own cap drops the connection without a word, so it sits well above ours, which answers.
    const socket = new Router({
      linger: 0,
      maxMessageSize: maxBytes * 4 + 1024 * 1024,
      ...routerSendOptions(options.peerSendLimit ?? DEFAULT_PEER_SEND_LIMIT),
    });
    await socket.bind(options.bind);
    return new PolicyServer(scheduler, socket, options);
  }

  /** Replies sent, and dropped because their peer did not read them. */
  get replies(): Readonly<ReplySenderStats> {
    return this.sender.stats;
  }

  /** The bound endpoint, with the real port when bound to port 0. */
  get endpoint(): string {
    return this.socket.lastEndpoint ?? '';
  }

  private get meta(): PolicyMetadata {
    return this.scheduler.metadata;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.scheduler.drain(() => new ProtocolError('SHUTTING_DOWN', 'server is closing'));
    await new Promise((r) => setImmediate(r)); // let the drained requests' error replies be queued
    await this.sender.flushed();
    this.socket.close();
    await this.loop;
  }

  private async receiveLoop(): Promise<void> {
    try {
      for await (const frames of this.socket) this.onMessage(frames);
    } catch (err) {
      if (!this.closed) throw err;
    }
  }

  private onMessage(frames: Buffer[]): void {
    // DEALER: [identity, payload]; REQ: [identity, "", payload]. Everything before the payload is the route.
    const payload = frames[frames.length - 1];
    const route = frames.slice(0, -1);
    if (!payload || route.length === 0) return;
    if (payload.byteLength > this.maxMessageBytes) {
      this.replyError(route, null, 'TOO_LARGE', `frame of ${payload.byteLength} bytes exceeds the cap of ${this.maxMessageBytes}`);
      return;
    }
    if (countMapKeys(payload, this.maxMapKeys) > this.maxMapKeys) {
      this.replyError(route, null, 'TOO_LARGE', `more than ${this.maxMapKeys} map keys in one message (limit maxMapKeys)`);
      return;
    }
    let request: ReturnType<typeof decodeRequest>;
    try {
      request = decodeRequest(payload);
    } catch (err) {
      const e = err as ProtocolError;
      this.replyError(route, salvageId(payload), e.code, e.message);
      return;
    }
    switch (request.type) {
      case 'hello':
        return this.reply(route, {
          type: 'metadata',
          id: request.id,
          protocol: PROTOCOL_VERSION,
          metadata: toWireMetadata(this.meta),
          limits: { max_message_bytes: this.maxMessageBytes, max_batch: this.scheduler.options.maxBatch },
        });
      case 'ping':
        return this.reply(route, { type: 'pong', id: request.id, t: request.t });
      case 'episode_start':
      case 'episode_end':
        return this.reply(route, { type: 'ack', id: request.id });
      case 'infer':
        return this.enqueue({ route, request, receivedAt: performance.now() });
    }
  }

  private enqueue(job: Job): void {
    this.stats.requests++;
    const missing = this.meta.observationKeys.find((k) => !(k in job.request.obs));
    if (missing !== undefined) {
      this.replyError(job.route, job.request.id, 'INVALID_OBSERVATION', `observation lacks "${missing}"`);
      return;
    }
    const { request } = job;
    // The deadline budget counts from receipt: clocks are not shared with the client.
    const budget = request.deadline_ms - (performance.now() - job.receivedAt);
    this.scheduler.submit(request.obs, { sessionId: request.session_id, deadlineMs: budget }).then(
      (result) => this.replyResult(job, result),
      (err: unknown) => this.replyError(job.route, request.id, errorCode(err), (err as Error).message ?? String(err)),
    );
  }

  private replyResult(job: Job, result: ScheduledResult): void {
    const vetted = vetActions(result.actions);
    if ('error' in vetted) {
      const code = vetted.error.includes('non-finite') ? 'NON_FINITE_ACTIONS' : 'BACKEND_FAILED';
      this.replyError(job.route, job.request.id, code, `backend ${vetted.error}`);
      return;
    }
    this.reply(job.route, {
      type: 'result',
      id: job.request.id,
      actions: vetted.actions,
      policy_timing: result.policyTiming,
      server_timing: {
        queue_ms: result.queueMs,
        total_ms: performance.now() - job.receivedAt,
        batch_size: result.batchSize,
      },
    });
  }

  private replyError(route: Buffer[], id: number | null, code: ErrorCode, message: string): void {
    this.stats.errors[code] = (this.stats.errors[code] ?? 0) + 1;
    this.reply(route, { type: 'error', id, code, message, retryable: isRetryable(code) });
  }

  private reply(route: Buffer[], message: Reply): void {
    if (this.socket.closed) return;
    this.sender.send(route, encodeMessage(message));
  }
}

/** The backend's chunk if it may cross the wire (float32, 2-D, every value finite), else why not. */
function vetActions(actions: unknown): { actions: NdArray } | { error: string } {
  const fast = checkActionChunk(actions);
  if (fast) return { actions: fast };
  const checked = actionChunkSchema.safeParse(actions);
  return checked.success ? { actions: checked.data } : { error: checked.error.issues[0]?.message ?? 'invalid actions' };
}

/** The wire code of a failure: typed errors carry theirs, anything else is the backend's fault. */
function errorCode(err: unknown): ErrorCode {
  if (err instanceof ProtocolError) return err.code;
  if (err instanceof Overloaded) return 'OVERLOADED';
  if (err instanceof DeadlineExceeded) return 'DEADLINE_EXCEEDED';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code) ? (code as ErrorCode) : 'BACKEND_FAILED';
}

function toWireMetadata(m: PolicyMetadata) {
  return {
    policy_id: m.policyId,
    model_version: m.modelVersion,
    action_horizon: m.actionHorizon,
    action_dim: m.actionDim,
    observation_keys: [...m.observationKeys],
    ...(m.extra ? { extra: { ...m.extra } } : {}),
  };
}
