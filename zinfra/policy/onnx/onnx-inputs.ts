// How OnnxPolicy turns observation arrays into ONNX input tensors: which dtypes an input accepts,
// how shapes are checked against the model, and how a batch is stacked into one buffer.
import type { InferenceSession } from 'onnxruntime-node';
import { Tensor } from 'onnxruntime-node';
import { elementCount, type DType, type NdArray } from '../../../protocol/ndarray.js';

export type InputType = 'float32' | 'float64' | 'int64' | 'int32' | 'uint8' | 'bool';
export type InputBuffer = Float32Array | Float64Array | BigInt64Array | Int32Array | Uint8Array;

export interface InputSpec {
  /** The ONNX input name, which is also the observation key. */
  readonly name: string;
  readonly type: InputType;
  /** The shape of one observation's array: the model's input shape without the batch dimension. */
  readonly itemShape: readonly (number | string)[];
  /** Observation dtypes this input takes (converted where they differ). */
  readonly accepts: readonly DType[];
  /** The model was exported with a batch dimension fixed at 1. */
  readonly fixedBatch: boolean;
}

export interface InputData {
  readonly data: InputBuffer;
  /** A tensor over `data`: filling `data` updates what the tensor feeds. */
  readonly tensor: Tensor;
}

const ACCEPTS: Readonly<Record<InputType, readonly DType[]>> = {
  float32: ['<f4', '<f8'],
  float64: ['<f8', '<f4'],
  int64: ['<i8', '<i4'],
  int32: ['<i4'],
  uint8: ['|u1'],
  bool: ['|b1'],
};

type Fail = (message: string) => Error;

/** The model's inputs under the convention in onnx-policy.ts; throws `fail(...)` for anything else. */
export function describeInputs(session: InferenceSession, fail: Fail): InputSpec[] {
  return session.inputMetadata.map((meta) => {
    if (!meta.isTensor) throw fail(`input '${meta.name}' is not a tensor`);
    if (!Object.hasOwn(ACCEPTS, meta.type)) throw fail(`input '${meta.name}' has unsupported type ${meta.type}`);
    const type = meta.type as InputType;
    const [batch, ...itemShape] = meta.shape;
    if (batch === undefined) throw fail(`input '${meta.name}' needs a leading batch dimension`);
    if (typeof batch === 'number' && batch !== 1) {
      throw fail(`input '${meta.name}' has a fixed batch of ${batch}; export it with a symbolic batch dimension`);
    }
    return {
      name: meta.name,
      type,
      itemShape,
      accepts: ACCEPTS[type],
      fixedBatch: typeof batch === 'number',
    };
  });
}

/**
 * The concrete per-observation shape of a batch: each array must match the model's fixed dimensions,
 * and symbolic dimensions must agree across the batch so the arrays stack.
 */
export function resolveItemShape(spec: InputSpec, arrays: readonly NdArray[], fail: Fail): number[] {
  const first = arrays[0]!;
  const expected = `[${spec.itemShape.join(', ')}]`;
  return arrays.reduce<number[]>(
    (shape, a, i) => {
      const where = arrays.length > 1 ? ` (batch item ${i})` : '';
      const ok =
        a.shape.length === spec.itemShape.length &&
        spec.itemShape.every((d, k) => (typeof d === 'number' ? a.shape[k] === d : a.shape[k] === shape[k])) &&
        a.data.length === elementCount(a.shape);
      if (!ok) {
        const got = `[${a.shape.join(', ')}]`;
        throw fail(`observation '${spec.name}'${where} has shape ${got}; the model expects ${expected} per observation`);
      }
      return shape;
    },
    [...first.shape],
  );
}

function allocate(type: InputType, n: number): InputBuffer {
  switch (type) {
    case 'float32':
      return new Float32Array(n);
    case 'float64':
      return new Float64Array(n);
    case 'int64':
      return new BigInt64Array(n);
    case 'int32':
      return new Int32Array(n);
    case 'uint8':
    case 'bool':
      return new Uint8Array(n);
  }
}

/** A zeroed buffer for `batch` observations and a tensor over it. */
export function newInputData(spec: InputSpec, batch: number, itemShape: readonly number[]): InputData {
  const data = allocate(spec.type, batch * elementCount(itemShape));
  return { data, tensor: new Tensor(spec.type, data, [batch, ...itemShape]) };
}

/** Copies one observation's array into slot `index` of a batch buffer, converting its dtype. */
export function fillItem(target: InputBuffer, index: number, array: NdArray): void {
  const src = array.data;
  const offset = index * src.length;
  if (target instanceof BigInt64Array && !(src instanceof BigInt64Array)) {
    for (let i = 0; i < src.length; i++) target[offset + i] = BigInt(src[i] as number);
  } else {
    // Same element family: TypedArray.set converts float64 → float32 (and back) itself.
    (target as Float64Array).set(src as Float64Array, offset);
  }
}
