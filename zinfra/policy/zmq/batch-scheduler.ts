// InferenceBatchScheduler: turns a stream of single-observation requests from many sessions into
// micro-batches for one Policy backend.
//
// - Requests are bucketed by a compatibility key (policy id, model version, observation schema);
//   a batch never mixes buckets, so it never mixes model versions (the version fence).
// - A bucket is dispatched when it holds maxBatch requests, or maxWaitMs after its oldest arrived,
//   or at once when the backend is idle and maxWaitMs is 0 — unless clients that the last batch
//   answered are expected back within a fraction of the backend's call time: then it waits for them
//   (batch-fill.ts), so a slow backend's batches do not split into alternating halves.
// - Within a bucket: higher priority first, then earliest deadline first.
// - Memory is bounded: a full queue or a session over its in-flight cap gets Overloaded at once.
// - swapPolicy() installs a new model version: queued requests of the old version still run on the
//   old backend, which is closed once drained.
import type { Observation } from '../../../protocol/ndarray.js';
import { timerDelay } from '../../../util/timer-delay.js';
import { DeadlineExceeded, Overloaded } from '../errors.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../policy.js';
import { BatchFill, DEFAULT_BATCH_FILL, type BatchFillOptions } from './batch-fill.js';

export interface SchedulerOptions {
  readonly maxBatch?: number;
  /** How long a partial batch may wait for company. 0: dispatch whenever the backend is free. */
  readonly maxWaitMs?: number;
  /** Requests queued across all buckets. */
  readonly maxQueue?: number;
  /** Requests queued or running per session. */
  readonly maxInFlightPerSession?: number;
  /** Batches the backend runs at once. */
  readonly maxConcurrentBatches?: number;
  /** Waiting for expected clients before a batch leaves (batch-fill.ts); false: never. */
  readonly fill?: BatchFillOptions | false;
}

export interface SubmitOptions {
  readonly sessionId: string;
  /** Higher runs first. Default 0. */
  readonly priority?: number;
  /** Budget from now; the request fails with DeadlineExceeded if it cannot start in time. */
  readonly deadlineMs: number;
}

export interface ScheduledResult extends PolicyResult {
  readonly batchSize: number;
  readonly queueMs: number;
  readonly modelVersion: string;
}

interface Pending {
  readonly obs: Observation;
  readonly sessionId: string;
  readonly priority: number;
  readonly deadline: number;
  readonly enqueuedAt: number;
  resolve(r: ScheduledResult): void;
  reject(e: Error): void;
}

interface Backend {
  readonly policy: Policy;
  readonly meta: PolicyMetadata;
  running: number;
  /** Requests in the batches running now. */
  runningRequests: number;
  /** When the last batch finished (a batch waiting to fill counts its wait from here). */
  freeSince: number;
  retired: boolean;
}

interface Bucket {
  readonly key: string;
  readonly backend: Backend;
  readonly queue: Pending[];
  timer: NodeJS.Timeout | undefined;
}

export interface SchedulerStats {
  batches: number;
  requests: number;
  overloaded: number;
  expired: number;
  /** Sum of batch sizes, for the mean. */
  batchedRequests: number;
}

export class InferenceBatchScheduler {
  readonly stats: SchedulerStats = { batches: 0, requests: 0, overloaded: 0, expired: 0, batchedRequests: 0 };
  readonly options: Required<Omit<SchedulerOptions, 'fill'>>;
  private readonly fill: BatchFill | undefined;
  private readonly buckets = new Map<string, Bucket>();
  private readonly sessions = new Map<string, number>();
  private queued = 0;
  private current: Backend;

  private constructor(policy: Policy, meta: PolicyMetadata, options: SchedulerOptions) {
    this.options = {
      maxBatch: options.maxBatch ?? 32,
      maxWaitMs: options.maxWaitMs ?? 0,
      maxQueue: options.maxQueue ?? 1024,
      maxInFlightPerSession: options.maxInFlightPerSession ?? 64,
      maxConcurrentBatches: options.maxConcurrentBatches ?? 1,
    };
    this.fill = options.fill === false ? undefined : new BatchFill(options.fill ?? DEFAULT_BATCH_FILL);
    this.current = newBackend(policy, meta);
  }

