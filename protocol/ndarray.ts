// N-dimensional arrays as they cross the wire, in the openpi `msgpack_numpy` convention:
// a map {__ndarray__: true, data: <C-order bytes>, dtype: "<f4" | "|u1" | ..., shape: [...]}.
// A Python peer decodes them with numpy alone.

export type DType = '|u1' | '|b1' | '<i4' | '<i8' | '<f4' | '<f8';

export type TypedArrayOf<D extends DType> = D extends '|u1' | '|b1'
  ? Uint8Array
  : D extends '<i4'
    ? Int32Array
    : D extends '<i8'
      ? BigInt64Array
      : D extends '<f4'
        ? Float32Array
        : Float64Array;

export type AnyTypedArray = Uint8Array | Int32Array | BigInt64Array | Float32Array | Float64Array;

export interface NdArray<D extends DType = DType> {
  readonly dtype: D;
  readonly shape: readonly number[];
  readonly data: TypedArrayOf<D>;
}

export const DTYPE_BYTES: Readonly<Record<DType, number>> = {
  '|u1': 1,
  '|b1': 1,
  '<i4': 4,
  '<i8': 8,
  '<f4': 4,
  '<f8': 8,
};

export function isDType(value: unknown): value is DType {
  return typeof value === 'string' && Object.hasOwn(DTYPE_BYTES, value);
}

export function isNdArray(value: unknown): value is NdArray {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<NdArray>;
  return isDType(v.dtype) && Array.isArray(v.shape) && ArrayBuffer.isView(v.data);
}

export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

export function ndarray<D extends DType>(dtype: D, shape: readonly number[], data: TypedArrayOf<D>): NdArray<D> {
  if (data.length !== elementCount(shape)) {
    throw new RangeError(`ndarray: ${data.length} elements do not fill shape [${shape.join(', ')}]`);
  }
  return { dtype, shape: [...shape], data };
}

export const f32 = (shape: readonly number[], data: Float32Array): NdArray<'<f4'> => ndarray('<f4', shape, data);
export const u8 = (shape: readonly number[], data: Uint8Array): NdArray<'|u1'> => ndarray('|u1', shape, data);

/** A policy observation: named arrays and strings (e.g. `observation/state`, `prompt`). */
export type Observation = Record<string, NdArray | string>;
