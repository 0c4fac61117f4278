import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndarray, type NdArray, type Observation } from '../../protocol/ndarray.js';
import { mlpForward, mlpOnnxBytes, randomMlp, type MlpWeights } from '../../models/build/mlp-onnx.js';
import { OnnxPolicy, OnnxPolicyError, type OnnxFailure } from '../../zinfra/policy/onnx/onnx-policy.js';
import { ProtoWriter } from '../../models/build/protobuf-writer.js';

const KEY = 'observation/state';
const dir = mkdtempSync(join(tmpdir(), 'zetta-onnx-policy-'));
const weights = randomMlp({ inputDim: 8, hidden: [64, 64], horizon: 10, actionDim: 7, seed: 42 });

function writeModel(name: string, w: MlpWeights, options: Parameters<typeof mlpOnnxBytes>[1]): string {
  const path = join(dir, name);
  writeFileSync(path, mlpOnnxBytes(w, options));
  return path;
}

function state(seed: number): Float32Array {
  return Float32Array.from({ length: 8 }, (_, i) => Math.sin(seed * 13 + i) * 0.8);
}

const obs = (x: Float32Array, extra: Observation = {}): Observation => ({ [KEY]: ndarray('<f4', [8], x), ...extra });

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

async function failure(p: Promise<unknown>): Promise<OnnxPolicyError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OnnxPolicyError);
  return err as OnnxPolicyError;
}

async function expectFailure(p: Promise<unknown>, kind: OnnxFailure, message: RegExp): Promise<OnnxPolicyError> {
  const err = await failure(p);
  expect(err.failure).toBe(kind);
  expect(err.message).toMatch(message);
  return err;
}

let modelPath: string;
let policy: OnnxPolicy;

beforeAll(async () => {
  modelPath = writeModel('policy.onnx', weights, { inputName: KEY, policyId: 'test-mlp' });
  policy = await OnnxPolicy.load(modelPath);
});

