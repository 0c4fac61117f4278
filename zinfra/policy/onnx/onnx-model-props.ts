// Reads the top-level descriptive fields of an ONNX ModelProto straight from its bytes.
// onnxruntime-node exposes input/output metadata but not the model's metadata_props (where an
// exporter puts the policy id, version, horizon, ...), so we walk the protobuf wire format ourselves,
// skipping every field we do not need (the graph included) without decoding it.

export interface OnnxModelProps {
  readonly irVersion?: number;
  readonly producerName?: string;
  readonly producerVersion?: string;
  /** ModelProto.model_version (int64), when the exporter set it. */
  readonly modelVersion?: number;
  /** ModelProto.metadata_props as a plain map (later duplicates win). */
  readonly metadataProps: Readonly<Record<string, string>>;
}

/** Thrown when the bytes are not a well-formed protobuf message. */
export class ProtobufDecodeError extends Error {
  override readonly name = 'ProtobufDecodeError';
}

const textDecoder = new TextDecoder('utf-8', { fatal: false });

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.byteLength;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.buf.byteLength) throw new ProtobufDecodeError('truncated varint');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asIntN(64, result);
    }
    throw new ProtobufDecodeError('varint longer than 10 bytes');
  }

  bytes(): Uint8Array {
    const len = Number(this.varint());
    if (len < 0 || this.pos + len > this.buf.byteLength) throw new ProtobufDecodeError('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.advance(8);
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.advance(4);
    else throw new ProtobufDecodeError(`unsupported wire type ${wireType}`);
  }

  private advance(n: number): void {
    if (this.pos + n > this.buf.byteLength) throw new ProtobufDecodeError('truncated field');
    this.pos += n;
  }
}

function readEntry(bytes: Uint8Array): [string, string] {
  const r = new Reader(bytes);
  let key = '';
  let value = '';
  while (!r.done) {
    const tag = Number(r.varint());
    if (tag === (1 << 3) + 2) key = textDecoder.decode(r.bytes());
    else if (tag === (2 << 3) + 2) value = textDecoder.decode(r.bytes());
    else r.skip(tag & 7);
  }
  return [key, value];
}

/** The descriptive fields of a serialized ModelProto. Throws ProtobufDecodeError on malformed bytes. */
export function readOnnxModelProps(model: Uint8Array): OnnxModelProps {
  const r = new Reader(model);
  const props: { -readonly [K in keyof OnnxModelProps]: OnnxModelProps[K] } = { metadataProps: {} };
  const metadata: Record<string, string> = {};
  while (!r.done) {
    const tag = Number(r.varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    if (field === 1 && wire === 0) props.irVersion = Number(r.varint());
    else if (field === 2 && wire === 2) props.producerName = textDecoder.decode(r.bytes());
    else if (field === 3 && wire === 2) props.producerVersion = textDecoder.decode(r.bytes());
    else if (field === 5 && wire === 0) props.modelVersion = Number(r.varint());
    else if (field === 14 && wire === 2) {
      const [k, v] = readEntry(r.bytes());
      metadata[k] = v;
    } else r.skip(wire);
  }
  props.metadataProps = metadata;
  return props;
}
