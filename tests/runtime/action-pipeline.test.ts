import { describe, expect, it } from 'vitest';
import { ActionPipeline, type ActionPipelineOptions } from '../../zinfra/runtime/action-pipeline.js';
import { f32, type NdArray, type Observation } from '../../protocol/ndarray.js';

const OBS: Observation = { prompt: 'x' };
const D = 3;

/** Chunk whose action i is [base + i, base + i, gripper]: each action names where it came from. */
function chunk(base: number, h = 10, gripper = 1): NdArray<'<f4'> {
  const data = new Float32Array(h * D);
  for (let i = 0; i < h; i++) data.set([base + i, base + i, gripper], i * D);
  return f32([h, D], data);
}

/** A policy whose answers the test releases by hand, recording the step each request was sent at. */
class ManualPolicy {
  readonly requests: number[] = [];
  private resolvers: Array<(c: NdArray<'<f4'>) => void> = [];
  readonly requester = (_obs: Observation, step: number) => {
    this.requests.push(step);
    return new Promise<NdArray<'<f4'>>((r) => this.resolvers.push(r));
  };
  async answer(c: NdArray<'<f4'>): Promise<void> {
    this.resolvers.shift()!(c);
    await new Promise((r) => setImmediate(r));
  }
}

const opts = (o: Partial<ActionPipelineOptions>): ActionPipelineOptions => ({
  actionDim: D,
  executeSteps: 10,
  prefetchThreshold: 0,
  merge: 'replace',
  deadlineMs: 1000,
  mode: 'lockstep',
  ...o,
});

