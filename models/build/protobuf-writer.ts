// A minimal protocol-buffers wire-format writer (proto3/proto2 share the wire format): just enough to
// emit ONNX ModelProto messages from TypeScript without a protobuf dependency or generated code.
// Fields are written in the order they are called; nested messages are encoded first and then
// written length-delimited, which is how protobuf defines embedded messages.

const WIRE_VARINT = 0;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;

const textEncoder = new TextEncoder();

export class ProtoWriter {
  private readonly parts: Uint8Array[] = [];
  private length = 0;

  /** An unsigned or signed integer field (int32, int64, uint64, enum, bool) as a varint. */
  int(field: number, value: number | bigint): this {
    this.tag(field, WIRE_VARINT);
    this.varint(value);
    return this;
  }

  /** A repeated integer field, one tag per value (unpacked is valid for every varint field). */
  ints(field: number, values: Iterable<number | bigint>): this {
    for (const v of values) this.int(field, v);
    return this;
  }

  /** A `float` field (fixed32, little-endian IEEE 754). */
  float(field: number, value: number): this {
    this.tag(field, WIRE_FIXED32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, textEncoder.encode(value));
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LEN);
    this.varint(value.byteLength);
    this.push(value);
    return this;
  }

  /** An embedded message field. */
  message(field: number, value: ProtoWriter): this {
    return this.bytes(field, value.finish());
  }

  /** The encoded message (one contiguous copy of every part written so far). */
  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const p of this.parts) {
      out.set(p, offset);
      offset += p.byteLength;
    }
    return out;
  }

  private tag(field: number, wireType: number): void {
    if (!Number.isInteger(field) || field < 1 || field > 536_870_911) {
      throw new RangeError(`protobuf: invalid field number ${field}`);
    }
    this.varint(field * 8 + wireType);
  }

  // Negative integers are written as 10-byte two's-complement varints, as protobuf does for int64.
  private varint(value: number | bigint): void {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new RangeError(`protobuf: ${value} is not a safe integer`);
    }
    let v = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    while (v >= 0x80n) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.push(Uint8Array.from(bytes));
  }

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.byteLength;
  }
}