  static async create(policy: Policy, options: SchedulerOptions = {}): Promise<InferenceBatchScheduler> {
    return new InferenceBatchScheduler(policy, await policy.metadata(), options);
  }

  get metadata(): PolicyMetadata {
    return this.current.meta;
  }

  get queueLength(): number {
    return this.queued;
  }

  submit(obs: Observation, options: SubmitOptions): Promise<ScheduledResult> {
    this.stats.requests++;
    const inFlight = this.sessions.get(options.sessionId) ?? 0;
    if (this.queued >= this.options.maxQueue)
      return this.refuse(`queue full: ${this.queued} requests waiting (limit maxQueue ${this.options.maxQueue})`);
    if (inFlight >= this.options.maxInFlightPerSession) {
      return this.refuse(
        `session ${options.sessionId} has ${inFlight} requests in flight (limit maxInFlightPerSession ${this.options.maxInFlightPerSession})`,
      );
    }
    const bucket = this.bucketFor(obs);
    this.sessions.set(options.sessionId, inFlight + 1);
    this.queued++;
    const now = performance.now();
    this.fill?.observeOutstanding(options.sessionId, inFlight + 1, now);
    return new Promise<ScheduledResult>((resolve, reject) => {
      insertOrdered(bucket.queue, {
        obs,
        sessionId: options.sessionId,
        priority: options.priority ?? 0,
        deadline: now + options.deadlineMs,
        enqueuedAt: now,
        resolve,
        reject,
      });
      this.schedule(bucket);
    });
  }

  /** Installs a new model; requests already queued for the old one finish there first. */
  async swapPolicy(policy: Policy): Promise<PolicyMetadata> {
    const old = this.current;
    this.current = newBackend(policy, await policy.metadata());
    old.retired = true;
    this.closeIfDrained(old);
    return this.current.meta;
  }

  /** Fails everything queued with the given error. Running batches finish. */
  drain(makeError: () => Error): void {
    for (const bucket of this.buckets.values()) {
      clearTimeout(bucket.timer);
      for (const p of bucket.queue.splice(0)) this.settle(p, () => p.reject(makeError()));
    }
    this.buckets.clear();
  }

  private refuse(why: string): Promise<never> {
    this.stats.overloaded++;
    return Promise.reject(new Overloaded(why));
  }