afterAll(async () => {
  await policy.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OnnxPolicy outputs', () => {
  it('matches the reference forward pass at batch 1, as a float32 (H, D) chunk', async () => {
    const x = state(1);
    const [r] = await policy.infer([obs(x)]);
    expect(r!.actions.dtype).toBe('<f4');
    expect(r!.actions.shape).toEqual([10, 7]);
    expect(r!.actions.data).toBeInstanceOf(Float32Array);
    expect(maxDiff(r!.actions.data, mlpForward(weights, x))).toBeLessThan(1e-5);
    expect(r!.policyTiming['infer_ms']).toBeGreaterThanOrEqual(0);
  });

  it('matches the reference at batch 8, and each batch item equals its own batch-1 result', async () => {
    const xs = Array.from({ length: 8 }, (_, i) => state(i + 10));
    const batch = await policy.infer(xs.map((x) => obs(x)));
    expect(batch).toHaveLength(8);
    for (const [i, x] of xs.entries()) {
      const item = batch[i]!.actions;
      expect(item.shape).toEqual([10, 7]);
      expect(item.data.length).toBe(70);
      expect(maxDiff(item.data, mlpForward(weights, x))).toBeLessThan(1e-5);
      const [single] = await policy.infer([obs(x)]);
      expect(maxDiff(item.data, single!.actions.data)).toBeLessThan(1e-6);
    }
  });

  it('keeps successive and overlapping calls apart', async () => {
    const a = state(100);
    const b = state(200);
    const [ra] = await policy.infer([obs(a)]);
    const [rb] = await policy.infer([obs(b)]);
    // Overlapping calls: each must be served from its own input, whatever the scheduling.
    const [[ca], [cb]] = await Promise.all([policy.infer([obs(a)]), policy.infer([obs(b)])]);
    expect(maxDiff(ra!.actions.data, mlpForward(weights, a))).toBeLessThan(1e-5);
    expect(maxDiff(rb!.actions.data, mlpForward(weights, b))).toBeLessThan(1e-5);
    expect(maxDiff(ca!.actions.data, ra!.actions.data)).toBe(0);
    expect(maxDiff(cb!.actions.data, rb!.actions.data)).toBe(0);
    expect(maxDiff(ra!.actions.data, rb!.actions.data)).toBeGreaterThan(1e-3);
  });

  it('converts <f8 observations and ignores keys the model does not read', async () => {
    const x = state(3);
    const extra = { prompt: 'pick up the cube', 'observation/image': ndarray('|u1', [2, 2, 3], new Uint8Array(12)) };
    const [r] = await policy.infer([{ [KEY]: ndarray('<f8', [8], Float64Array.from(x)), ...extra }]);
    expect(maxDiff(r!.actions.data, mlpForward(weights, x))).toBeLessThan(1e-5);
  });

  it('returns an empty list for an empty batch', async () => {
    expect(await policy.infer([])).toEqual([]);
  });

  it('splits a flat [B, H*D] output using the horizon from metadata_props', async () => {
    const path = writeModel('flat.onnx', weights, { inputName: KEY, outputLayout: 'flat' });
    const flat = await OnnxPolicy.load(path);
    try {
      const meta = await flat.metadata();
      expect([meta.actionHorizon, meta.actionDim]).toEqual([10, 7]);
      const xs = [state(5), state(6)];
      const rs = await flat.infer(xs.map((x) => obs(x)));
      rs.forEach((r, i) => {
        expect(r.actions.shape).toEqual([10, 7]);
        expect(maxDiff(r.actions.data, mlpForward(weights, xs[i]!))).toBeLessThan(1e-5);
      });
    } finally {
      await flat.close();
    }
  });

  it('serves a model exported with a fixed batch of 1 one observation at a time', async () => {
    const fixed = await OnnxPolicy.load(writeModel('fixed.onnx', weights, { inputName: KEY, fixedBatch: true }));
    try {
      expect((await fixed.metadata()).extra?.['inputs']).toEqual([{ name: KEY, type: 'float32', shape: [1, 8] }]);
      const xs = [state(7), state(8), state(9)];
      const rs = await fixed.infer(xs.map((x) => obs(x)));
      expect(rs).toHaveLength(3);
      rs.forEach((r, i) => expect(maxDiff(r.actions.data, mlpForward(weights, xs[i]!))).toBeLessThan(1e-5));
    } finally {
      await fixed.close();
    }
  });
});

describe('OnnxPolicy metadata', () => {
  it('reads names, horizon and dims from the model, and versions it by content', async () => {
    const meta = await policy.metadata();
    const sha = createHash('sha256').update(readFileSync(modelPath)).digest('hex');
    expect(meta).toMatchObject({
      policyId: 'test-mlp',
      modelVersion: sha.slice(0, 16),
      actionHorizon: 10,
      actionDim: 7,
      observationKeys: [KEY],
    });
    expect(meta.extra).toMatchObject({ format: 'onnx', sha256: sha, output: 'actions' });
    expect(meta.extra?.['inputs']).toEqual([{ name: KEY, type: 'float32', shape: ['batch', 8] }]);
  });

  it('prefers a model_version from metadata_props, and a policy id passed by the caller', async () => {
    const path = writeModel('versioned.onnx', weights, { inputName: KEY, metadata: { model_version: 'bc-2024-06' } });
    const p = await OnnxPolicy.load(path, { policyId: 'override' });
    const meta = await p.metadata();
    await p.close();
    expect(meta.modelVersion).toBe('bc-2024-06');
    expect(meta.policyId).toBe('override');
  });

  it('gives models with different weights different versions', async () => {
    const other = randomMlp({ inputDim: 8, hidden: [64, 64], horizon: 10, actionDim: 7, seed: 43 });
    const p = await OnnxPolicy.load(writeModel('other.onnx', other, { inputName: KEY, policyId: 'test-mlp' }));
    const meta = await p.metadata();
    await p.close();
    expect(meta.modelVersion).not.toBe((await policy.metadata()).modelVersion);
  });
});

