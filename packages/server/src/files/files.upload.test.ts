// POST /v1/files: every accepted format detected from content, and every refusal (415, 413,
// 400, 402) leaving no file and no row behind.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { encodeWith, fileUpload, JSON_TRANSCRIPT, multipart, PNG, SRT, VTT, wavFile } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';

const LIMIT = 256 * 1024;

async function mediaRows(t: TestApp): Promise<number> {
  return (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media'))?.n ?? -1;
}
function tmpFiles(t: TestApp): string[] {
  return readdirSync(path.join(t.dataDir, 'tmp'));
}
function mediaFiles(t: TestApp): string[] {
  return readdirSync(path.join(t.dataDir, 'media'));
}

describe('POST /v1/files', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ MAX_UPLOAD_BYTES: String(LIMIT), RATE_LIMIT_UPLOAD: '1000' });
  });
  after(async () => t.close());

  const upload = (data: Buffer | string, filename = 'upload.bin', fields: Record<string, string> = {}, contentType?: string) =>
    call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, filename, fields, contentType) });

  it('stores a WAV: 201 with the media resource, duration from the header, sha256 and size of the bytes', async () => {
    const wav = wavFile(2.5);
    const res = await upload(wav, 'talk.wav', { label: 'first talk' });
    assert.equal(res.statusCode, 201, res.body);
    const m = json<Media>(res);
    assert.match(m.id, /^med_[A-Za-z0-9]{20,}$/);
    assert.equal(m.kind, 'audio');
    assert.equal(m.contentType, 'audio/wav');
    assert.equal(m.filename, 'talk.wav');
    assert.equal(m.sizeBytes, wav.length);
    assert.equal(m.sha256, createHash('sha256').update(wav).digest('hex'));
    assert.equal(m.durationSec, 2.5);
    assert.equal(m.label, 'first talk');
    assert.equal(m.hasTranscript, false);
    assert.deepEqual(m.analysis, { status: 'pending', speakers: [], warnings: [], engineVersion: null, speakerHints: null, stage: null, progress: 0 });
    assert.match(m.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const stored = t.services.stores.media.load(m.id);
    assert.deepEqual(readFileSync((await stored)?.storagePath ?? ''), wav);
    assert.deepEqual(tmpFiles(t), []);
  });

  const formats: [string, () => Promise<Buffer>, Media['kind'], string][] = [
    ['MP3', () => encodeWith('mp3'), 'audio', 'audio/mpeg'],
    ['FLAC', () => encodeWith('flac'), 'audio', 'audio/flac'],
    ['Ogg/Opus', () => encodeWith('ogg'), 'audio', 'audio/ogg'],
    ['M4A (AAC)', () => encodeWith('m4a'), 'audio', 'audio/mp4'],
    ['ADTS AAC', () => encodeWith('aac'), 'audio', 'audio/aac'],
    ['MP4 with video', () => encodeWith('mp4', { video: true }), 'video', 'video/mp4'],
    ['MOV with video', () => encodeWith('mov', { video: true }), 'video', 'video/quicktime'],
    ['WebM with video', () => encodeWith('webm', { video: true }), 'video', 'video/webm'],
    ['WebM audio only', () => encodeWith('webm'), 'audio', 'audio/webm'],
    ['MKV audio only', () => encodeWith('mkv'), 'audio', 'audio/x-matroska'],
  ];
  for (const [name, make, kind, contentType] of formats) {
    it(`detects ${name} from its content (${kind}, ${contentType}) and reads its duration with the sandboxed probe`, async () => {
      // The client's name and content type claim an image: only the bytes count.
      const res = await upload(await make(), 'misleading.png', {}, 'image/png');
      assert.equal(res.statusCode, 201, res.body);
      const m = json<Media>(res);
      assert.equal(m.kind, kind);
      assert.equal(m.contentType, contentType);
      assert.ok(m.durationSec !== null && Math.abs(m.durationSec - 2) < 0.2, `duration ${m.durationSec}`);
    });
  }

  const transcripts: [string, string, string, string[]][] = [
    ['WebVTT with <v> voices', VTT, 'text/vtt', ['Alice', 'Bob']],
    ['SRT with Name: prefixes', SRT, 'application/x-subrip', ['Carol', 'Dave']],
    ['JSON segments', JSON_TRANSCRIPT, 'application/json', ['Erin', 'Frank']],
  ];
  for (const [name, text, contentType, speakers] of transcripts) {
    it(`accepts a ${name} transcript: kind transcript, speakers from its cues as entities, no credits reserved`, async () => {
      const before = await t.services.credits.balance({ workspaceId: t.main.workspaceId, keyId: 'k', scope: 'admin' });
      const res = await upload(text, 'notes.txt', {}, 'text/plain');
      assert.equal(res.statusCode, 201, res.body);
      const m = json<Media>(res);
      assert.equal(m.kind, 'transcript');
      assert.equal(m.contentType, contentType);
      assert.equal(m.hasTranscript, true);
      assert.equal(m.analysis.status, 'ready');
      assert.deepEqual(m.analysis.speakers.map((s) => s.label), speakers);
      assert.deepEqual(m.analysis.speakers.map((s) => s.index), [0, 1]);
      // Analysed from its cues as it is stored (decisions §19): each named speaker is an entity.
      assert.ok(m.analysis.speakers.every((s) => s.entityId?.startsWith('ent_')), JSON.stringify(m.analysis.speakers));
      assert.ok((m.durationSec ?? 0) > 3);
      const afterB = await t.services.credits.balance({ workspaceId: t.main.workspaceId, keyId: 'k', scope: 'admin' });
      assert.equal(afterB.reserved, before.reserved);
    });
  }

  async function refused(res: Awaited<ReturnType<typeof upload>>, status: number, code: string, pointer?: string): Promise<ErrorJson> {
    assert.equal(res.statusCode, status, res.body);
    const body = json<ErrorJson>(res);
    assert.equal(body.error.code, code);
    if (pointer) assert.ok(body.error.details?.some((d) => d.path === pointer), JSON.stringify(body.error.details));
    assert.deepEqual(tmpFiles(t), [], 'no temporary file remains');
    return body;
  }

  it('415 for an image, for random bytes, for text that is no transcript, and for a file that only starts like audio', async () => {
    const rows = await mediaRows(t);
    const files = mediaFiles(t).length;
    await refused(await upload(PNG, 'a.png', {}, 'image/png'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await refused(await upload(Buffer.from(Array.from({ length: 5000 }, (_v, i) => (i * 7919 + 13) % 251)), 'a.wav', {}, 'audio/wav'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await refused(await upload('just some words, not a transcript\n', 'a.vtt', {}, 'text/vtt'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await refused(await upload('{"segments": []}', 'a.json', {}, 'application/json'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const fakeMp3 = Buffer.concat([Buffer.from('ID3\u0003\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'), Buffer.alloc(4000, 0x55)]);
    await refused(await upload(fakeMp3, 'a.mp3', {}, 'audio/mpeg'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const badWav = wavFile(1).subarray(0, 40); // header cut before its data chunk
    await refused(await upload(badWav, 'b.wav'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(await mediaRows(t), rows);
    assert.equal(mediaFiles(t).length, files);
  });

  it('400 VALIDATION_FAILED for an empty file', async () => {
    await refused(await upload(Buffer.alloc(0), 'empty.wav'), 400, 'VALIDATION_FAILED', '/file');
  });

  it('413 over MAX_UPLOAD_BYTES, with the partial file removed and no row', async () => {
    const rows = await mediaRows(t);
    await refused(await upload(wavFile(10), 'big.wav'), 413, 'PAYLOAD_TOO_LARGE');
    assert.equal(await mediaRows(t), rows);
  });

  it('accepts a file of exactly MAX_UPLOAD_BYTES', async () => {
    const wav = wavFile((LIMIT - 44) / 2 / 16_000);
    assert.equal(wav.length, LIMIT);
    const res = await upload(wav, 'exact.wav');
    assert.equal(res.statusCode, 201, res.body);
  });

  it('400 with details /file for no file part, two file parts, or `file` sent as a text field', async () => {
    const send = (parts: Parameters<typeof multipart>[0]) => call(t, t.main, { method: 'POST', url: '/v1/files', ...multipart(parts) });
    await refused(await send([{ name: 'label', data: 'no file here' }]), 400, 'VALIDATION_FAILED', '/file');
    await refused(await send([]), 400, 'VALIDATION_FAILED', '/file');
    await refused(await send([{ name: 'file', filename: 'a.wav', data: wavFile(0.5) }, { name: 'file', filename: 'b.wav', data: wavFile(0.5) }]), 400, 'VALIDATION_FAILED', '/file');
    await refused(await send([{ name: 'file', filename: 'a.wav', data: wavFile(0.5) }, { name: 'file', filename: 'b.wav', data: wavFile(0.5) }, { name: 'file', filename: 'c.wav', data: wavFile(0.5) }]), 400, 'VALIDATION_FAILED', '/file');
    await refused(await send([{ name: 'file', data: 'text' }]), 400, 'VALIDATION_FAILED', '/file');
  });

  it('400 for unknown fields and parts, and for labels outside 1..64 code points; 64 astral characters are accepted', async () => {
    const wav = wavFile(0.5);
    await refused(await upload(wav, 'a.wav', { color: 'blue' }), 400, 'VALIDATION_FAILED', '/color');
    await refused(await call(t, t.main, { method: 'POST', url: '/v1/files', ...multipart([{ name: 'upload', filename: 'a.wav', data: wav }]) }), 400, 'VALIDATION_FAILED', '/upload');
    await refused(await upload(wav, 'a.wav', { label: '' }), 400, 'VALIDATION_FAILED', '/label');
    const long = await refused(await upload(wav, 'a.wav', { label: 'x'.repeat(65) }), 400, 'VALIDATION_FAILED', '/label');
    // Issue 40 item 9: the message says the length given beside the limit, whatever it is.
    assert.equal(long.error.details?.find((d) => d.path === '/label')?.message, 'is 65 characters long; the limit is 64');
    const longer = await refused(await upload(wav, 'a.wav', { label: 'y'.repeat(300) }), 400, 'VALIDATION_FAILED', '/label');
    assert.equal(longer.error.details?.find((d) => d.path === '/label')?.message, 'is 300 characters long; the limit is 64');
    const res = await upload(wav, 'a.wav', { label: '😀'.repeat(64) });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(json<Media>(res).label, '😀'.repeat(64));
  });

  it('415 for a JSON body, and 400 for a malformed multipart body, never 500', async () => {
    const j = await call(t, t.main, { method: 'POST', url: '/v1/files', payload: { file: 'x' } });
    assert.equal(j.statusCode, 415);
    const broken = await call(t, t.main, {
      method: 'POST',
      url: '/v1/files',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
    });
    assert.equal(broken.statusCode, 400, broken.body);
    assert.deepEqual(tmpFiles(t), []);
  });

  it('keeps only the base name of the client file name', async () => {
    const res = await upload(wavFile(0.5), '../../etc/pass\u0007wd.wav');
    assert.equal(res.statusCode, 201);
    assert.equal(json<Media>(res).filename, 'passwd.wav');
  });

  it('401 without a key', async () => {
    const res = await call(t, null, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(0.5)) });
    assert.equal(res.statusCode, 401);
  });
});

describe('POST /v1/files: credits and rate limit', () => {
  it('402 INSUFFICIENT_CREDITS when the analysis cannot be reserved; the committed file is removed; transcripts need none', async () => {
    const t = await buildTestApp({ INITIAL_CREDITS: '0' });
    try {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), 'a.wav') });
      assert.equal(res.statusCode, 402, res.body);
      assert.equal(json<ErrorJson>(res).error.code, 'INSUFFICIENT_CREDITS');
      assert.deepEqual(mediaFiles(t), []);
      assert.deepEqual(tmpFiles(t), []);
      assert.equal(await mediaRows(t), 0);
      const tr = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(VTT, 'a.vtt') });
      assert.equal(tr.statusCode, 201, tr.body);
    } finally {
      await t.close();
    }
  });

  it('reserves 1 credit per started minute of audio', async () => {
    const t = await buildTestApp();
    try {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(61, 8000), 'a.wav') });
      assert.equal(res.statusCode, 201, res.body);
      const credits = json<{ reserved: number }>(await call(t, t.main, { method: 'GET', url: '/v1/credits' }));
      assert.equal(credits.reserved, 2);
    } finally {
      await t.close();
    }
  });

  it('counts uploads in their own class: the (limit+1)th upload in a window gets 429 with Retry-After', async () => {
    const t = await buildTestApp({ RATE_LIMIT_UPLOAD: '2' });
    try {
      const codes: number[] = [];
      let last;
      for (let i = 0; i < 3; i++) {
        // Other bytes each time: the same bytes again would be a duplicate's 200 (decisions §18).
        last = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(`${VTT}${'\n'.repeat(i)}`, 'a.vtt') });
        codes.push(last.statusCode);
      }
      // A window boundary may fall between the calls; then the third is allowed again.
      if (codes[2] !== 201) {
        assert.deepEqual(codes, [201, 201, 429]);
        assert.ok(Number(last?.headers['retry-after']) >= 1);
        assert.equal(last?.headers['x-ratelimit-limit'], '2');
      }
      const list = await call(t, t.main, { method: 'GET', url: '/v1/files' });
      assert.equal(list.headers['x-ratelimit-limit'], '30');
    } finally {
      await t.close();
    }
  });
});

describe('uploads leave nothing on disk when refused', () => {
  it('the media folder holds exactly the files of existing rows', async () => {
    const t = await buildTestApp({ MAX_UPLOAD_BYTES: String(LIMIT), RATE_LIMIT_UPLOAD: '1000' });
    try {
      await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), 'a.wav') });
      await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(PNG, 'a.png') });
      await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(10), 'big.wav') });
      const ids = (await t.sql.all<{ id: string }>('SELECT id FROM media')).map((r) => r.id).sort();
      assert.deepEqual(mediaFiles(t).sort(), ids);
      assert.ok(ids.every((id) => existsSync(path.join(t.dataDir, 'media', id))));
    } finally {
      await t.close();
    }
  });
});
