// Builds the `multipart/form-data` body of an upload by hand, as a stream, so that a file of any
// size is sent without being held in memory and so that the SDK can count the bytes as `fetch`
// pulls them (the progress callback). Browsers that cannot stream request bodies get FormData.
import type { BodyFactory } from './http.ts';

/** What `files.upload` accepts. A string is a path on disk (Node only). */
export type Uploadable =
  | string
  | Blob
  | Uint8Array
  | ArrayBuffer
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>;

export interface UploadProgress {
  /** File bytes handed to the connection so far. */
  loaded: number;
  /** The file's size when known (paths, Blobs, bytes), else null. */
  total: number | null;
}

export interface MultipartInput {
  source: Uploadable;
  fields: Record<string, string | undefined>;
  filename?: string | undefined;
  contentType?: string | undefined;
  onProgress?: ((p: UploadProgress) => void) | undefined;
}

interface OpenedSource {
  /** Opens the content anew for an attempt. */
  open: () => Promise<AsyncIterable<Uint8Array>>;
  size: number | null;
  filename: string;
  blob?: Blob;
  replayable: boolean;
}

const encoder = new TextEncoder();

function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

function quote(value: string): string {
  return value.replace(/[\r\n"\\]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ' '));
}

async function* chunksOfBlob(blob: Blob): AsyncIterable<Uint8Array> {
  const reader = blob.stream().getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    yield value;
  }
}

async function* chunksOfStream(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function openSource(source: Uploadable, filename: string | undefined): Promise<OpenedSource> {
  if (typeof source === 'string') {
    if (!isNode()) throw new TypeError('Uploading from a path needs Node; pass a Blob or bytes');
    // Imported lazily so that the SDK loads in browsers, which have no node:fs.
    const fs = await import('node:fs');
    const { size } = await fs.promises.stat(source);
    const base = source.split(/[\\/]/).pop() ?? 'upload';
    return { open: async () => fs.createReadStream(source, { highWaterMark: 256 * 1024 }), size, filename: filename ?? base, replayable: true };
  }
  if (source instanceof Blob) {
    const name = filename ?? (typeof File !== 'undefined' && source instanceof File ? source.name : 'upload');
    return { open: async () => chunksOfBlob(source), size: source.size, filename: name, blob: source, replayable: true };
  }
  if (source instanceof Uint8Array || source instanceof ArrayBuffer) {
    const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
    const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
    return { open: async () => chunksOfBlob(blob), size: bytes.byteLength, filename: filename ?? 'upload', blob, replayable: true };
  }
  if (typeof (source as ReadableStream<Uint8Array>).getReader === 'function') {
    const stream = source as ReadableStream<Uint8Array>;
    return { open: async () => chunksOfStream(stream), size: null, filename: filename ?? 'upload', replayable: false };
  }
  if (Symbol.asyncIterator in (source as object)) {
    const it = source as AsyncIterable<Uint8Array>;
    return { open: async () => it, size: null, filename: filename ?? 'upload', replayable: false };
  }
  throw new TypeError('Unsupported upload source: pass a path, Blob, bytes or a stream');
}

/** A body factory for `HttpClient.send`: one fresh multipart stream per attempt. */
export async function multipartBody(input: MultipartInput): Promise<BodyFactory> {
  const src = await openSource(input.source, input.filename);
  const contentType = input.contentType ?? 'application/octet-stream';
  const onProgress = input.onProgress;

  const factory = async (): Promise<Awaited<ReturnType<BodyFactory>>> => {
    if (src.blob && !isNode()) {
      // Browsers stream request bodies only in some engines and over HTTP/2; FormData always works.
      const form = new FormData();
      for (const [k, v] of Object.entries(input.fields)) if (v !== undefined) form.append(k, v);
      form.append('file', new Blob([src.blob], { type: contentType }), src.filename);
      onProgress?.({ loaded: 0, total: src.size });
      return { body: form, headers: {}, stream: false };
    }
    const boundary = `----rapport${newBoundary()}`;
    let head = '';
    for (const [k, v] of Object.entries(input.fields)) {
      if (v === undefined) continue;
      head += `--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`;
    }
    head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(src.filename)}"\r\n`;
    head += `Content-Type: ${contentType}\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const iterator = (await src.open())[Symbol.asyncIterator]();
    let loaded = 0;
    let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
    onProgress?.({ loaded: 0, total: src.size });
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (stage === 'head') {
          stage = 'file';
          controller.enqueue(encoder.encode(head));
          return;
        }
        if (stage === 'file') {
          const { value, done } = await iterator.next();
          if (!done) {
            const chunk = value instanceof Uint8Array ? value : encoder.encode(String(value));
            loaded += chunk.byteLength;
            controller.enqueue(chunk);
            onProgress?.({ loaded, total: src.size });
            return;
          }
          stage = 'tail';
        }
        if (stage === 'tail') {
          stage = 'done';
          controller.enqueue(encoder.encode(tail));
          controller.close();
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    });
    return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, stream: true };
  };
  return Object.assign(factory, { replayable: src.replayable });
}

function newBoundary(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
