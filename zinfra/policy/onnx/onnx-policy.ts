// A frozen policy run in-process by onnxruntime-node (CPU execution provider).
//
// Model convention (also in models/README.md):
// - Every ONNX input is named after the observation key it reads (e.g. `observation/state`) and has
//   a leading batch dimension, symbolic (`batch`) or fixed at 1. The rest of its shape is the shape
//   of one observation's array; symbolic inner dimensions accept any size that agrees across a batch.
//   Observation keys the model has no input for (images, `prompt`, ...) are ignored.
// - Input dtypes: float32/float64 inputs accept `<f4` and `<f8` arrays (converted); int64 accepts
//   `<i8` and `<i4`; int32 `<i4`; uint8 `|u1`; bool `|b1`.
// - The output is `actions` (or the model's only output), float32 (float64 is converted), shaped
//   [B, H, D], or [B, H·D] when metadata_props give `horizon` (and then D = H·D / H).
// - Optional metadata_props: `policy_id`, `model_version` (or `version`), `horizon`, `action_dim`.
//   Without a version, the model version is a prefix of the SHA-256 of the model file.
//
// A batch is stacked into one tensor per input and served by one session.run: that is what makes
// batching pay. Outputs that are not finite are never returned (OnnxPolicyError NON_FINITE_ACTIONS).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { InferenceSession, type Tensor } from 'onnxruntime-node';
import type { ErrorCode } from '../../../protocol/errors.js';
import type { NdArray, Observation } from '../../../protocol/ndarray.js';
import { readOnnxModelProps, type OnnxModelProps } from './onnx-model-props.js';
import type { Policy, PolicyMetadata, PolicyResult } from '../policy.js';
import { describeInputs, fillItem, newInputData, type InputSpec, resolveItemShape } from './onnx-inputs.js';

/** Why an OnnxPolicy call failed, beyond the wire-level code. */
export type OnnxFailure =
  | 'model-not-found'
  | 'model-corrupt'
  | 'model-unsupported'
  | 'missing-key'
  | 'wrong-dtype'
  | 'wrong-shape'
  | 'non-finite'
  | 'run-failed'
  | 'closed';

const CODE_OF: Readonly<Record<OnnxFailure, ErrorCode>> = {
  'model-not-found': 'BACKEND_FAILED',
  'model-corrupt': 'BACKEND_FAILED',
  'model-unsupported': 'BACKEND_FAILED',
  'missing-key': 'INVALID_OBSERVATION',
  'wrong-dtype': 'INVALID_OBSERVATION',
  'wrong-shape': 'INVALID_OBSERVATION',
  'non-finite': 'NON_FINITE_ACTIONS',
  'run-failed': 'BACKEND_FAILED',
  closed: 'SHUTTING_DOWN',
};

/**
 * A typed OnnxPolicy failure. `code` is the wire error code a server replies with; `failure` says
 * exactly what went wrong; `key` names the observation key when one is at fault.
 */
export class OnnxPolicyError extends Error {
  override readonly name = 'OnnxPolicyError';
  readonly code: ErrorCode;
  readonly retryable = false;
  constructor(
    readonly failure: OnnxFailure,
    message: string,
    readonly key?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = CODE_OF[failure];
  }
}

export interface OnnxPolicyOptions {
  /**
   * Threads for one operator. Default 1: policy-sized networks at batch 1–16 are fastest on one
   * thread (a pool's wake-up costs more than it saves) and the control loop keeps the other cores.
   */
  readonly intraOpNumThreads?: number;
  /** Overrides metadata_props `policy_id` (default: the file name without extension). */
  readonly policyId?: string;
  /** The output holding the action chunk (default `actions`, or the only output). */
  readonly outputName?: string;
}

interface OutputSpec {
  readonly name: string;
  readonly horizon: number;
  readonly actionDim: number;
}

function positiveInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  const n = Number(text);
  return n > 0 ? n : undefined;
}

function describeOutput(session: InferenceSession, props: OnnxModelProps, wanted?: string): OutputSpec {
  const names = session.outputNames;
  const name = wanted ?? (names.includes('actions') ? 'actions' : names.length === 1 ? names[0] : undefined);
  const meta = session.outputMetadata.find((m) => m.name === name);
  if (name === undefined || meta === undefined) {
    throw unsupportedModel(`the model has no output '${wanted ?? 'actions'}' (outputs: ${names.join(', ')})`);
  }
  if (!meta.isTensor || (meta.type !== 'float32' && meta.type !== 'float64')) {
    throw unsupportedModel(`output '${name}' must be a float32 tensor`);
  }
  return { name, ...chunkDims(name, meta.shape, props) };
}

