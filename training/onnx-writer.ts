// A minimal ONNX writer: enough of the protobuf encoding (onnx/onnx.proto, IR 7, opset 13) to
// write a graph of float tensors. It lets the training scripts and the tests export the
// project's own speaker network as an ONNX file (training/export-speaker-net-onnx.ts) with no
// Python ONNX package: Debian's python3-torch 1.13 exports ONNX too, but a test must build its
// model from nothing the fresh clone lacks.

/** A tensor of float32 values (or int64 when `int64` is set, for shapes and axes). */
export interface OnnxTensor {
  name: string;
  dims: number[];
  data: Float32Array | BigInt64Array;
}

export type OnnxAttribute = { name: string; int: number } | { name: string; ints: number[] } | { name: string; float: number };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: OnnxAttribute[];
}

/** A graph input or output: float32 with named (symbolic) or fixed dimensions. */
export interface OnnxValue {
  name: string;
  dims: (number | string)[];
}

export interface OnnxGraph {
  name: string;
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  initializers: OnnxTensor[];
  nodes: OnnxNode[];
}

const FLOAT = 1;
const INT64 = 7;
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

/** Protobuf encoding, just the wire types ONNX needs. */
class Writer {
  private readonly parts: Buffer[] = [];

  private varint(v: bigint): void {
    // Negative int64 values are written as ten-byte two's complement varints.
    let x = BigInt.asUintN(64, v);
    const bytes: number[] = [];
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x !== 0n) b |= 0x80;
      bytes.push(b);
    } while (x !== 0n);
    this.parts.push(Buffer.from(bytes));
  }

  private key(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  int(field: number, v: number | bigint): this {
    this.key(field, 0);
    this.varint(BigInt(v));
    return this;
  }

  float(field: number, v: number): this {
    this.key(field, 5);
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.parts.push(b);
    return this;
  }

  bytes(field: number, v: Uint8Array): this {
    this.key(field, 2);
    this.varint(BigInt(v.length));
    this.parts.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    return this;
  }

  string(field: number, v: string): this {
    return this.bytes(field, Buffer.from(v, 'utf8'));
  }

  message(field: number, build: (w: Writer) => void): this {
    const inner = new Writer();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function tensor(w: Writer, t: OnnxTensor): void {
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.data instanceof Float32Array ? FLOAT : INT64);
  w.string(8, t.name);
  const raw = Buffer.alloc(t.data.byteLength);
  if (t.data instanceof Float32Array) t.data.forEach((v, i) => raw.writeFloatLE(v, 4 * i));
  else t.data.forEach((v, i) => raw.writeBigInt64LE(v, 8 * i));
  w.bytes(9, raw);
}

function valueInfo(w: Writer, v: OnnxValue): void {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (t) => {
      t.int(1, FLOAT);
      t.message(2, (shape) => {
        for (const d of v.dims) shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
      });
    }),
  );
}

function attribute(w: Writer, a: OnnxAttribute): void {
  w.string(1, a.name);
  if ('int' in a) w.int(3, a.int).int(20, ATTR_INT);
  else if ('float' in a) w.float(2, a.float).int(20, ATTR_FLOAT);
  else {
    for (const v of a.ints) w.int(8, v);
    w.int(20, ATTR_INTS);
  }
}

/** The ONNX file's bytes: IR version 7, default-domain opset 13. */
export function encodeOnnxModel(graph: OnnxGraph, producer = 'rapport'): Buffer {
  const w = new Writer();
  w.int(1, 7);
  w.string(2, producer);
  w.message(7, (g) => {
    graph.nodes.forEach((n, i) =>
      g.message(1, (node) => {
        for (const x of n.inputs) node.string(1, x);
        for (const x of n.outputs) node.string(2, x);
        node.string(3, `${n.op.toLowerCase()}_${i}`);
        node.string(4, n.op);
        for (const a of n.attributes ?? []) node.message(5, (m) => attribute(m, a));
      }),
    );
    g.string(2, graph.name);
    for (const t of graph.initializers) g.message(5, (m) => tensor(m, t));
    for (const v of graph.inputs) g.message(11, (m) => valueInfo(m, v));
    for (const v of graph.outputs) g.message(12, (m) => valueInfo(m, v));
  });
  w.message(8, (o) => o.string(1, '').int(2, 13));
  return w.finish();
}