describe('ActionPipeline', () => {
  it('lockstep, no prefetch: executes k actions of each chunk, then asks again (the LIBERO client)', async () => {
    let calls = 0;
    const p = new ActionPipeline(async () => chunk(100 * ++calls), opts({ executeSteps: 5 }));
    p.begin();
    const firsts: number[] = [];
    for (let step = 0; step < 12; step++) firsts.push((await p.next(OBS, step)).action[0]!);
    expect(firsts).toEqual([100, 101, 102, 103, 104, 200, 201, 202, 203, 204, 300, 301]);
    expect(p.stats.requests).toBe(3);
  });

  it('says when the next call asks the policy for a fresh chunk: nothing queued, nothing in flight', async () => {
    const policy = new ManualPolicy();
    const p = new ActionPipeline(policy.requester, opts({ executeSteps: 2, prefetchThreshold: 1, mode: 'realtime' }));
    p.begin();
    expect(p.chunkDue).toBe(true);
    await p.next(OBS, 0); // asked: in flight
    expect(p.chunkDue).toBe(false);
    await policy.answer(chunk(0));
    await p.next(OBS, 1);
    expect(p.chunkDue).toBe(false); // one queued
    await p.next(OBS, 2); // the last one; the prefetch threshold asked again
    expect(p.chunkDue).toBe(false);
    p.invalidate();
    expect(p.chunkDue).toBe(true);
  });

  it('prefetches at the threshold and skips the actions already in the past when the chunk lands', async () => {
    const policy = new ManualPolicy();
    const p = new ActionPipeline(policy.requester, opts({ prefetchThreshold: 4, mode: 'realtime' }));
    p.begin();
    expect((await p.next(OBS, 0)).source).toBe('hold'); // nothing yet: hold, never stall
    await policy.answer(chunk(0));
    const got: number[] = [];
    for (let step = 1; step <= 6; step++) got.push((await p.next(OBS, step)).action[0]!);
    // Requested at step 0, arrived before step 1: its action 0 was for step 0, already past.
    expect(got).toEqual([1, 2, 3, 4, 5, 6]);
    expect(policy.requests).toEqual([0, 6]); // asked again when 4 remained
    await policy.answer(chunk(600)); // computed from step 6's observation, lands before step 9
    got.length = 0;
    for (let step = 7; step <= 10; step++) got.push((await p.next(OBS, step)).action[0]!);
    expect(got).toEqual([601, 602, 603, 604]);
    expect(p.stats.skippedActions).toBe(2);
  });

  it('starts a chunk where its aligner says (the motion in flight), noted when the chunk was asked for', async () => {
    const noted: number[] = [];
    let inFlight = 0;
    const aligner = {
      asked: () => noted.push(inFlight),
      offset: () => noted.at(-1)!,
    };
    let calls = 0;
    const p = new ActionPipeline(async () => chunk(100 * ++calls), opts({ executeSteps: 3 }));
    p.begin();
    const got: number[] = [];
    for (let step = 0; step < 6; step++) {
      inFlight = step === 3 ? 2 : 0; // two actions in flight at the second chunk boundary
      got.push((await p.next(OBS, step, aligner)).action[0]!);
    }
    // k actions from where each chunk starts: 0 for the first, 2 for the second
    expect(got).toEqual([100, 101, 102, 202, 203, 204]);
    expect(noted).toEqual([0, 2]); // asked once per chunk, not every step
    expect(p.stats.alignedActions).toBe(2);
    expect(p.stats.skippedActions).toBe(0);
  });

  it('in real time, adds the actions already in the past to the aligned start, and always leaves one', async () => {
    const policy = new ManualPolicy();
    const p = new ActionPipeline(policy.requester, opts({ executeSteps: 4, mode: 'realtime' }));
    p.begin();
    await p.next(OBS, 0, { asked: () => {}, offset: () => 3 });
    await policy.answer(chunk(0));
    // asked at step 0, lands before step 2: 3 actions in flight, plus 2 steps already past
    expect((await p.next(OBS, 2)).action[0]).toBe(5);
    expect((await p.next(OBS, 3)).action[0]).toBe(6);
    expect(p.stats.alignedActions).toBe(3);
    expect(p.stats.skippedActions).toBe(2);
    const q = new ActionPipeline(async () => chunk(0, 4), opts({ executeSteps: 4 }));
    q.begin();
    expect((await q.next(OBS, 0, { asked: () => {}, offset: () => 9 })).action[0]).toBe(3);
  });

  it('blends overlapping chunks 0.3 old + 0.7 new, but takes the gripper from the new one', async () => {
    const policy = new ManualPolicy();
    const p = new ActionPipeline(policy.requester, opts({ prefetchThreshold: 8, merge: 'blend', mode: 'realtime' }));
    p.begin();
    await p.next(OBS, 0);
    await policy.answer(chunk(0, 10, 1));
    await p.next(OBS, 1); // old[0] was for step 0 (skipped); executes old[1]; 8 left
    await p.next(OBS, 2); // 8 left ≤ threshold → prefetch from step 2's observation; executes old[2]
    expect(policy.requests).toEqual([0, 2]);
    await policy.answer(chunk(1000, 10, -1));
    const a = (await p.next(OBS, 3)).action; // old[3] overlaps new[1] (new[0] was for step 2)
    expect(a[0]).toBeCloseTo(0.3 * 3 + 0.7 * 1001, 4);
    expect(a[2]).toBe(-1);
  });

  it('holds with the last gripper command in real time, and asks again once a request is past its deadline', async () => {
    const policy = new ManualPolicy();
    const p = new ActionPipeline(policy.requester, opts({ executeSteps: 2, mode: 'realtime', deadlineMs: 5 }));
    p.begin();
    await p.next(OBS, 0);
    await policy.answer(chunk(7, 10, 1));
    expect(Array.from((await p.next(OBS, 1)).action)).toEqual([8, 8, 1]);
    const held = await p.next(OBS, 2);
    expect(held.source).toBe('hold');
    expect(Array.from(held.action)).toEqual([0, 0, 1]); // no motion, grasp kept
    await new Promise((r) => setTimeout(r, 15));
    await p.next(OBS, 3);
    expect(p.stats.lateChunks).toBe(1);
    expect(policy.requests).toEqual([0, 2, 3]);
  });

  it('never executes a chunk computed for an earlier episode', async () => {
    const policy = new ManualPolicy();
    const p = new ActionPipeline(policy.requester, opts({ mode: 'realtime' }));
    p.begin();
    await p.next(OBS, 0); // request for episode 1 in flight
    p.begin(); // episode 2 starts before it lands
    await policy.answer(chunk(111)); // the episode-1 chunk arrives late
    expect((await p.next(OBS, 0)).source).toBe('hold');
    await policy.answer(chunk(222));
    expect((await p.next(OBS, 1)).action[0]).toBe(223);
    expect(p.stats.staleChunks).toBe(1);
  });

  it('in lockstep, a failed request fails the step instead of inventing an action', async () => {
    const p = new ActionPipeline(async () => {
      throw new Error('server gone');
    }, opts({}));
    p.begin();
    await expect(p.next(OBS, 0)).rejects.toThrowError('server gone');
  });
});
