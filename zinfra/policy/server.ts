// PolicyServer: serves any Policy backend over a ZeroMQ ROUTER socket (protocol in ../protocol/PROTOCOL.md).
//
// Every frame gets an answer: a bad one gets a typed error and the server keeps serving. Infer
// requests are batched opportunistically: while the backend works on one batch, new requests queue
// and go out together as the next batch (up to maxBatch), so a lone request never waits for company.
import { Router } from 'zeromq';
import { isRetryable, ProtocolError, type ErrorCode } from '../protocol/errors.js';
import {
  PROTOCOL_VERSION,
  actionChunkSchema,
  decodeRequest,
  encodeMessage,
  salvageId,
  type InferRequest,
  type Reply,
} from '../protocol/messages.js';
import type { Policy, PolicyMetadata } from './policy.js';
import { SendQueue } from './send-queue.js';

export interface PolicyServerOptions {
  /** e.g. `tcp://127.0.0.1:5555`, `tcp://127.0.0.1:0` (any free port) or `ipc:///tmp/zetta.sock`. */
  readonly bind: string;
  /** Frames larger than this get TOO_LARGE without being decoded. */
  readonly maxMessageBytes?: number;
  readonly maxBatch?: number;
  /** Requests waiting beyond this many are refused with OVERLOADED (backpressure). */
  readonly maxQueue?: number;
}

export interface PolicyServerStats {
  requests: number;
  batches: number;
  errors: Partial<Record<ErrorCode, number>>;
}

interface Job {
  readonly route: Buffer[];
  readonly request: InferRequest;
  readonly receivedAt: number;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export class PolicyServer {
  readonly stats: PolicyServerStats = { requests: 0, batches: 0, errors: {} };
  private readonly queue: Job[] = [];
  private draining = false;
  private closed = false;
  private readonly maxMessageBytes: number;
  private readonly maxBatch: number;
  private readonly maxQueue: number;
  private readonly sender: SendQueue;
  private readonly loop: Promise<void>;

  private constructor(
    private readonly policy: Policy,
    private readonly meta: PolicyMetadata,
    private readonly socket: Router,
    options: PolicyServerOptions,
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.maxBatch = options.maxBatch ?? 32;
    this.maxQueue = options.maxQueue ?? 1024;
    this.sender = new SendQueue(socket, () => {
      // A reply to a peer that vanished cannot be delivered; ROUTER drops it, nothing to recover.
    });
    this.loop = this.receiveLoop();
  }

  static async start(policy: Policy, options: PolicyServerOptions): Promise<PolicyServer> {
    const meta = await policy.metadata();
    const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    // ZeroMQ's own cap drops the connection without a word, so it sits well above ours, which answers.
    const socket = new Router({ linger: 0, maxMessageSize: maxBytes * 4 + 1024 * 1024, sendHighWaterMark: 0 });
    await socket.bind(options.bind);
    return new PolicyServer(policy, meta, socket, options);
  }

  /** The bound endpoint, with the real port when bound to port 0. */
  get endpoint(): string {
    return this.socket.lastEndpoint ?? '';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) this.replyError(job.route, job.request.id, 'SHUTTING_DOWN', 'server is closing');
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
    let request;
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
          limits: { max_message_bytes: this.maxMessageBytes, max_batch: this.maxBatch },
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
    if (this.queue.length >= this.maxQueue) {
      this.replyError(job.route, job.request.id, 'OVERLOADED', `${this.queue.length} requests already queued`);
      return;
    }
    this.queue.push(job);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const batch = this.takeLiveBatch();
        if (batch.length > 0) await this.serveBatch(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Takes up to maxBatch jobs, answering those whose budget already ran out instead of running them. */
  private takeLiveBatch(): Job[] {
    const now = performance.now();
    const batch: Job[] = [];
    while (batch.length < this.maxBatch && this.queue.length > 0) {
      const job = this.queue.shift()!;
      const waited = now - job.receivedAt;
      if (waited > job.request.deadline_ms) {
        this.replyError(job.route, job.request.id, 'DEADLINE_EXCEEDED', `waited ${waited.toFixed(1)} ms of a ${job.request.deadline_ms} ms budget`);
      } else batch.push(job);
    }
    return batch;
  }

  private async serveBatch(batch: Job[]): Promise<void> {
    this.stats.batches++;
    const started = performance.now();
    let results;
    try {
      results = await this.policy.infer(batch.map((j) => j.request.obs));
      if (results.length !== batch.length) throw new Error(`backend returned ${results.length} results for ${batch.length} observations`);
    } catch (err) {
      // One bad observation must not fail its batch-mates: retry them one by one.
      if (batch.length > 1) {
        for (const job of batch) await this.serveBatch([job]);
        return;
      }
      const e = err as Error & { code?: unknown };
      const code = err instanceof ProtocolError ? err.code : e.code === 'INVALID_OBSERVATION' ? 'INVALID_OBSERVATION' : 'BACKEND_FAILED';
      this.replyError(batch[0]!.route, batch[0]!.request.id, code, e.message ?? String(err));
      return;
    }
    const finished = performance.now();
    batch.forEach((job, i) => this.replyResult(job, results[i]!, started, finished, batch.length));
  }

  private replyResult(job: Job, result: { actions: unknown; policyTiming: Record<string, number> }, started: number, finished: number, batchSize: number): void {
    const checked = actionChunkSchema.safeParse(result.actions);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? 'invalid actions';
      const code = message.includes('non-finite') ? 'NON_FINITE_ACTIONS' : 'BACKEND_FAILED';
      this.replyError(job.route, job.request.id, code, `backend ${message}`);
      return;
    }
    this.reply(job.route, {
      type: 'result',
      id: job.request.id,
      actions: checked.data,
      policy_timing: result.policyTiming,
      server_timing: {
        queue_ms: started - job.receivedAt,
        infer_ms: finished - started,
        total_ms: performance.now() - job.receivedAt,
        batch_size: batchSize,
      },
    });
  }

  private replyError(route: Buffer[], id: number | null, code: ErrorCode, message: string): void {
    this.stats.errors[code] = (this.stats.errors[code] ?? 0) + 1;
    this.reply(route, { type: 'error', id, code, message, retryable: isRetryable(code) });
  }

  private reply(route: Buffer[], message: Reply): void {
    if (this.socket.closed) return;
    this.sender.send([...route, encodeMessage(message)]);
  }
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
