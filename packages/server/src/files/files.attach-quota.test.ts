// Uploads with `mediaId` at the workspace's storage quota: the quota counts stored media bytes,
// and an attachment changes them by what it adds, not by its whole size. Audio attached to a
// transcript on its own replaces the transcript's file (the store counts audio − transcript), and
// a transcript attached to audio is kept in the row (the store counts nothing). Both were refused
// 409 while the body was received, bounded by the room left as if the file were new media.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { fileUpload, TWO_NAMES_VTT as VTT, wavFile } from './files.fixtures.testkit.ts';
import type { Media, UploadedMedia } from './files.schemas.ts';

describe('POST /v1/files with mediaId at the storage quota', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', ROLE: 'api' });
  });
  after(async () => t.close());

  const upload = (data: Buffer | string, filename: string, fields: Record<string, string> = {}) => call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, filename, fields) });
  const used = async () => (await t.services.stores.workspaces.usage(t.main.workspaceId)).mediaBytes;
  const setQuota = (bytes: number) => t.services.stores.workspaces.setQuotas(t.main.workspaceId, { mediaBytes: bytes });
  const tmp = () => readdirSync(path.join(t.dataDir, 'tmp'));

  it('audio for a transcript on its own needs room for what it adds to the transcript, not for its whole size', async () => {
    const tr = json<UploadedMedia>(await upload(VTT, 'talk.vtt'));
    const transcriptBytes = Buffer.byteLength(VTT);
    assert.equal(await used(), transcriptBytes);
    const audio = wavFile(1.5);
    // Room for the audio in place of the transcript, not beside it.
    await setQuota(audio.length + 10);
    assert.ok(audio.length > audio.length + 10 - transcriptBytes, 'the whole audio does not fit in the room left');

    const tooBig = await upload(wavFile(1.6), 'big.wav', { mediaId: tr.id });
    assert.equal(tooBig.statusCode, 409, tooBig.body);
    assert.equal(json<ErrorJson>(tooBig).error.code, 'QUOTA_EXCEEDED');
    assert.equal(json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${tr.id}` })).kind, 'transcript', 'the transcript is as it was');
    assert.equal(await used(), transcriptBytes);

    const res = await upload(audio, 'talk.wav', { mediaId: tr.id });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(json<Media>(res).kind, 'audio');
    assert.equal(await used(), audio.length, 'the transcript\'s bytes were replaced by the audio\'s');
    assert.deepEqual(tmp(), []);
  });

  it('a transcript attached to audio takes none of the quota, and is attached at a full one', async () => {
    await setQuota(1e12);
    const audio = json<UploadedMedia>(await upload(wavFile(1.2), 'call.wav'));
    const before = await used();
    await setQuota(before);
    const other = await upload(wavFile(0.5), 'other.wav');
    assert.equal(other.statusCode, 409, 'the quota is full');
    const res = await upload(VTT, 'call.vtt', { mediaId: audio.id });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(json<Media>(res).hasTranscript, true);
    assert.equal(await used(), before, 'nothing counted for the transcript');
    assert.deepEqual(tmp(), []);
  });
});
