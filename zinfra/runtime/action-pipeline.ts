// The action pipeline between a chunking policy and the control loop.
//
// Synchronous use (prefetchThreshold 0, lockstep): execute k actions of a chunk, then ask again and
// wait — the LIBERO reference client. Asynchronous use: ask for the next chunk while the current one
// executes, as soon as the queue falls to the threshold; when it arrives, drop the actions that are
// already in the past (the steps executed since its observation was taken: real-time chunking) and
// merge the rest with what is still queued. In real time a queue that runs dry never stalls the
// robot: the loop holds (no motion, gripper unchanged) until a chunk lands, and a request past its
// deadline is abandoned and asked again.
//
// On a lagging robot a chunk may also start past its first actions, where the motion still in flight
// when it was asked for ends (a ChunkAligner, from the critic's measured lag): it was planned from a
// state that did not show that motion yet.
//
// Chunks belong to an episode: begin() starts a new generation, and a chunk computed for an earlier
// one is dropped on arrival, so no action ever crosses episodes.
import type { NdArray, Observation } from '../../protocol/ndarray.js';
import type { ChunkAligner } from '../../critic/index.js';

export type MergeRule = 'replace' | 'blend';

export interface ActionPipelineOptions {
  readonly actionDim: number;
  /** Actions executed from each chunk at most (the LIBERO client's k); the rest are dropped. */
  readonly executeSteps: number;
  /** Ask for the next chunk when this many actions or fewer are queued; 0 waits until empty. */
  readonly prefetchThreshold: number;
  readonly merge: MergeRule;
  /** Weight of the old chunk where two overlap, for `blend` (LeRobot's default 0.3). */
  readonly blendOld?: number;
  /** A request not answered within this is abandoned and asked again (real time only). */
  readonly deadlineMs: number;
  /** lockstep: the world waits for the policy (simulation); realtime: it does not (a robot). */
  readonly mode: 'lockstep' | 'realtime';
  /** The clock deadlines and waits are measured on (ms); a node in simulated time passes its own. */
  readonly now?: () => number;
}

/** Asks the policy for a chunk for this observation; the observation may be reused after it returns. */
export type ChunkRequester = (obs: Observation, step: number) => Promise<NdArray<'<f4'>>;

/** Where a chunk starts on a lagging robot: past the actions the motion in flight already covers. */

export interface PipelineStats {
  requests: number;
  chunksUsed: number;
  /** Requests disowned because their episode ended (their chunks are never executed). */
  staleChunks: number;
  /** Requests abandoned past their deadline. */
  lateChunks: number;
  holds: number;
  /** Actions skipped because they were already in the past when their chunk arrived. */
  skippedActions: number;
  /** Actions skipped because the motion in flight when their chunk was asked for covered them. */
  alignedActions: number;
  /** Requests that failed (in real time they are asked again; in lockstep the failure is thrown). */
  failedRequests: number;
  /** Total time the loop waited for the policy. */
  waitMs: number;
}

interface InFlight {
  readonly generation: number;
  readonly step: number;
  readonly align: ChunkAligner | undefined;
  readonly sentAt: number;
  result: NdArray<'<f4'> | Error | undefined;
  readonly settled: Promise<void>;
}

export class ActionPipeline {
  readonly stats: PipelineStats = {
    requests: 0,
    chunksUsed: 0,
    staleChunks: 0,
    lateChunks: 0,
    holds: 0,
    skippedActions: 0,
    alignedActions: 0,
    failedRequests: 0,
    waitMs: 0,
  };
  private readonly queue: Float32Array;
  private readonly hold: Float32Array;
  private head = 0;
  private length = 0;
  private generation = 0;
  private inFlight: InFlight | undefined;
  private lastError: Error | undefined;
  private readonly blendOld: number;
  private readonly now: () => number;

  constructor(
    private readonly request: ChunkRequester,
    private readonly options: ActionPipelineOptions,
    private readonly maxHorizon = 64,
  ) {
    if (options.executeSteps < 1) throw new RangeError('executeSteps must be ≥ 1');
    this.queue = new Float32Array(2 * maxHorizon * options.actionDim);
    this.hold = new Float32Array(options.actionDim);
    this.blendOld = options.blendOld ?? 0.3;
    this.now = options.now ?? (() => performance.now());
  }

  get queued(): number {
    return this.length;
  }

  /** The next call asks the policy for a fresh chunk: none queued, none in flight. */
  get chunkDue(): boolean {
    return this.length === 0 && this.inFlight === undefined;
  }

  /** Starts an episode: drops what is queued and disowns any request in flight. */
  begin(): void {
    this.generation++;
    this.head = 0;
    this.length = 0;
    this.hold.fill(0);
    if (this.inFlight) this.stats.staleChunks++;
    this.inFlight = undefined;
  }

