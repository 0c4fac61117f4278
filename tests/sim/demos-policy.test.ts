// The committed embedded base policy (models/embedded-bc.onnx) loads through OnnxPolicy with the
// four observation inputs and returns finite (10, 7) chunks, the gripper as exactly −1 or +1.
// Nothing here retrains: the model card (models/README.md) says how the file was made.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasks, TabletopEnv } from '../../sim/tabletop/index.js';
import { POLICY_KEYS, PolicyObservationWriter } from '../../sim/tabletop/policy-io.js';
import { OnnxPolicy } from '../../zinfra/policy/onnx/onnx-policy.js';

const MODEL = fileURLToPath(new URL('../../models/embedded-bc.onnx', import.meta.url));
let policy: OnnxPolicy;
let env: TabletopEnv;

beforeAll(async () => {
  policy = await OnnxPolicy.load(MODEL);
  env = await TabletopEnv.create();
});
afterAll(async () => {
  await policy.close();
  env.closeSync();
});

describe('models/embedded-bc.onnx', () => {
  it('declares the policy observation inputs, a 10-step chunk of 7-D actions and its identity', async () => {
    const meta = await policy.metadata();
    expect(meta.policyId).toBe('embedded-bc');
    expect(meta.modelVersion).toMatch(/^bc-v\d+-[0-9a-f]{12}$/);
    expect(meta.actionHorizon).toBe(10);
    expect(meta.actionDim).toBe(7);
    expect([...meta.observationKeys].sort()).toEqual([POLICY_KEYS.objects, POLICY_KEYS.state, POLICY_KEYS.step, POLICY_KEYS.task]);
  });

  it('returns finite chunks on every task, one or several observations at a time', async () => {
    const writers = listTasks().map(() => new PolicyObservationWriter());
    const batch = listTasks().map((t, i) => writers[i]!.fill(env.resetSync({ task: t.id, seed: 1000 + i }).obs, t.id));
    const results = [...(await policy.infer(batch)), ...(await policy.infer([batch[0]!]))];
    for (const r of results) {
      expect(r.actions.shape).toEqual([10, 7]);
      const a = r.actions.data;
      expect(a.every(Number.isFinite)).toBe(true);
      for (let k = 0; k < 10; k++) expect([-1, 1]).toContain(a[7 * k + 6]);
    }
    // The same observation alone or in a batch: the same chunk, up to float rounding.
    const alone = results.at(-1)!.actions.data;
    const batched = results[0]!.actions.data;
    for (let i = 0; i < alone.length; i++) expect(Math.abs(alone[i]! - batched[i]!)).toBeLessThan(1e-4);
  });

  it('reads the episode step: the same scene early and late in an episode gets a different chunk', async () => {
    const task = 'long/press_button_then_green_on_plate';
    const obs = new PolicyObservationWriter().fill(env.resetSync({ task, seed: 1000 }).obs, task);
    const early = (await policy.infer([obs]))[0]!.actions.data.slice();
    (obs[POLICY_KEYS.step] as { data: Float32Array }).data[0] = 300;
    const late = (await policy.infer([obs]))[0]!.actions.data;
    expect(Math.max(...early.map((v, i) => Math.abs(v - late[i]!)))).toBeGreaterThan(0.05);
  });
});
