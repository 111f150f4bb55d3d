import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { Rapport } from '../src/index.ts';
import type { UploadProgress } from '../src/index.ts';
import { apiError, fakeServer, json } from './fake-server.ts';
import type { FakeServer, Recorded } from './fake-server.ts';

/** Splits a multipart body into its parts with a parser independent of the SDK's writer. */
function parts(req: Recorded): Map<string, { filename: string | null; type: string | null; body: Buffer }> {
  const boundary = /boundary=(.+)$/.exec(String(req.headers['content-type']))?.[1];
  assert.ok(boundary, 'multipart boundary');
  const out = new Map<string, { filename: string | null; type: string | null; body: Buffer }>();
  const text = req.body.toString('latin1');
  for (const chunk of text.split(`--${boundary}`).slice(1, -1)) {
    const [head = '', ...rest] = chunk.slice(2, -2).split('\r\n\r\n');
    const name = /name="([^"]+)"/.exec(head)?.[1] ?? '';
    out.set(name, {
      filename: /filename="([^"]*)"/.exec(head)?.[1] ?? null,
      type: /Content-Type: (.+)/i.exec(head)?.[1] ?? null,
      body: Buffer.from(rest.join('\r\n\r\n'), 'latin1'),
    });
  }
  assert.ok(text.endsWith(`--${boundary}--\r\n`));
  return out;
}

const bytes = Buffer.alloc(700_000, 0);
for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;

let s: FakeServer;
let dir: string;
let failFirst = false;
before(async () => {
  s = await fakeServer((req, res, n) => {
    if (failFirst && n === 1) return apiError(res, 503, 'UNAVAILABLE');
    json(res, 201, { id: 'med_1', kind: 'audio' });
  });
  dir = await mkdtemp(join(tmpdir(), 'rapport-sdk-'));
});
after(async () => {
  await s.close();
  await rm(dir, { recursive: true, force: true });
});

test('upload from a path streams a multipart body with fields, name and progress', async () => {
  const path = join(dir, 'talk.wav');
  await writeFile(path, bytes);
  const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
  const seen: UploadProgress[] = [];
  const media = await client.files.upload(path, { label: 'Call 1', onProgress: (p) => seen.push(p) });
  assert.equal(media.id, 'med_1');
  const req = s.requests.at(-1)!;
  assert.equal(req.method, 'POST');
  assert.equal(req.url, '/v1/files');
  assert.ok(req.headers['idempotency-key']);
  const p = parts(req);
  assert.equal(p.get('label')?.body.toString(), 'Call 1');
  assert.equal(p.get('file')?.filename, 'talk.wav');
  assert.ok(p.get('file')?.body.equals(bytes), 'file bytes arrive intact');
  assert.ok(seen.length >= 3, 'several progress reports');
  assert.deepEqual(seen.at(-1), { loaded: bytes.length, total: bytes.length });
  assert.ok(seen.every((x, i) => i === 0 || x.loaded >= seen[i - 1]!.loaded));
});

test('speaker-count hints go as decimal form fields; absent ones are not sent', async () => {
  const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
  await client.files.upload(new Uint8Array(bytes), { filename: 'a.wav', numSpeakers: 2 });
  let p = parts(s.requests.at(-1)!);
  assert.equal(p.get('numSpeakers')?.body.toString(), '2');
  assert.equal(p.has('minSpeakers') || p.has('maxSpeakers'), false);
  await client.files.upload(new Uint8Array(bytes), { filename: 'a.wav', minSpeakers: 2, maxSpeakers: 12 });
  p = parts(s.requests.at(-1)!);
  assert.equal(p.get('minSpeakers')?.body.toString(), '2');
  assert.equal(p.get('maxSpeakers')?.body.toString(), '12');
  assert.equal(p.has('numSpeakers'), false);
});

test('upload from bytes, a Blob and a stream; a replayable source is retried after a 503', async () => {
  const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
  failFirst = true;
  s.requests.length = 0;
  await client.files.upload(new Uint8Array(bytes), { filename: 'a.wav', mediaId: 'med_0' });
  failFirst = false;
  assert.equal(s.requests.length, 2, 'retried once');
  const p = parts(s.requests[1]!);
  assert.ok(p.get('file')?.body.equals(bytes));
  assert.equal(p.get('mediaId')?.body.toString(), 'med_0');
  assert.equal(s.requests[0]?.headers['idempotency-key'], s.requests[1]?.headers['idempotency-key']);

  await client.files.upload(new Blob([bytes], { type: 'audio/wav' }), { filename: 'b.wav', contentType: 'audio/wav' });
  assert.equal(parts(s.requests.at(-1)!).get('file')?.type, 'audio/wav');

  const progress: UploadProgress[] = [];
  await client.files.upload(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { filename: 'c.vtt', onProgress: (x) => progress.push(x) });
  assert.ok(parts(s.requests.at(-1)!).get('file')?.body.equals(bytes));
  assert.deepEqual(progress.at(-1), { loaded: bytes.length, total: null });
});

test('a one-shot stream upload is never retried', async () => {
  const client = new Rapport({ apiKey: 'k', baseUrl: s.url, maxRetries: 3 });
  failFirst = true;
  s.requests.length = 0;
  try {
    const web = new Blob([bytes]).stream();
    await assert.rejects(client.files.upload(web, { filename: 'x.wav' }), /UNAVAILABLE happened/);
    assert.equal(s.requests.length, 1);
  } finally {
    failFirst = false;
  }
});

test('without `process` (a browser), a Blob is sent as FormData and still arrives intact', async () => {
  const client = new Rapport({ apiKey: 'k', baseUrl: s.url });
  const saved = globalThis.process;
  const progress: UploadProgress[] = [];
  // Hide Node for the SDK's runtime check only; the test restores it before asserting.
  Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
  try {
    await client.files.upload(new Blob([bytes]), { filename: 'web.wav', label: 'from a browser', onProgress: (p) => progress.push(p) });
  } finally {
    Object.defineProperty(globalThis, 'process', { value: saved, configurable: true, writable: true });
  }
  const req = s.requests.at(-1)!;
  assert.match(String(req.headers['content-type']), /^multipart\/form-data; boundary=/);
  const p = parts(req);
  assert.equal(p.get('label')?.body.toString(), 'from a browser');
  assert.equal(p.get('file')?.filename, 'web.wav');
  assert.ok(p.get('file')?.body.equals(bytes));
  assert.deepEqual(progress, [{ loaded: 0, total: bytes.length }, { loaded: bytes.length, total: bytes.length }]);
});
