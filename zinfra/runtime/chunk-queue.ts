// Executes action chunks the way the LIBERO reference client does: of each (H, D) chunk, execute
// the first k actions, then ask the policy again. The queue owns its storage; next() returns a view
// that stays valid until the next call.
import type { NdArray } from '../protocol/ndarray.js';

export class ChunkQueue {
  private chunk = new Float32Array(0);
  private dim = 0;
  private cursor = 0;
  private limit = 0;
  private chunkCount = 0;

  /** @param executeSteps k: actions executed from each chunk before replanning. */
  constructor(readonly executeSteps: number) {
    if (!Number.isInteger(executeSteps) || executeSteps < 1) throw new RangeError(`executeSteps must be an integer ≥ 1, got ${executeSteps}`);
  }

  get empty(): boolean {
    return this.cursor >= this.limit;
  }

  /** Chunks accepted so far (the id of the current one is chunks - 1). */
  get chunks(): number {
    return this.chunkCount;
  }

  /** Replaces whatever is left with a fresh chunk (a stale chunk is dropped, never resumed). */
  push(actions: NdArray<'<f4'>): void {
    const [h, d] = actions.shape as [number, number];
    if (this.chunk.length < h * d) this.chunk = new Float32Array(h * d);
    this.chunk.set(actions.data);
    this.dim = d;
    this.cursor = 0;
    this.limit = Math.min(h, this.executeSteps);
    this.chunkCount++;
  }

  /** Drops the rest of the current chunk, e.g. after a recovery took control. */
  clear(): void {
    this.cursor = this.limit;
  }

  next(): Float32Array {
    if (this.empty) throw new Error('ChunkQueue.next() on an empty queue: ask the policy first');
    const start = this.cursor++ * this.dim;
    return this.chunk.subarray(start, start + this.dim);
  }
}