  /** Drops the queued actions and disowns any request in flight (a recovery took over): the next call asks afresh. */
  invalidate(): void {
    this.length = 0;
    this.inFlight = undefined;
  }

  /**
   * The action for this control step. The returned view stays valid until the next call.
   * `source` is `hold` when no chunk was ready in real time. `align`, where given, applies to a
   * chunk this call asks for: it starts at the action `align` picks when the chunk arrives.
   */
  async next(obs: Observation, step: number, align?: ChunkAligner): Promise<{ action: Float32Array; source: 'chunk' | 'hold' }> {
    this.absorbArrived(step);
    if (this.length <= this.options.prefetchThreshold && !this.inFlight) this.send(obs, step, align);
    if (this.length === 0) {
      if (this.options.mode === 'realtime') return this.holdOrRetry(obs, step);
      await this.waitForChunk(step);
      if (this.length === 0) throw this.failure() ?? new Error('policy returned an empty chunk');
    }
    return { action: this.pop(), source: 'chunk' };
  }

  private send(obs: Observation, step: number, align?: ChunkAligner): void {
    this.stats.requests++;
    align?.asked();
    const entry: InFlight = {
      generation: this.generation,
      step,
      align,
      sentAt: this.now(),
      result: undefined,
      settled: this.request(obs, step).then(
        (chunk) => {
          entry.result = chunk;
        },
        (err: unknown) => {
          entry.result = err instanceof Error ? err : new Error(String(err));
        },
      ),
    };
    this.inFlight = entry;
  }

  private async waitForChunk(step: number): Promise<void> {
    const pending = this.inFlight;
    if (!pending) return;
    const t0 = this.now();
    await pending.settled;
    this.stats.waitMs += this.now() - t0;
    this.absorbArrived(step);
  }

  private holdOrRetry(obs: Observation, step: number): { action: Float32Array; source: 'hold' } {
    const pending = this.inFlight;
    if (pending && this.now() - pending.sentAt > this.options.deadlineMs) {
      this.stats.lateChunks++;
      this.send(obs, step, pending.align); // abandon it: its answer, if it ever comes, is for a world long gone
    }
    this.stats.holds++;
    return { action: this.hold, source: 'hold' };
  }

  private failure(): Error | undefined {
    const e = this.lastError;
    this.lastError = undefined;
    return e;
  }

  /** Takes in a chunk that has arrived: drop it if stale, skip its past actions, merge the rest. */
  private absorbArrived(step: number): void {
    const done = this.inFlight;
    if (!done || done.result === undefined) return;
    this.inFlight = undefined;
    if (done.result instanceof Error) {
      this.stats.failedRequests++;
      if (this.options.mode === 'lockstep') this.lastError = done.result;
      return;
    }
    if (done.generation !== this.generation) {
      this.stats.staleChunks++;
      return;
    }
    const chunk = done.result;
    const [h, d] = chunk.shape as [number, number];
    // k actions from where the chunk starts: its first, or where the motion in flight ends
    const aligned = done.align ? Math.max(0, Math.min(h - 1, done.align.offset(chunk.data, h, d))) : 0;
    const usable = Math.min(h, aligned + this.options.executeSteps, this.maxHorizon);
    const skip = Math.min(usable, aligned + step - done.step);
    this.stats.alignedActions += aligned;
    this.stats.skippedActions += skip - aligned;
    this.stats.chunksUsed++;
    this.merge(chunk.data, d, skip, usable);
  }

  private merge(data: Float32Array, d: number, from: number, to: number): void {
    const dim = this.options.actionDim;
    this.compact();
    const overlap = this.options.merge === 'blend' ? Math.min(this.length, to - from) : 0;
    const continuous = dim - 1; // the gripper is a command, not a trajectory: never averaged
    for (let i = 0; i < overlap; i++) {
      for (let j = 0; j < continuous; j++) {
        const q = i * dim + j;
        this.queue[q] = this.blendOld * this.queue[q]! + (1 - this.blendOld) * data[(from + i) * d + j]!;
      }
      this.queue[i * dim + continuous] = data[(from + i) * d + continuous]!;
    }
    this.length = overlap;
    for (let i = from + overlap; i < to; i++) {
      this.queue.set(data.subarray(i * d, i * d + dim), this.length * dim);
      this.length++;
    }
  }

  /** Moves the queued actions to the front of the buffer, so a merge writes contiguously. */
  private compact(): void {
    if (this.head === 0) return;
    const dim = this.options.actionDim;
    this.queue.copyWithin(0, this.head * dim, (this.head + this.length) * dim);
    this.head = 0;
  }

  private pop(): Float32Array {
    const dim = this.options.actionDim;
    const start = this.head * dim;
    this.head++;
    this.length--;
    const action = this.queue.subarray(start, start + dim);
    this.hold[dim - 1] = action[dim - 1]!; // holding keeps the last gripper command
    return action;
  }
}
