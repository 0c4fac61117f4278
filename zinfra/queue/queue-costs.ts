// What the queue cost the coordinator, per episode: enqueuing, fetching a result, fetching and
// writing a streamed recording; and what the queue did on its own (retries, jobs given up on).
// `zetta bench cluster` turns these into the scaling model of zinfra/queue/README.md.
export interface QueueCostSummary {
  readonly jobs: number;
  readonly enqueueMsPerJob: number;
  readonly resultMsPerJob: number;
  readonly recordingMsPerJob: number;
  readonly recordingBytesPerJob: number;
  /** Episodes run again by the queue (a worker died or an attempt threw). */
  readonly queueRetries: number;
  /** Jobs that failed on every attempt. */
  readonly failedJobs: number;
}

export class QueueCosts {
  private jobs = 0;
  private enqueueMs = 0;
  private results = 0;
  private resultMs = 0;
  private recordings = 0;
  private recordingMs = 0;
  private recordingBytes = 0;
  private retries = 0;
  private failures = 0;

  enqueued(jobs: number, ms: number): void {
    this.jobs += jobs;
    this.enqueueMs += ms;
  }

  resulted(ms: number): void {
    this.results++;
    this.resultMs += ms;
  }

  recorded(bytes: number, ms: number): void {
    this.recordings++;
    this.recordingBytes += bytes;
    this.recordingMs += ms;
  }

  retried(n: number): void {
    this.retries += n;
  }

  failed(): void {
    this.failures++;
  }

  summary(): QueueCostSummary {
    const per = (total: number, n: number) => (n ? total / n : 0);
    return {
      jobs: this.jobs,
      enqueueMsPerJob: per(this.enqueueMs, this.jobs),
      resultMsPerJob: per(this.resultMs, this.results),
      recordingMsPerJob: per(this.recordingMs, this.recordings),
      recordingBytesPerJob: per(this.recordingBytes, this.recordings),
      queueRetries: this.retries,
      failedJobs: this.failures,
    };
  }
}
