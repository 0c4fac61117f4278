import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mlpForward, mlpOnnxBytes, mlpNpzBytes, randomMlp } from '../../models/build/mlp-onnx.js';
import { mulberry32 } from '../../util/seeded-random.js';
import { npyBytes } from '../../models/build/npz-writer.js';
import { readOnnxModelProps } from '../../zinfra/policy/onnx/onnx-model-props.js';
import { ProtoWriter } from '../../models/build/protobuf-writer.js';

const PYTHON = '/usr/bin/python3';

function python(script: string, ...args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync(PYTHON, ['-c', script, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { ok: r.status === 0, out: r.stdout ?? '', err: r.stderr ?? String(r.error ?? '') };
}

const hasNumpy = python('import numpy').ok;
const hasOnnx = python('import onnx').ok;
const dir = mkdtempSync(join(tmpdir(), 'zetta-mlp-onnx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = { inputDim: 8, hidden: [32, 16], horizon: 10, actionDim: 7, seed: 7 };

describe('ProtoWriter', () => {
  it('encodes varints, negative int64, strings and nested messages per the wire format', () => {
    expect([...new ProtoWriter().int(1, 300).finish()]).toEqual([0x08, 0xac, 0x02]);
    const neg = new ProtoWriter().int(1, -1).finish();
    expect(neg.byteLength).toBe(11); // tag + 10-byte two's-complement varint
    expect(neg[10]).toBe(0x01);
    expect([...new ProtoWriter().string(2, 'hi').finish()]).toEqual([0x12, 2, 0x68, 0x69]);
    const nested = new ProtoWriter().message(3, new ProtoWriter().int(1, 1)).finish();
    expect([...nested]).toEqual([0x1a, 2, 0x08, 0x01]);
    expect([...new ProtoWriter().float(1, 1).finish()]).toEqual([0x0d, 0, 0, 0x80, 0x3f]);
  });
});

describe('randomMlp and mlpForward', () => {
  it('is reproducible from the seed and differs across seeds', () => {
    const a = randomMlp(spec);
    const b = randomMlp(spec);
    const c = randomMlp({ ...spec, seed: 8 });
    expect(a.layers.map((l) => [l.inDim, l.outDim])).toEqual([
      [8, 32],
      [32, 16],
      [16, 70],
    ]);
    expect(a.layers[0]!.w).toEqual(b.layers[0]!.w);
    expect(a.layers[0]!.w).not.toEqual(c.layers[0]!.w);
    const rand = mulberry32(1);
    const xs = Array.from({ length: 1000 }, rand);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });

  it('computes x·W + b with ReLU on hidden layers only', () => {
    const weights = {
      horizon: 1,
      actionDim: 2,
      layers: [
        { inDim: 2, outDim: 2, w: Float32Array.of(1, -1, 2, 1), b: Float32Array.of(0, -10) },
        { inDim: 2, outDim: 2, w: Float32Array.of(1, -3, 0, 1), b: Float32Array.of(0.5, -0.5) },
      ],
    };
    // hidden = relu([1+4, -1+2-10]) = [5, 0]; out = [5+0.5, -15-0.5]
    expect([...mlpForward(weights, [1, 2])]).toEqual([5.5, -15.5]);
    expect(() => mlpForward(weights, [1])).toThrow(/expects 2/);
  });
});

describe('mlpOnnxBytes', () => {
  it('carries policy_id, horizon and action_dim in metadata_props', () => {
    const bytes = mlpOnnxBytes(randomMlp(spec), { inputName: 'observation/state', policyId: 'demo' });
    const props = readOnnxModelProps(bytes);
    expect(props.irVersion).toBe(8);
    expect(props.metadataProps).toMatchObject({ policy_id: 'demo', horizon: '10', action_dim: '7' });
  });

  it('rejects weights whose last layer does not make an (H, D) chunk', () => {
    expect(() => mlpOnnxBytes({ ...randomMlp(spec), horizon: 3 }, { inputName: 'x' })).toThrow(/horizon/);
  });

  for (const layout of ['chunk', 'flat'] as const) {
    const title = `passes onnx.checker.check_model with full shape inference (${layout} output)`;
    it.skipIf(!hasOnnx)(`${title}${hasOnnx ? '' : ' [skipped: /usr/bin/python3 has no onnx module]'}`, () => {
      const path = join(dir, `mlp-${layout}.onnx`);
      writeFileSync(path, mlpOnnxBytes(randomMlp(spec), { inputName: 'observation/state', outputLayout: layout }));
      const check = [
        'import sys, onnx',
        'm = onnx.load(sys.argv[1])',
        'onnx.checker.check_model(m, full_check=True)',
        'print(m.opset_import[0].version, [i.name for i in m.graph.input], [o.name for o in m.graph.output])',
      ].join('\n');
      const r = python(check, path);
      expect(r.err).toBe('');
      expect(r.out.trim()).toBe("17 ['observation/state'] ['actions']");
    });
  }
});

describe('npz writer', () => {
  it('pads every .npy header so the data starts on a 64-byte boundary', () => {
    for (const shape of [[], [3], [2, 5]]) {
      const n = shape.reduce((a, b) => a * b, 1);
      const npy = npyBytes({ kind: 'f4', shape, data: new Float32Array(n) });
      const headerLen = npy[8]! | (npy[9]! << 8);
      expect((10 + headerLen) % 64).toBe(0);
      expect(npy.byteLength).toBe(10 + headerLen + 4 * n);
    }
  });

  const title = 'is read by numpy, and its MLP forward matches mlpForward to 1e-5';
  it.skipIf(!hasNumpy)(`${title}${hasNumpy ? '' : ' [skipped: /usr/bin/python3 has no numpy]'}`, () => {
    const weights = randomMlp(spec);
    const path = join(dir, 'mlp.npz');
    writeFileSync(path, mlpNpzBytes(weights, 'observation/state'));
    const inputs = Array.from({ length: 4 }, (_, k) => Array.from({ length: 8 }, (_, i) => Math.sin(k * 8 + i)));
    const script = [
      'import sys, json, numpy as np',
      'z = np.load(sys.argv[1])',
      'n = sum(1 for k in z.files if k.startswith("w"))',
      'x = np.array(json.loads(sys.argv[2]), dtype=np.float32)',
      'for i in range(n):',
      '    x = x @ z[f"w{i}"] + z[f"b{i}"]',
      '    x = np.maximum(x, 0) if i < n - 1 else x',
      'meta = {k: [str(z[k].dtype), list(z[k].shape)] for k in z.files}',
      'print(json.dumps({"meta": meta, "key": str(z["obs_key"]), "h": int(z["horizon"]), "d": int(z["action_dim"]),',
      '                  "y": x.reshape(len(x), int(z["horizon"]), int(z["action_dim"])).tolist()}))',
    ].join('\n');
    const r = python(script, path, JSON.stringify(inputs));
    expect(r.err).toBe('');
    type Reply = { meta: Record<string, [string, number[]]>; key: string; h: number; d: number; y: number[][][] };
    const got = JSON.parse(r.out) as Reply;
    expect(got.key).toBe('observation/state');
    expect([got.h, got.d]).toEqual([10, 7]);
    expect(got.meta['w0']).toEqual(['float32', [8, 32]]);
    expect(got.meta['b2']).toEqual(['float32', [70]]);
    expect(got.meta['horizon']).toEqual(['int64', []]);
    expect(got.meta['obs_key']).toEqual(['<U17', []]);
    inputs.forEach((x, k) => {
      const ref = mlpForward(weights, Float32Array.from(x));
      got.y[k]!.flat().forEach((v, i) => expect(Math.abs(v - ref[i]!)).toBeLessThan(1e-5));
    });
  });
});
