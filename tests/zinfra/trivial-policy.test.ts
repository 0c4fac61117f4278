import { describe, expect, it } from 'vitest';
import { openPolicy, PolicySpecError } from '../../zinfra/policy/open-policy.js';
import { TRIVIAL_POLICY_SPECS, TrivialPolicy, parseTrivialSpec } from '../../zinfra/policy/trivial/trivial-policy.js';
import type { Observation } from '../../protocol/ndarray.js';

const observation = (x: number): Observation => ({
  'observation/state': { dtype: '<f4', shape: [8], data: Float32Array.from([x, 0.1, 0.2, 0, 0, 0, 0.04, 0.04]) },
  prompt: 'press the button',
});

async function chunk(spec: string, obs: Observation): Promise<Float32Array> {
  const policy = await openPolicy(spec);
  const [r] = await policy.infer([obs]);
  await policy.close();
  expect(r!.actions.shape).toEqual([10, 7]);
  return r!.actions.data as Float32Array;
}

describe('TrivialPolicy (the governance controls)', () => {
  it('parses null:open, null:closed and null:random:SEED, and nothing else', async () => {
    expect(parseTrivialSpec('null:open')).toEqual({ kind: 'open' });
    expect(parseTrivialSpec('null:closed')).toEqual({ kind: 'closed' });
    expect(parseTrivialSpec('null:random:42')).toEqual({ kind: 'random', seed: 42 });
    for (const bad of ['null:', 'null:shut', 'null:random', 'null:random:-1', 'null:random:1.5', 'null:open:1'])
      expect(parseTrivialSpec(bad), bad).toBeNull();
    for (const spec of TRIVIAL_POLICY_SPECS) expect(await openPolicy(spec)).toBeInstanceOf(TrivialPolicy);
    await expect(openPolicy('null:shut')).rejects.toBeInstanceOf(PolicySpecError);
  });

  it('null:closed holds still with the gripper closed, null:open with it open', async () => {
    const closed = await chunk('null:closed', observation(0.3));
    const open = await chunk('null:open', observation(0.3));
    for (let t = 0; t < 10; t++) {
      expect([...closed.subarray(t * 7, t * 7 + 6)]).toEqual([0, 0, 0, 0, 0, 0]);
      expect(closed[t * 7 + 6]).toBe(1);
      expect([...open.subarray(t * 7, t * 7 + 6)]).toEqual([0, 0, 0, 0, 0, 0]);
      expect(open[t * 7 + 6]).toBe(-1);
    }
  });

  it('null:random answers the same observation with the same chunk, in [-1, 1]; another seed or observation changes it', async () => {
    const a = await chunk('null:random:7', observation(0.3));
    const again = await chunk('null:random:7', observation(0.3));
    expect([...again]).toEqual([...a]);
    expect(a.every((x) => x >= -1 && x <= 1)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(60); // it moves, not a constant
    expect([...(await chunk('null:random:8', observation(0.3)))]).not.toEqual([...a]);
    expect([...(await chunk('null:random:7', observation(0.31)))]).not.toEqual([...a]);
    const batched = await new TrivialPolicy({ kind: 'random', seed: 7 }).infer([observation(0.5), observation(0.3)]);
    expect([...(batched[1]!.actions.data as Float32Array)]).toEqual([...a]); // batch company changes nothing
  });
});
