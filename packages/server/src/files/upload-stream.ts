// Receiving a multipart upload: the one `file` part is streamed to a temporary file while its
// SHA-256, size and first bytes (for format sniffing) are taken on the way, so the file is never
// held in memory. Whatever goes wrong (size limit, client abort, a malformed body, a second file
// part) the temporary file is gone before the error leaves this module.
import { stripControls } from '../control-chars.ts';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Transform, type Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { WriteStream } from 'node:fs';
import { ApiError, type ErrorDetail } from '../errors.ts';
import type { BlobStore } from '../store/blob-store.ts';
import { SNIFF_BYTES } from '@rapport/analysis';

export interface ReceivedUpload {
  tempPath: string;
  /** The client's file name, reduced to a safe base name. */
  filename: string;
  sizeBytes: number;
  sha256: string;
  /** The first bytes of the file, for format sniffing. */
  head: Buffer;
  /**
   * More than `maxBytes` were sent: the temporary file holds only the bytes before the limit (not
   * the file: never to be kept), while `sizeBytes` and `sha256` are the whole file's, so that bytes
   * the workspace already has are still recognised (decisions §18).
   */
  overMaxBytes: boolean;
  /**
   * The free-space floor refused to write its bytes (507, before the first chunk or part-way): as
   * with `overMaxBytes`, the temporary file is not the file while `sizeBytes` and `sha256` are, and
   * the caller answers the refusal unless the bytes are a duplicate, which takes no room.
   */
  noRoom: ApiError | null;
  fields: { label?: string; mediaId?: string; numSpeakers?: string; minSpeakers?: string; maxSpeakers?: string };
}

const ALLOWED_FIELDS = new Set(['label', 'mediaId', 'numSpeakers', 'minSpeakers', 'maxSpeakers']);

const invalid = (details: ErrorDetail[]) => new ApiError('VALIDATION_FAILED', 'The upload is not valid; see details.', { details });

/**
 * Bounds of one upload besides MAX_UPLOAD_BYTES: past `maxBytes` (what is left of the workspace's
 * storage quota) nothing more is written to disk; the rest of the body is still read and hashed
 * (so the client gets its answer on a sane connection, and a duplicate is known), and the upload
 * is answered with `overMaxBytes`: the caller decides (a duplicate needs no room).
 */
export interface UploadBounds {
  maxBytes: number;
  /**
   * Bytes beyond `maxBytes` that the file may take when a `mediaId` field comes before it: what
   * attaching to that media needs no room for (upload-quota.ts). A `mediaId` after the file part
   * is known too late, and gets none.
   */
  allowanceFor?: (mediaId: string) => Promise<number>;
  /**
   * Called before each chunk is written (the free-space floor): when it throws, nothing more is
   * written and the rest of the body is read; an ApiError (the 507) is answered as `noRoom`, any
   * other thrown.
   */
  beforeWrite?: (n: number) => Promise<void>;
}

export async function receiveUpload(req: FastifyRequest, blobs: BlobStore, bounds?: UploadBounds): Promise<ReceivedUpload> {
  let received: Omit<ReceivedUpload, 'fields'> | null = null;
  const fields: Record<string, string> = {};
  const details: ErrorDetail[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          details.push({ path: `/${part.fieldname}`, message: 'is not an allowed part; send the file in the part named `file`' });
          await discard(part.file);
        } else if (received) {
          details.push({ path: '/file', message: 'must be sent exactly once; this request has more than one file part' });
          await discard(part.file);
        } else {
          received = await streamToTemp(part.file, blobs, part.filename, await fileBounds(bounds, fields.mediaId));
        }
        continue;
      }
      const name = part.fieldname;
      if (name === 'file') {
        details.push({ path: '/file', message: 'must be a file part (with a filename), not a text field' });
      } else if (!ALLOWED_FIELDS.has(name)) {
        details.push({ path: `/${name}`, message: 'is not an allowed field' });
      } else if (name in fields) {
        details.push({ path: `/${name}`, message: 'must be sent at most once' });
      } else if (part.valueTruncated || typeof part.value !== 'string') {
        details.push({ path: `/${name}`, message: 'is too long' });
      } else {
        fields[name] = part.value;
      }
    }
    if (!received && !details.some((d) => d.path === '/file')) details.push({ path: '/file', message: 'is required: send the file in a part named `file`' });
    if (details.length > 0) throw invalid(details);
    if (!received) throw invalid([{ path: '/file', message: 'is required' }]);
    return { ...received, fields };
  } catch (err) {
    if (received) await blobs.remove(received.tempPath);
    throw asUploadError(err);
  }
}

