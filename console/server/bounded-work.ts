// A bound on expensive work that requests start (hashing a token with scrypt: about 16 MB and tens
// of milliseconds of CPU each): at most `concurrency` jobs run at once and at most `maxWaiting`
// wait their turn; a job beyond that is refused at once with 503, so a flood of requests costs the
// server a bounded amount of memory and CPU however many arrive together.
import { ApiError } from './api-error.js';

export interface WorkBound {
  readonly concurrency: number;
  readonly maxWaiting: number;
}

export class BoundedWork {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly bound: WorkBound,
    private readonly what: string,
  ) {}

  /** Runs `job` when a slot is free; throws 503 (unavailable) when the queue is full. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.bound.concurrency) {
      if (this.waiting.length >= this.bound.maxWaiting) {
        throw new ApiError(503, 'unavailable', `too many ${this.what} at once; try again in a moment`, { 'retry-after': '1' });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await job();
    } finally {
      // the slot passes straight to the next waiter, so `running` counts it without a gap
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
