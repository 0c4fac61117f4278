import { afterEach, describe, expect, it, vi } from 'vitest';
import { InferenceBatchScheduler } from '../../zinfra/policy/zmq/batch-scheduler.js';
import { DeadlineExceeded, Overloaded } from '../../zinfra/policy/errors.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../zinfra/policy/policy.js';
import { f32, type Observation } from '../../zinfra/protocol/ndarray.js';

/** A backend that holds each batch until the test opens the gate, and records what it was given. */
class GatedPolicy implements Policy {
  readonly batches: Observation[][] = [];
  closed = false;
  private gates: Array<() => void> = [];
  constructor(
    private readonly version = 'v1',
    private readonly gated = true,
  ) {}
  async metadata(): Promise<PolicyMetadata> {
    return { policyId: 'gated', modelVersion: this.version, actionHorizon: 1, actionDim: 1, observationKeys: [] };
  }
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    this.batches.push([...batch]);
    if (this.gated) await new Promise<void>((r) => this.gates.push(r));
    return batch.map((o) => {
      if (o.poison) throw new Error('poisoned observation');
      return { actions: f32([1, 1], Float32Array.of(Number(o.tag))), policyTiming: {} };
    });
  }
  /** Lets every batch currently inside the backend finish. */
  async open(): Promise<void> {
    for (const g of this.gates.splice(0)) g();
    await flush();
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const flush = () => new Promise((r) => setImmediate(r));
const obs = (tag: number, extra: Observation = {}): Observation => ({ tag: String(tag), 'observation/state': f32([2], Float32Array.of(tag, 0)), ...extra });
const tags = (batch: Observation[]) => batch.map((o) => Number(o.tag));
const submitOpts = (sessionId = 's', deadlineMs = 60_000, priority = 0) => ({ sessionId, deadlineMs, priority });

describe('InferenceBatchScheduler', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('batches what queues while the backend is busy, up to maxBatch', async () => {
    const policy = new GatedPolicy();
    const s = await InferenceBatchScheduler.create(policy, { maxBatch: 4 });
    const all = Array.from({ length: 9 }, (_, i) => s.submit(obs(i), submitOpts()));
    await flush();
    expect(policy.batches.map(tags)).toEqual([[0]]);
    for (let k = 0; k < 3; k++) await policy.open();
    expect(policy.batches.map(tags)).toEqual([[0], [1, 2, 3, 4], [5, 6, 7, 8]]);
    await policy.open();
    const results = await Promise.all(all);
    expect(results.map((r) => r.actions.data[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(results[5]!.batchSize).toBe(4);
  });

  it('never mixes observation schemas in one batch', async () => {
    const policy = new GatedPolicy();
    const s = await InferenceBatchScheduler.create(policy, { maxBatch: 8 });
    const all = [s.submit(obs(0), submitOpts())];
    for (let i = 1; i <= 6; i++) all.push(s.submit(obs(i, i % 2 ? { prompt: 'x' } : {}), submitOpts()));
    for (let k = 0; k < 4; k++) await policy.open();
    await Promise.all(all);
    for (const batch of policy.batches) expect(new Set(batch.map((o) => 'prompt' in o)).size).toBe(1);
    expect(policy.batches.length).toBe(3);
  });

  it('waits up to maxWaitMs for company, and not longer', async () => {
    vi.useFakeTimers();
    const policy = new GatedPolicy('v1', false);
    const s = await InferenceBatchScheduler.create(policy, { maxBatch: 8, maxWaitMs: 5 });
    const three = [0, 1, 2].map((i) => s.submit(obs(i), submitOpts()));
    await vi.advanceTimersByTimeAsync(4);
    expect(policy.batches.length).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(policy.batches.map(tags)).toEqual([[0, 1, 2]]);
    await Promise.all(three);
    const full = Array.from({ length: 8 }, (_, i) => s.submit(obs(10 + i), submitOpts()));
    await vi.advanceTimersByTimeAsync(0);
    expect(policy.batches.at(-1)!.length).toBe(8); // a full batch goes at once
    await Promise.all(full);
  });

  it('serves higher priority first, then the earliest deadline', async () => {
    const policy = new GatedPolicy();
    const s = await InferenceBatchScheduler.create(policy, { maxBatch: 8 });
    const all = [s.submit(obs(0), submitOpts())];
    await flush();
    all.push(s.submit(obs(1), submitOpts('s', 100_000, 0)));
    all.push(s.submit(obs(2), submitOpts('s', 500_000, 1)));
    all.push(s.submit(obs(3), submitOpts('s', 50_000, 0)));
    all.push(s.submit(obs(4), submitOpts('s', 200_000, 1)));
    await policy.open();
    await policy.open();
    await Promise.all(all);
    expect(tags(policy.batches[1]!)).toEqual([4, 2, 3, 1]);
  });

  it('refuses with Overloaded beyond the queue bound and the per-session cap', async () => {
    const policy = new GatedPolicy();
    const s = await InferenceBatchScheduler.create(policy, { maxQueue: 4, maxInFlightPerSession: 2 });
    const a = [s.submit(obs(0), submitOpts('a')), s.submit(obs(1), submitOpts('a'))];
    await expect(s.submit(obs(2), submitOpts('a'))).rejects.toBeInstanceOf(Overloaded);
    const b = [s.submit(obs(3), submitOpts('b')), s.submit(obs(4), submitOpts('c'))];
    await expect(s.submit(obs(5), submitOpts('d'))).rejects.toThrowError(/queue full/);
    expect(s.stats.overloaded).toBe(2);
    for (let k = 0; k < 3; k++) await policy.open();
    await Promise.all([...a, ...b]);
    expect(s.queueLength).toBe(0);
    const again = s.submit(obs(6), submitOpts('a')); // the caps free up
    await flush();
    await policy.open();
    await expect(again).resolves.toBeDefined();
  });

  it('fails a request whose deadline passes in the queue without running it', async () => {
    const policy = new GatedPolicy();
    const s = await InferenceBatchScheduler.create(policy);
    const first = s.submit(obs(0), submitOpts());
    await flush();
    const late = s.submit(obs(1), submitOpts('s', 1)).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 10));
    await policy.open();
    expect(await late).toBeInstanceOf(DeadlineExceeded);
    await first;
    expect(policy.batches.flatMap(tags)).toEqual([0]);
  });

  it('fences model versions: queued requests finish on the old model, new ones use the new one', async () => {
    const v1 = new GatedPolicy('v1');
    const v2 = new GatedPolicy('v2');
    const s = await InferenceBatchScheduler.create(v1, { maxBatch: 8 });
    const old = [0, 1, 2].map((i) => s.submit(obs(i), submitOpts()));
    await flush();
    await s.swapPolicy(v2);
    const fresh = [3, 4].map((i) => s.submit(obs(i), submitOpts()));
    await flush();
    await v1.open();
    await v2.open();
    await v1.open();
    await v2.open();
    const results = await Promise.all([...old, ...fresh]);
    expect(results.map((r) => r.modelVersion)).toEqual(['v1', 'v1', 'v1', 'v2', 'v2']);
    expect(v1.batches.flatMap(tags)).toEqual([0, 1, 2]);
    expect(v2.batches.flatMap(tags)).toEqual([3, 4]);
    expect(v1.closed).toBe(true);
    expect(v2.closed).toBe(false);
  });

  it('isolates an observation that makes the backend throw from its batch-mates', async () => {
    const policy = new GatedPolicy('v1', false);
    const s = await InferenceBatchScheduler.create(policy, { maxBatch: 4, maxWaitMs: 1 });
    const results = await Promise.allSettled([s.submit(obs(0), submitOpts()), s.submit(obs(1, { poison: 'yes' }), submitOpts()), s.submit(obs(2), submitOpts())]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