const unsupportedModel = (msg: string) => new OnnxPolicyError('model-unsupported', msg);

/** H and D from the output shape [B, H, D] or [B, H·D], checked against metadata_props when both exist. */
function chunkDims(name: string, shape: readonly (number | string)[], props: OnnxModelProps) {
  const dims = shape.slice(1).map((d) => (typeof d === 'number' ? d : undefined));
  const propH = positiveInt(props.metadataProps['horizon']);
  const propD = positiveInt(props.metadataProps['action_dim']);
  let horizon: number | undefined;
  let actionDim: number | undefined;
  if (dims.length === 2) {
    horizon = dims[0] ?? propH;
    actionDim = dims[1] ?? propD;
  } else if (dims.length === 1) {
    // A flat output needs the horizon from metadata to be split.
    const flat = dims[0];
    horizon = propH;
    actionDim = propD ?? (flat !== undefined && propH !== undefined ? flat / propH : undefined);
    if (flat !== undefined && horizon !== undefined && actionDim !== undefined && horizon * actionDim !== flat) {
      throw unsupportedModel(`output '${name}' has ${flat} values per item, not horizon ${horizon} × ${actionDim}`);
    }
  } else {
    throw unsupportedModel(`output '${name}' must be [batch, H, D] or [batch, H*D], not [${shape.join(', ')}]`);
  }
  if (horizon === undefined || actionDim === undefined || !Number.isInteger(actionDim)) {
    throw unsupportedModel(`cannot tell the action horizon and dimension of output '${name}'; set metadata_props`);
  }
  if ((propH !== undefined && propH !== horizon) || (propD !== undefined && propD !== actionDim)) {
    const claimed = `horizon ${propH ?? '?'}, action_dim ${propD ?? '?'}`;
    throw unsupportedModel(`output '${name}' is [${shape.join(', ')}] but metadata_props say ${claimed}`);
  }
  return { horizon, actionDim };
}

async function createSession(path: string, bytes: Uint8Array, threads: number): Promise<InferenceSession> {
  try {
    return await InferenceSession.create(bytes, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      logSeverityLevel: 3,
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new OnnxPolicyError('model-corrupt', `cannot load ONNX model ${path}: ${reason}`, undefined, { cause: err });
  }
}

async function readModel(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const failure = code === 'ENOENT' ? 'model-not-found' : 'model-corrupt';
    throw new OnnxPolicyError(failure, `cannot read ONNX model ${path}: ${String(err)}`, undefined, { cause: err });
  }
}

function readProps(path: string, bytes: Uint8Array): OnnxModelProps {
  try {
    return readOnnxModelProps(bytes);
  } catch (err) {
    throw new OnnxPolicyError('model-corrupt', `${path} is not an ONNX model: ${String(err)}`, undefined, {
      cause: err,
    });
  }
}

// Input buffers are allocated per call: reusing batch-1 buffers measured no faster (≈ 14 µs either
// way for an 8→256→256→70 MLP) and would need a guard against overlapping async runs.
export class OnnxPolicy implements Policy {
  private closed = false;

  private constructor(
    private readonly session: InferenceSession,
    private readonly inputs: readonly InputSpec[],
    private readonly output: OutputSpec,
    private readonly meta: PolicyMetadata,
  ) {}

  /** Loads a model file and reads its inputs, outputs and metadata; fails with OnnxPolicyError. */
  static async load(path: string, options: OnnxPolicyOptions = {}): Promise<OnnxPolicy> {
    const bytes = await readModel(path);
    const props = readProps(path, bytes);
    const session = await createSession(path, bytes, options.intraOpNumThreads ?? 1);
    try {
      const inputs = describeInputs(session, (msg) => new OnnxPolicyError('model-unsupported', msg));
      const output = describeOutput(session, props, options.outputName);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const mp = props.metadataProps;
      const meta: PolicyMetadata = {
        policyId: options.policyId ?? mp['policy_id'] ?? basename(path, extname(path)),
        modelVersion: mp['model_version'] ?? mp['version'] ?? sha256.slice(0, 16),
        actionHorizon: output.horizon,
        actionDim: output.actionDim,
        observationKeys: inputs.map((s) => s.name),
        extra: {
          format: 'onnx',
          sha256,
          inputs: inputs.map((s) => ({
            name: s.name,
            type: s.type,
            shape: [s.fixedBatch ? 1 : 'batch', ...s.itemShape],
          })),
          output: output.name,
          producer: `${props.producerName ?? ''} ${props.producerVersion ?? ''}`.trim(),
          metadata_props: { ...mp },
        },
      };
      return new OnnxPolicy(session, inputs, output, meta);
    } catch (err) {
      await session.release();
      throw err;
    }
  }

