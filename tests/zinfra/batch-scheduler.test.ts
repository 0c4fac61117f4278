import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchFill } from '../../zinfra/policy/zmq/batch-fill.js';
import { InferenceBatchScheduler } from '../../zinfra/policy/zmq/batch-scheduler.js';
import { DeadlineExceeded, Overloaded } from '../../zinfra/policy/errors.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../../zinfra/policy/policy.js';
import { f32, type Observation } from '../../protocol/ndarray.js';

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
const obs = (tag: number, extra: Observation = {}): Observation => ({
  tag: String(tag),
  'observation/state': f32([2], Float32Array.of(tag, 0)),
  ...extra,
});
const tags = (batch: Observation[]) => batch.map((o) => Number(o.tag));
const submitOpts = (sessionId = 's', deadlineMs = 60_000, priority = 0) => ({ sessionId, deadlineMs, priority });

// These tests submit every request up front, as no closed-loop client does: batch filling, which
// waits briefly for the clients a batch answered to come back, is off where it would hold a batch
// back, and has its own tests below.
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
    const s = await InferenceBatchScheduler.create(policy, { maxBatch: 8, fill: false });
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
    const s = await InferenceBatchScheduler.create(policy, { maxBatch: 8, fill: false });
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
    const s = await InferenceBatchScheduler.create(policy, { maxQueue: 4, maxInFlightPerSession: 2, fill: false });
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
    const s = await InferenceBatchScheduler.create(v1, { maxBatch: 8, fill: false });
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
    const results = await Promise.allSettled([
      s.submit(obs(0), submitOpts()),
      s.submit(obs(1, { poison: 'yes' }), submitOpts()),
      s.submit(obs(2), submitOpts()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

/** A backend that takes a fixed time per call whatever the batch, as a VLA on a GPU does. */
class SlowPolicy implements Policy {
  readonly sizes: number[] = [];
  constructor(private readonly ms: number) {}
  async metadata(): Promise<PolicyMetadata> {
    return { policyId: 'slow', modelVersion: 'v1', actionHorizon: 1, actionDim: 1, observationKeys: [] };
  }
  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    this.sizes.push(batch.length);
    await new Promise((r) => setTimeout(r, this.ms));
    return batch.map(() => ({ actions: f32([1, 1], Float32Array.of(0)), policyTiming: {} }));
  }
  async close(): Promise<void> {}
}

/** `clients` robots in closed loop on one session: each asks, steps for ~1 ms once answered, asks again. */
async function closedLoop(s: InferenceBatchScheduler, clients: number, steps: number): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let k = 0; k < steps; k++) {
        await s.submit(obs(c), submitOpts('robots'));
        await new Promise((r) => setTimeout(r, 1));
      }
    }),
  );
}

describe('InferenceBatchScheduler: filling batches for a slow backend', () => {
  it('waits for the robots the last batch answered instead of sending the waiting half alone', async () => {
    const filled = new SlowPolicy(100);
    await closedLoop(await InferenceBatchScheduler.create(filled, { maxBatch: 8 }), 4, 6);
    const unfilled = new SlowPolicy(100);
    await closedLoop(await InferenceBatchScheduler.create(unfilled, { maxBatch: 8, fill: false }), 4, 6);
    // without filling, the batch sent while the others step splits the robots in two groups for good
    expect(Math.min(...unfilled.sizes)).toBeLessThan(4);
    expect(unfilled.sizes.length).toBeGreaterThan(6);
    // with it, every robot rides every batch between the first (one robot had asked) and the last
    // (the robot that went first has finished its steps)
    expect(filled.sizes.slice(1, -1)).toEqual(new Array(filled.sizes.length - 2).fill(4));
    expect(filled.sizes.length).toBeLessThan(unfilled.sizes.length);
  }, 20_000);
});

describe('BatchFill', () => {
  it('expects each session’s recent peak of outstanding requests, less those running', () => {
    const f = new BatchFill({ fraction: 0.25, capMs: 25, windowMs: 1000 });
    expect(f.target(32, 0, 0)).toBe(1); // nobody seen: never wait
    f.observeOutstanding('worker-a', 24, 0);
    f.observeOutstanding('worker-b', 24, 10);
    expect(f.target(32, 0, 20)).toBe(32);
    expect(f.target(32, 32, 20)).toBe(16);
    // a lone client with one request at a time is never kept waiting for company
    const lone = new BatchFill();
    lone.observeOutstanding('robot', 1, 0);
    expect(lone.target(32, 0, 5)).toBe(1);
  });

  it('forgets a session after two quiet windows', () => {
    const f = new BatchFill({ fraction: 0.25, capMs: 25, windowMs: 1000 });
    f.observeOutstanding('gone', 10, 0);
    expect(f.target(32, 0, 1500)).toBe(10); // the previous window still counts
    expect(f.target(32, 0, 2500)).toBe(1);
  });

  it('waits a fraction of the backend call time, capped', () => {
    const f = new BatchFill({ fraction: 0.25, capMs: 25, windowMs: 1000 });
    expect(f.waitMs()).toBe(0);
    f.observeCall(60);
    expect(f.waitMs()).toBe(15);
    f.observeCall(1000);
    expect(f.waitMs()).toBe(25);
    const fast = new BatchFill();
    fast.observeCall(0.1);
    expect(fast.waitMs()).toBeCloseTo(0.025);
  });
});
