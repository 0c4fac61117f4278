// A stand-in for a VLA on a GPU: wraps any Policy so that every call takes a fixed time, whatever the
// batch size (up to maxBatch), as a large model's forward pass does. Used by the benchmarks.
import type { Observation } from '../protocol/ndarray.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../zinfra/policy/policy.js';
import { timerDelay } from '../util/timer-delay.js';

export class DelayedPolicy implements Policy {
  calls = 0;
  constructor(
    private readonly inner: Policy,
    readonly latencyMs: number,
  ) {}

  metadata(): Promise<PolicyMetadata> {
    return this.inner.metadata();
  }

  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    this.calls++;
    const started = performance.now();
    const results = await this.inner.infer(batch);
    const left = this.latencyMs - (performance.now() - started);
    if (left > 0) await new Promise((r) => setTimeout(r, timerDelay(left)));
    return results.map((r) => ({ ...r, policyTiming: { ...r.policyTiming, infer_ms: performance.now() - started } }));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