  private bucketFor(obs: Observation): Bucket {
    const b = this.current;
    const key = `${b.meta.policyId}\u0000${b.meta.modelVersion}\u0000${observationSchema(obs)}`;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { key, backend: b, queue: [], timer: undefined };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Dispatches the bucket now if it should leave, else arms its timer for when it should. */
  private schedule(bucket: Bucket): void {
    const backend = bucket.backend;
    const n = bucket.queue.length;
    // a busy backend takes its next batch when it frees (afterBatch)
    if (n === 0 || backend.running >= this.options.maxConcurrentBatches) return;
    if (n >= this.options.maxBatch) return void this.dispatch(bucket);
    const now = performance.now();
    const leaveAt = this.leaveAt(bucket, now);
    if (leaveAt <= now) return void this.dispatch(bucket);
    clearTimeout(bucket.timer);
    bucket.timer = setTimeout(
      () => {
        bucket.timer = undefined;
        this.schedule(bucket);
      },
      timerDelay(leaveAt - now),
    );
  }

  /** When a partial batch leaves: maxWaitMs after its oldest request, later if clients are expected back. */
  private leaveAt(bucket: Bucket, now: number): number {
    let oldest = Infinity; // the queue is ordered by priority and deadline, not by arrival
    for (const p of bucket.queue) if (p.enqueuedAt < oldest) oldest = p.enqueuedAt;
    const byMaxWait = oldest + this.options.maxWaitMs;
    if (!this.fill || bucket.queue.length >= this.fill.target(this.options.maxBatch, bucket.backend.runningRequests, now)) return byMaxWait;
    return Math.max(byMaxWait, Math.max(bucket.backend.freeSince, oldest) + this.fill.waitMs());
  }

  private async dispatch(bucket: Bucket): Promise<void> {
    clearTimeout(bucket.timer);
    bucket.timer = undefined;
    const batch = this.takeLive(bucket);
    if (bucket.queue.length === 0) this.buckets.delete(bucket.key);
    if (batch.length === 0) return;
    const backend = bucket.backend;
    backend.running++;
    backend.runningRequests += batch.length;
    this.stats.batches++;
    this.stats.batchedRequests += batch.length;
    const started = performance.now();
    try {
      await this.run(backend, batch);
    } finally {
      backend.running--;
      backend.runningRequests -= batch.length;
      backend.freeSince = performance.now();
      this.fill?.observeCall(backend.freeSince - started);
      this.afterBatch(backend);
    }
  }

  /** Up to maxBatch requests, failing those whose deadline already passed instead of running them. */
  private takeLive(bucket: Bucket): Pending[] {
    const now = performance.now();
    const batch: Pending[] = [];
    while (batch.length < this.options.maxBatch && bucket.queue.length > 0) {
      const p = bucket.queue.shift()!;
      if (p.deadline < now) {
        this.stats.expired++;
        this.settle(p, () => p.reject(new DeadlineExceeded(p.deadline - p.enqueuedAt)));
      } else batch.push(p);
    }
    return batch;
  }

  private async run(backend: Backend, batch: Pending[]): Promise<void> {
    const started = performance.now();
    let results: PolicyResult[];
    try {
      results = await backend.policy.infer(batch.map((p) => p.obs));
      if (results.length !== batch.length) throw new Error(`backend returned ${results.length} results for ${batch.length} observations`);
    } catch (err) {
      // One bad observation must not fail its batch-mates: run them one by one.
      if (batch.length > 1) {
        for (const p of batch) await this.run(backend, [p]);
        return;
      }
      this.settle(batch[0]!, () => batch[0]!.reject(err as Error));
      return;
    }
    batch.forEach((p, i) =>
      this.settle(p, () =>
        p.resolve({ ...results[i]!, batchSize: batch.length, queueMs: started - p.enqueuedAt, modelVersion: backend.meta.modelVersion }),
      ),
    );
  }

  private settle(p: Pending, finish: () => void): void {
    this.queued--;
    const n = (this.sessions.get(p.sessionId) ?? 1) - 1;
    if (n <= 0) this.sessions.delete(p.sessionId);
    else this.sessions.set(p.sessionId, n);
    finish();
  }

  /** The backend is free again: serve its fullest waiting bucket, or close it if it was swapped out. */
  private afterBatch(backend: Backend): void {
    let next: Bucket | undefined;
    for (const b of this.buckets.values()) {
      if (b.backend === backend && b.queue.length > 0 && (!next || b.queue.length > next.queue.length)) next = b;
    }
    if (next) this.schedule(next);
    this.closeIfDrained(backend);
  }

  private closeIfDrained(backend: Backend): void {
    if (!backend.retired || backend.running > 0) return;
    for (const b of this.buckets.values()) if (b.backend === backend) return;
    void backend.policy.close();
  }
}

function newBackend(policy: Policy, meta: PolicyMetadata): Backend {
  return { policy, meta, running: 0, runningRequests: 0, freeSince: performance.now(), retired: false };
}

/** Keys, dtypes and shapes: observations that can be stacked into one batch share it. */
export function observationSchema(obs: Observation): string {
  const parts: string[] = [];
  for (const key of Object.keys(obs).sort()) {
    const v = obs[key]!;
    parts.push(typeof v === 'string' ? `${key}:str` : `${key}:${v.dtype}[${v.shape.join(',')}]`);
  }
  return parts.join(';');
}

/** Priority descending, then deadline ascending; stable for equals (FIFO). */
function insertOrdered(queue: Pending[], p: Pending): void {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const q = queue[mid]!;
    const before = q.priority > p.priority || (q.priority === p.priority && q.deadline <= p.deadline);
    if (before) lo = mid + 1;
    else hi = mid;
  }
  queue.splice(lo, 0, p);
}