/** The file part's bounds: with the allowance of the `mediaId` sent before it, if any. */
async function fileBounds(bounds: UploadBounds | undefined, mediaId: string | undefined): Promise<UploadBounds | undefined> {
  if (!bounds?.allowanceFor || mediaId === undefined) return bounds;
  return { ...bounds, maxBytes: bounds.maxBytes + (await bounds.allowanceFor(mediaId)) };
}

/** Streams one file part to a new temporary file; the temporary file is removed on failure. */
async function streamToTemp(file: Readable & { truncated?: boolean }, blobs: BlobStore, clientName: string | undefined, bounds: UploadBounds | undefined): Promise<Omit<ReceivedUpload, 'fields'>> {
  const temp = blobs.createTemp();
  const hash = createHash('sha256');
  let size = 0;
  const headParts: Buffer[] = [];
  let headLength = 0;
  let refused: unknown = null;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      size += chunk.length;
      if (headLength < SNIFF_BYTES) {
        const take = Buffer.from(chunk.subarray(0, SNIFF_BYTES - headLength));
        headParts.push(take);
        headLength += take.length;
      }
      // Over the workspace's storage left, or refused by the free-space floor: counted, not written.
      if ((bounds && size > bounds.maxBytes) || refused !== null) return cb();
      if (!bounds?.beforeWrite) return cb(null, chunk);
      bounds.beforeWrite(chunk.length).then(
        () => cb(null, chunk),
        (err: unknown) => {
          refused = err;
          cb();
        },
      );
    },
  });
  try {
    await pipeline(file, meter, temp.stream);
    // Busboy ends a part that hit the size limit early and marks it truncated.
    if (file.truncated) throw new ApiError('PAYLOAD_TOO_LARGE', 'The file is over the upload size limit.');
    if (refused !== null && !(refused instanceof ApiError)) throw refused;
  } catch (err) {
    await settle(temp.stream);
    await blobs.remove(temp.path);
    throw err;
  }
  const noRoom = refused instanceof ApiError ? refused : null;
  return { tempPath: temp.path, filename: safeFilename(clientName), sizeBytes: size, sha256: hash.digest('hex'), head: Buffer.concat(headParts), overMaxBytes: bounds !== undefined && size > bounds.maxBytes, noRoom };
}

/** Waits until the write stream has closed its file, so that removing it cannot race its creation. */
async function settle(stream: WriteStream): Promise<void> {
  if (!stream.destroyed) stream.destroy();
  if (!stream.closed) await once(stream, 'close').catch(() => undefined);
}

async function discard(file: Readable): Promise<void> {
  file.resume();
  await finished(file).catch(() => undefined);
}

/** Errors of the multipart parser and the stream, as the API's errors (never a 500). */
function asUploadError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  // A full disk is the server's condition, not the client's fault, and passes: 507, retry later.
  if ((err as { code?: unknown }).code === 'ENOSPC') return new ApiError('INSUFFICIENT_STORAGE', 'The media storage of the service is full; retry later.');
  // Other disk errors (EACCES) are the server's problem, not the client's: a 500.
  if (typeof (err as { syscall?: unknown }).syscall === 'string') return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError('PAYLOAD_TOO_LARGE', 'The file is over the upload size limit.');
  if (code === 'FST_FILES_LIMIT') return invalid([{ path: '/file', message: 'must be sent exactly once; this request has more than one file part' }]);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION' || code === 'FST_INVALID_JSON_FIELD_ERROR') {
    return invalid([{ path: '/', message: (err as Error).message }]);
  }
  // A client that went away or a body cut short: nobody may be listening, but answer sanely.
  return invalid([{ path: '/file', message: 'the multipart body ended early or is malformed' }]);
}

/** The base name of the client's file name, without path parts or control characters. */
export function safeFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = stripControls(base).trim();
  const capped = [...clean].slice(0, 255).join('');
  return capped.length > 0 ? capped : 'upload';
}
