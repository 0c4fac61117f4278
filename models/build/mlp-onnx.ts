// A multilayer perceptron policy written as an ONNX model (and as an .npz for the Python shim) in
// pure TypeScript. It makes the tiny test model and a demo policy before a trained one exists.
//
// Architecture: x → (Gemm → Relu) × hidden layers → Gemm → Reshape → actions [batch, H, D].
// Weights are stored as w_i shaped (in, out) and b_i shaped (out,), so y = x · w_i + b_i; the last
// layer has no activation. The ONNX model carries metadata_props `policy_id`, `horizon` and
// `action_dim`, which OnnxPolicy reads.
import { writeFileSync } from 'node:fs';
import { ProtoWriter } from './protobuf-writer.js';
import { npzBytes, type NpyArray } from './npz-writer.js';
import { mulberry32 } from '../../util/seeded-random.js';

export interface MlpLayer {
  readonly inDim: number;
  readonly outDim: number;
  /** Row-major (inDim, outDim). */
  readonly w: Float32Array;
  /** (outDim,). */
  readonly b: Float32Array;
}

export interface MlpWeights {
  readonly layers: readonly MlpLayer[];
  readonly horizon: number;
  readonly actionDim: number;
}

export interface RandomMlpSpec {
  readonly inputDim: number;
  readonly hidden: readonly number[];
  readonly horizon: number;
  readonly actionDim: number;
  readonly seed: number;
}

export interface MlpOnnxOptions {
  /** The ONNX input name, i.e. the observation key the policy reads, e.g. `observation/state`. */
  readonly inputName: string;
  readonly policyId?: string;
  /** Extra metadata_props (e.g. `model_version`); `policy_id`, `horizon`, `action_dim` are always set. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** `flat` emits actions as [batch, H·D] (no Reshape), as some exporters do. Default `chunk`. */
  readonly outputLayout?: 'chunk' | 'flat';
  /** Fix the batch dimension at 1 (what an export without dynamic axes gives). Default: symbolic. */
  readonly fixedBatch?: boolean;
}

/** Random weights, uniform in ±1/√fan_in (PyTorch's Linear default), reproducible from the seed. */
export function randomMlp(spec: RandomMlpSpec): MlpWeights {
  const dims = [spec.inputDim, ...spec.hidden, spec.horizon * spec.actionDim];
  for (const d of dims) {
    if (!Number.isInteger(d) || d < 1) throw new RangeError(`randomMlp: invalid layer size ${d}`);
  }
  const rand = mulberry32(spec.seed);
  const layers: MlpLayer[] = [];
  for (let i = 0; i + 1 < dims.length; i++) {
    const inDim = dims[i]!;
    const outDim = dims[i + 1]!;
    const bound = 1 / Math.sqrt(inDim);
    const w = new Float32Array(inDim * outDim).map(() => (rand() * 2 - 1) * bound);
    const b = new Float32Array(outDim).map(() => (rand() * 2 - 1) * bound);
    layers.push({ inDim, outDim, w, b });
  }
  return { layers, horizon: spec.horizon, actionDim: spec.actionDim };
}

/** Reference forward pass for one input vector: the flat (H·D) output, float32. */
export function mlpForward(weights: MlpWeights, input: ArrayLike<number>): Float32Array {
  const first = weights.layers[0];
  if (first === undefined) throw new RangeError('mlpForward: the MLP has no layers');
  if (input.length !== first.inDim) {
    throw new RangeError(`mlpForward: input has ${input.length} values, the MLP expects ${first.inDim}`);
  }
  let x: ArrayLike<number> = input;
  weights.layers.forEach((layer, li) => {
    const y = new Float64Array(layer.outDim);
    for (let o = 0; o < layer.outDim; o++) y[o] = layer.b[o]!;
    for (let i = 0; i < layer.inDim; i++) {
      const xi = x[i]!;
      const row = i * layer.outDim;
      for (let o = 0; o < layer.outDim; o++) y[o]! += xi * layer.w[row + o]!;
    }
    const last = li === weights.layers.length - 1;
    x = last ? y : y.map((v) => (v > 0 ? v : 0));
  });
  return Float32Array.from(x);
}

function checkShapes(weights: MlpWeights): void {
  const layers = weights.layers;
  if (layers.length === 0) throw new RangeError('MLP: no layers');
  layers.forEach((l, i) => {
    if (l.w.length !== l.inDim * l.outDim || l.b.length !== l.outDim) {
      throw new RangeError(`MLP: layer ${i} arrays do not match (${l.inDim}, ${l.outDim})`);
    }
    if (i > 0 && layers[i - 1]!.outDim !== l.inDim) throw new RangeError(`MLP: layer ${i} input size mismatch`);
  });
  if (layers.at(-1)!.outDim !== weights.horizon * weights.actionDim) {
    throw new RangeError(`MLP: last layer emits ${layers.at(-1)!.outDim}, not horizon × action_dim`);
  }
}

// ---- ONNX message builders (field numbers from onnx/onnx.proto) ----

const ELEM_FLOAT = 1;
const ELEM_INT64 = 7;
const ATTR_INT = 2;