  async metadata(): Promise<PolicyMetadata> {
    return this.meta;
  }

  async infer(batch: readonly Observation[]): Promise<PolicyResult[]> {
    if (this.closed) throw new OnnxPolicyError('closed', 'the ONNX policy is closed');
    if (batch.length === 0) return [];
    if (batch.length > 1 && this.inputs.some((s) => s.fixedBatch)) {
      // A model exported with a fixed batch of 1 is served one observation at a time.
      const results: PolicyResult[] = [];
      for (const obs of batch) results.push(...(await this.infer([obs])));
      return results;
    }
    const feeds = this.feeds(batch);
    const start = performance.now();
    const out = await this.run(feeds);
    return this.split(out, batch.length, performance.now() - start);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.session.release();
  }

  private feeds(batch: readonly Observation[]): Record<string, Tensor> {
    const feeds: Record<string, Tensor> = {};
    for (const spec of this.inputs) {
      const arrays = batch.map((obs, i) => lookup(obs, spec, i, batch.length));
      const itemShape = resolveItemShape(spec, arrays, (msg) => new OnnxPolicyError('wrong-shape', msg, spec.name));
      const input = newInputData(spec, batch.length, itemShape);
      arrays.forEach((a, i) => fillItem(input.data, i, a));
      feeds[spec.name] = input.tensor;
    }
    return feeds;
  }

  private async run(feeds: Record<string, Tensor>): Promise<Tensor> {
    let result: InferenceSession.ReturnType;
    try {
      result = await this.session.run(feeds, [this.output.name]);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      throw new OnnxPolicyError('run-failed', `ONNX inference failed: ${msg}`, undefined, { cause: err });
    }
    return result[this.output.name] as Tensor;
  }

  private split(out: Tensor, n: number, inferMs: number): PolicyResult[] {
    const { horizon: h, actionDim: d } = this.output;
    const size = h * d;
    const raw = out.data;
    const data = raw instanceof Float32Array ? raw : Float32Array.from(raw as Float64Array);
    if (out.dims[0] !== n || data.length !== n * size) {
      const msg = `output '${this.output.name}' has shape [${out.dims.join(', ')}], expected [${n}, ${h}, ${d}]`;
      throw new OnnxPolicyError('run-failed', msg);
    }
    for (let i = 0; i < data.length; i++) {
      if (!Number.isFinite(data[i]!)) {
        const item = Math.floor(i / size);
        throw new OnnxPolicyError('non-finite', `the model produced a non-finite action for batch item ${item}`);
      }
    }
    const results: PolicyResult[] = [];
    for (let i = 0; i < n; i++) {
      // Views into the one output buffer: no copy; each is exactly one (H, D) chunk.
      const chunk = n === 1 ? data : data.subarray(i * size, (i + 1) * size);
      results.push({ actions: { dtype: '<f4', shape: [h, d], data: chunk }, policyTiming: { infer_ms: inferMs } });
    }
    return results;
  }
}

function lookup(obs: Observation, spec: InputSpec, item: number, n: number): NdArray {
  const where = n > 1 ? ` (batch item ${item})` : '';
  const value = Object.hasOwn(obs, spec.name) ? obs[spec.name] : undefined;
  const expected = `[${spec.itemShape.join(', ')}] ${spec.type}`;
  if (value === undefined) {
    const msg = `observation has no '${spec.name}'${where}; expected ${expected}`;
    throw new OnnxPolicyError('missing-key', msg, spec.name);
  }
  if (typeof value === 'string' || !spec.accepts.includes(value.dtype)) {
    const got = typeof value === 'string' ? 'a string' : value.dtype;
    const dtypes = spec.accepts.join(' or ');
    const msg = `observation '${spec.name}'${where} is ${got}; expected ${expected} (dtype ${dtypes})`;
    throw new OnnxPolicyError('wrong-dtype', msg, spec.name);
  }
  return value;
}