describe('OnnxPolicy errors', () => {
  it('names a missing observation key and the shape it expects', async () => {
    const wrongKey = { 'observation/other': ndarray('<f4', [8], state(1)) };
    const err = await expectFailure(policy.infer([wrongKey]), 'missing-key', /observation\/state.*\[8\]/);
    expect(err.code).toBe('INVALID_OBSERVATION');
    expect(err.key).toBe(KEY);
  });

  it('names the key, the batch item and the expected shape for a wrong shape', async () => {
    const short = { [KEY]: ndarray('<f4', [7], new Float32Array(7)) };
    await expectFailure(policy.infer([short]), 'wrong-shape', /observation\/state.*\[7\].*\[8\]/);
    const batch = [obs(state(1)), { [KEY]: ndarray('<f4', [2, 4], state(2)) }];
    const err = await expectFailure(policy.infer(batch), 'wrong-shape', /batch item 1/);
    expect(err.code).toBe('INVALID_OBSERVATION');
  });

  it('rejects a wrong dtype or a string where an array belongs', async () => {
    const bytes: NdArray = ndarray('|u1', [8], new Uint8Array(8));
    await expectFailure(policy.infer([{ [KEY]: bytes }]), 'wrong-dtype', /\|u1.*<f4 or <f8/);
    await expectFailure(policy.infer([{ [KEY]: 'not an array' }]), 'wrong-dtype', /a string/);
  });

  it('fails typed on a missing model file and on corrupt ones', async () => {
    await expectFailure(OnnxPolicy.load(join(dir, 'nope.onnx')), 'model-not-found', /nope\.onnx/);
    const garbage = join(dir, 'garbage.onnx');
    writeFileSync(garbage, Buffer.from('this is not an onnx model at all, just text\n'));
    await expectFailure(OnnxPolicy.load(garbage), 'model-corrupt', /garbage\.onnx/);
    const truncated = join(dir, 'truncated.onnx');
    writeFileSync(truncated, readFileSync(modelPath).subarray(0, 200));
    const err = await expectFailure(OnnxPolicy.load(truncated), 'model-corrupt', /truncated\.onnx/);
    expect(err.code).toBe('BACKEND_FAILED');
  });

  it('refuses non-finite outputs instead of returning them', async () => {
    const bad = randomMlp({ inputDim: 8, hidden: [16], horizon: 10, actionDim: 7, seed: 1 });
    const last = bad.layers.at(-1)!;
    last.b[3] = Number.NaN;
    const nanPolicy = await OnnxPolicy.load(writeModel('nan.onnx', bad, { inputName: KEY }));
    last.b[3] = Number.POSITIVE_INFINITY;
    const infPolicy = await OnnxPolicy.load(writeModel('inf.onnx', bad, { inputName: KEY }));
    try {
      const err = await expectFailure(nanPolicy.infer([obs(state(1))]), 'non-finite', /non-finite/);
      expect(err.code).toBe('NON_FINITE_ACTIONS');
      await expectFailure(infPolicy.infer([obs(state(1)), obs(state(2))]), 'non-finite', /batch item 0/);
    } finally {
      await nanPolicy.close();
      await infPolicy.close();
    }
  });

  it('refuses a model whose metadata_props contradict its output shape', async () => {
    const bytes = mlpOnnxBytes(weights, { inputName: KEY });
    // Protobuf merges concatenated messages: this appends one more metadata_props entry.
    const entry = new ProtoWriter().message(14, new ProtoWriter().string(1, 'horizon').string(2, '5')).finish();
    const path = join(dir, 'contradicts.onnx');
    writeFileSync(path, Buffer.concat([bytes, entry]));
    await expectFailure(OnnxPolicy.load(path), 'model-unsupported', /\[batch, 10, 7\].*horizon 5/);
  });

  it('refuses calls after close', async () => {
    const p = await OnnxPolicy.load(modelPath);
    await p.close();
    const err = await expectFailure(p.infer([obs(state(1))]), 'closed', /closed/);
    expect(err.code).toBe('SHUTTING_DOWN');
  });
});
