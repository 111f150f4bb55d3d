// Billing and length limits (issue 20, findings 1-2): media is charged by the duration of the
// samples its analysis decoded, not by what its header claims; media that declares more than
// MAX_MEDIA_SEC is refused at upload.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { encodeWith, fileUpload, wavFile } from './files.fixtures.testkit.ts';
import type { Media } from './files.schemas.ts';

function analysisOf(durationSec: number): MediaAnalysis {
  return { version: 1, durationSec, segments: [], speakers: [], turns: [], transcript: null, method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null } } as unknown as MediaAnalysis;
}

describe('media limits and billing', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', MAX_MEDIA_SEC: '60', INITIAL_CREDITS: '20' });
  });
  after(async () => t.close());

  const auth = () => ({ workspaceId: t.main.workspaceId, keyId: 'k', scope: 'admin' as const });
  const upload = (data: Buffer, name = 'a.wav') => call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, name) });

  it('charges the decoded duration, whatever the header declared (a lying WAV byte rate)', async () => {
    const wav = wavFile(2);
    wav.writeUInt32LE(0x7fffffff, 28); // the byte rate: 0 s by the old reading
    const res = await upload(wav);
    assert.equal(res.statusCode, 201, res.body);
    const m = json<Media>(res);
    assert.equal(m.durationSec, 2);
    const before = await t.services.credits.balance(auth());
    // The analysis decoded 600 s (10 credits), not the 2 s (1 credit) reserved at upload.
    assert.equal(await t.services.stores.media.completeAnalysis(m.id, analysisOf(600), []), 'done');
    const after = await t.services.credits.balance(auth());
    assert.equal(before.balance - after.balance, 10);
    assert.equal(after.reserved, before.reserved - 1);
    const stored = await t.services.stores.media.load(m.id);
    assert.equal(stored?.durationSec, 600);
  });

  it('an analysis that decodes to more than the workspace can pay stores nothing and keeps the credits', async () => {
    const m = json<Media>(await upload(wavFile(2)));
    const before = await t.services.credits.balance(auth());
    assert.equal(await t.services.stores.media.completeAnalysis(m.id, analysisOf(3600), []), 'insufficient_credits');
    const after = await t.services.credits.balance(auth());
    assert.deepEqual(after, before);
    assert.equal((await t.services.stores.media.load(m.id))?.analysisStatus, 'pending');
  });

  it('refuses at upload media whose container declares more than MAX_MEDIA_SEC (413), nothing reserved', async () => {
    const before = await t.services.credits.balance(auth());
    for (const [name, data] of [['long.wav', wavFile(61)], ['long.mp3', await encodeWith('mp3', { seconds: 61 })]] as const) {
      const res = await upload(data, name);
      assert.equal(res.statusCode, 413, `${name}: ${res.body}`);
      const body = json<ErrorJson>(res);
      assert.equal(body.error.code, 'PAYLOAD_TOO_LARGE');
      assert.match(body.error.message, /MAX_MEDIA_SEC/);
    }
    assert.deepEqual(await t.services.credits.balance(auth()), before);
  });
});