function tensor(name: string, dims: readonly number[], elemType: number, raw: ArrayBufferView): ProtoWriter {
  const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  // raw_data is little-endian; so is every platform Node runs on.
  return new ProtoWriter().ints(1, dims).int(2, elemType).string(8, name).bytes(9, bytes);
}

function valueInfo(name: string, elemType: number, dims: readonly (number | string)[]): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of dims) {
    const dim = typeof d === 'number' ? new ProtoWriter().int(1, d) : new ProtoWriter().string(2, d);
    shape.message(1, dim);
  }
  const tensorType = new ProtoWriter().int(1, elemType).message(2, shape);
  return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
}

function node(op: string, inputs: readonly string[], outputs: readonly string[], name: string): ProtoWriter {
  const n = new ProtoWriter();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  return n.string(3, name).string(4, op);
}

function intAttr(name: string, value: number): ProtoWriter {
  return new ProtoWriter().string(1, name).int(3, value).int(20, ATTR_INT);
}

function mlpGraph(weights: MlpWeights, options: MlpOnnxOptions): ProtoWriter {
  const flat = options.outputLayout === 'flat';
  const batch = options.fixedBatch === true ? 1 : 'batch';
  const g = new ProtoWriter();
  let x = options.inputName;
  const lastLayer = weights.layers.length - 1;
  weights.layers.forEach((l, i) => {
    const y = flat && i === lastLayer ? 'actions' : `gemm${i}`;
    // Gemm(A, B, C) = A·B + C with transB = 0: B is (in, out), exactly how the weights are stored.
    g.message(1, node('Gemm', [x, `w${i}`, `b${i}`], [y], `gemm${i}`).message(5, intAttr('transB', 0)));
    x = y;
    if (i < lastLayer) {
      g.message(1, node('Relu', [y], [`relu${i}`], `relu${i}`));
      x = `relu${i}`;
    }
  });
  if (!flat) g.message(1, node('Reshape', [x, 'actions_shape'], ['actions'], 'reshape_actions'));
  g.string(2, 'mlp_policy');
  weights.layers.forEach((l, i) => {
    g.message(5, tensor(`w${i}`, [l.inDim, l.outDim], ELEM_FLOAT, l.w));
    g.message(5, tensor(`b${i}`, [l.outDim], ELEM_FLOAT, l.b));
  });
  const { horizon: h, actionDim: d } = weights;
  if (!flat) g.message(5, tensor('actions_shape', [3], ELEM_INT64, BigInt64Array.of(-1n, BigInt(h), BigInt(d))));
  g.message(11, valueInfo(options.inputName, ELEM_FLOAT, [batch, weights.layers[0]!.inDim]));
  g.message(12, valueInfo('actions', ELEM_FLOAT, flat ? [batch, h * d] : [batch, h, d]));
  return g;
}

/** The MLP as ONNX ModelProto bytes (ir_version 8, opset 17). */
export function mlpOnnxBytes(weights: MlpWeights, options: MlpOnnxOptions): Uint8Array {
  checkShapes(weights);
  const props: Record<string, string> = {
    ...options.metadata,
    policy_id: options.policyId ?? 'mlp',
    horizon: String(weights.horizon),
    action_dim: String(weights.actionDim),
  };
  const model = new ProtoWriter()
    .int(1, 8) // ir_version
    .string(2, 'zetta')
    .string(3, '0.1.0')
    .message(7, mlpGraph(weights, options))
    .message(8, new ProtoWriter().string(1, '').int(2, 17)); // opset_import: default domain, 17
  for (const [key, value] of Object.entries(props)) {
    model.message(14, new ProtoWriter().string(1, key).string(2, value));
  }
  return model.finish();
}

export function writeMlpOnnx(path: string, weights: MlpWeights, options: MlpOnnxOptions): void {
  writeFileSync(path, mlpOnnxBytes(weights, options));
}

/**
 * The same MLP as an .npz (the Python shim's `npz-mlp:<file>` format): float32 `w0, b0, w1, b1, ...`
 * with w_i shaped (in, out), int64 0-d `horizon` and `action_dim`, and a 0-d unicode `obs_key`.
 */
export function mlpNpzBytes(weights: MlpWeights, obsKey: string): Uint8Array {
  checkShapes(weights);
  const arrays: Record<string, NpyArray> = {};
  weights.layers.forEach((l, i) => {
    arrays[`w${i}`] = { kind: 'f4', shape: [l.inDim, l.outDim], data: l.w };
    arrays[`b${i}`] = { kind: 'f4', shape: [l.outDim], data: l.b };
  });
  arrays['horizon'] = { kind: 'i8', shape: [], data: BigInt64Array.of(BigInt(weights.horizon)) };
  arrays['action_dim'] = { kind: 'i8', shape: [], data: BigInt64Array.of(BigInt(weights.actionDim)) };
  arrays['obs_key'] = { kind: 'U', shape: [], data: obsKey };
  return npzBytes(arrays);
}

export function writeMlpNpz(path: string, weights: MlpWeights, obsKey: string): void {
  writeFileSync(path, mlpNpzBytes(weights, obsKey));
}
