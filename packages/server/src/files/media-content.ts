// Serves a stored upload's bytes (GET /v1/files/:id/content) with HTTP range requests (RFC 9110
// §14), as media players need them to start anywhere and to seek: one range gives 206 with its
// Content-Range, an unsatisfiable or malformed range gives 416 with `Content-Range: bytes */size`,
// and what a server may ignore is ignored (another range unit, several ranges, an If-Range that no
// longer matches) with the whole file as 200. The strong ETag is the file's SHA-256, so
// If-None-Match gives 304 and If-Range works across requests. The answer is the stored file
// exactly, under its detected content type, never sniffed and sandboxed if opened as a page.
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.ts';
import type { MediaRecord } from './media.store.ts';

export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable'; reason: string };

/** Reads a `Range` header against a file of `size` bytes; `end` is inclusive. */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined || header.trim() === '') return { kind: 'full' };
  const m = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*=\s*(.*)$/.exec(header);
  if (!m) return { kind: 'unsatisfiable', reason: `the Range header ${JSON.stringify(header)} is not of the form bytes=start-end` };
  // Another unit is not understood, and so ignored (RFC 9110 §14.2).
  if ((m[1] as string).toLowerCase() !== 'bytes') return { kind: 'full' };
  const specs = (m[2] as string).split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length === 0) return { kind: 'unsatisfiable', reason: 'the Range header names no range' };
  // Several ranges would be a multipart answer; a server may send the whole file instead.
  if (specs.length > 1) return { kind: 'full' };
  const spec = specs[0] as string;
  const r = /^(\d*)-(\d*)$/.exec(spec);
  if (!r || (r[1] === '' && r[2] === '')) return { kind: 'unsatisfiable', reason: `${JSON.stringify(spec)} is not a byte range (start-end, start- or -suffix)` };
  if (r[1] === '') {
    const suffix = Number(r[2]);
    if (suffix === 0) return { kind: 'unsatisfiable', reason: 'a suffix range of 0 bytes selects nothing' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === '' ? size - 1 : Number(r[2]);
  // Past the end first: `start-` with start at or past it has end = size - 1 < start, and is
  // refused for where it starts, not as a range that ends before it starts.
  if (start >= size) return { kind: 'unsatisfiable', reason: `the range ${spec} starts at or after the end of the file (${size} bytes)` };
  if (end < start) return { kind: 'unsatisfiable', reason: `the range ${spec} ends before it starts` };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Whether an If-None-Match list names this ETag (weak comparison, as RFC 9110 §13.1.2 asks). */
function noneMatch(value: string | undefined, etag: string): boolean {
  if (value === undefined) return false;
  return value.split(',').map((t) => t.trim().replace(/^W\//, '')).some((t) => t === '*' || t === etag);
}

/** A Content-Disposition filename: quoted ASCII fallback and the UTF-8 name (RFC 6266). */
function disposition(kind: string, filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const type = kind === 'transcript' ? 'attachment' : 'inline';
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Sends the file of `stored`. `again` reads the media again: a row read just before its file took
 * another name (attached audio given its plain name, plain-names.ts) names a name that is gone by
 * the time it is opened, and the row read again names the one the file has now.
 */
export async function sendMediaContent(req: FastifyRequest, reply: FastifyReply, stored: MediaRecord, again?: () => Promise<MediaRecord>): Promise<FastifyReply> {
  let m = stored;
  let handle = await open(m.storagePath).catch(() => null);
  if (!handle && again) {
    m = await again();
    if (m.storagePath !== stored.storagePath) handle = await open(m.storagePath).catch(() => null);
  }
  if (!handle) throw new ApiError('NOT_FOUND', `The file of media ${m.id} is no longer stored.`);
  let streaming = false;
  try {
    const size = (await handle.stat()).size;
    const etag = `"${m.sha256}"`;
    reply.headers({
      'accept-ranges': 'bytes',
      etag,
      'cache-control': 'private, no-cache',
      'content-disposition': disposition(m.kind, m.filename),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    if (noneMatch(header(req, 'if-none-match'), etag)) return reply.code(304).send();
    const ifRange = header(req, 'if-range');
    // If-Range with another ETag or with a date (this route sends no Last-Modified): the whole file.
    const range = ifRange !== undefined && ifRange.trim() !== etag ? { kind: 'full' as const } : parseRange(header(req, 'range'), size);
    if (range.kind === 'unsatisfiable') {
      throw new ApiError('RANGE_NOT_SATISFIABLE', `Cannot serve that range of media ${m.id}: ${range.reason}.`, { headers: { 'content-range': `bytes */${size}` } });
    }
    const start = range.kind === 'partial' ? range.start : 0;
    const end = range.kind === 'partial' ? range.end : size - 1;
    reply.code(range.kind === 'partial' ? 206 : 200).type(m.contentType).header('content-length', String(end - start + 1));
    if (range.kind === 'partial') reply.header('content-range', `bytes ${start}-${end}/${size}`);
    // fastify's HEAD routes keep the Content-Length set here only when the payload is a stream.
    if (req.method === 'HEAD') return reply.send(Readable.from([]));
    streaming = true;
    return reply.send(handle.createReadStream({ start, end }));
  } finally {
    if (!streaming) await handle.close();
  }
}
