// Media after upload: list (paging, newest first), get, delete (204, 409 while a job uses it),
// diarization (409 until ready), transcripts attached to existing media, tenant isolation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from '../../test/helpers.ts';
import { newId } from '../ids.ts';
import { fileUpload, JSON_TRANSCRIPT, SRT, VTT, wavFile } from './files.fixtures.testkit.ts';
import type { Diarization, Media } from './files.schemas.ts';

/** A cached analysis as the engine would leave it (only the fields the API reads are real). */
function fakeAnalysis(durationSec: number): MediaAnalysis {
  return {
    version: 1,
    durationSec,
    segments: [
      { speaker: 0, start: 0.2, end: 1.0 },
      { speaker: 1, start: 1.1, end: 1.9 },
    ],
    speakers: [
      { index: 0, speechSec: 0.8, firstSpeechSec: 0.2, label: null, voiceprint: [1, 0], metrics: {} },
      { index: 1, speechSec: 0.8, firstSpeechSec: 1.1, label: 'Bob', voiceprint: [0, 1], metrics: {} },
    ],
    turns: [],
    transcript: null,
    method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null },
  } as unknown as MediaAnalysis;
}

describe('media resources', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000' });
  });
  after(async () => t.close());

  const upload = async (data: Buffer | string, name: string, fields: Record<string, string> = {}) => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, name, fields) });
    assert.equal(res.statusCode, 201, res.body);
    return json<Media>(res);
  };
  const get = (url: string, tenant = t.main) => call(t, tenant, { method: 'GET', url });

  async function analysed(): Promise<{ media: Media; entityIds: string[] }> {
    const media = await upload(wavFile(2), 'a.wav');
    const entityIds = [newId('ent'), newId('ent')];
    await t.services.stores.media.completeAnalysis(media.id, fakeAnalysis(2), [
      { speakerIndex: 0, entityId: entityIds[0] as string, speechSec: 0.8, create: { voiceprint: [1, 0], label: null } },
      { speakerIndex: 1, entityId: entityIds[1] as string, speechSec: 0.8, create: { voiceprint: [0, 1], label: 'Bob' } },
    ]);
    return { media, entityIds };
  }

  it('lists media newest first with cursor paging; a bad cursor is a 400', async () => {
    const made = [await upload(VTT, 'a.vtt'), await upload(SRT, 'b.srt'), await upload(JSON_TRANSCRIPT, 'c.json')];
    const first = json<{ data: Media[]; nextCursor: string | null }>(await get('/v1/files?limit=2'));
    assert.deepEqual(first.data.map((m) => m.id), [made[2]?.id, made[1]?.id]);
    assert.ok(first.nextCursor);
    const second = json<{ data: Media[]; nextCursor: string | null }>(await get(`/v1/files?limit=2&cursor=${first.nextCursor}`));
    assert.equal(second.data[0]?.id, made[0]?.id);
    const bad = await get('/v1/files?cursor=nonsense');
    assert.equal(bad.statusCode, 400);
    assert.equal(json<ErrorJson>(bad).error.details?.[0]?.path, '/query/cursor');
    assert.equal((await get('/v1/files?limit=0')).statusCode, 400);
    assert.equal((await get('/v1/files?limit=101')).statusCode, 400);
  });

  it('gets one media; speakers come from the analysis with their entity links', async () => {
    const { media, entityIds } = await analysed();
    const m = json<Media>(await get(`/v1/files/${media.id}`));
    assert.equal(m.analysis.status, 'ready');
    assert.deepEqual(m.analysis.speakers, [
      { index: 0, entityId: entityIds[0], speechSec: 0.8, firstSpeechSec: 0.2, label: null, enough: false },
      { index: 1, entityId: entityIds[1], speechSec: 0.8, firstSpeechSec: 1.1, label: 'Bob', enough: false },
    ]);
    assert.equal((await get(`/v1/files/${newId('med')}`)).statusCode, 404);
  });

  it('an analysis cached by an earlier engine reads back upgraded: audio-only turn-taking zeros become null', async () => {
    const media = await upload(wavFile(2), 'old.wav');
    const zeros = { interruptionsMade: 0, interruptionsReceived: 0, backchannels: 0, overlapSec: 0, turns: 3 };
    const old = fakeAnalysis(2);
    const cached = { ...old, speakers: old.speakers.map((s) => ({ ...s, metrics: { ...zeros } })) } as unknown as MediaAnalysis;
    await t.services.stores.media.completeAnalysis(media.id, cached, []);
    const read = await t.services.stores.media.load(media.id);
    for (const s of read?.analysis?.speakers ?? []) assert.deepEqual(s.metrics, { interruptionsMade: null, interruptionsReceived: null, backchannels: null, overlapSec: null, turns: 3 });
    assert.equal(read?.analysis?.speakers.length, 2);
  });

  it('diarization: 409 CONFLICT while pending, the segments once ready, cue segments for a transcript', async () => {
    const pending = await upload(wavFile(1), 'p.wav');
    const early = await get(`/v1/files/${pending.id}/diarization`);
    assert.equal(early.statusCode, 409);
    assert.equal(json<ErrorJson>(early).error.code, 'CONFLICT');
    assert.match(json<ErrorJson>(early).error.message, /pending/);

    const { media } = await analysed();
    const d = json<Diarization>(await get(`/v1/files/${media.id}/diarization`));
    assert.deepEqual(d, { mediaId: media.id, durationSec: 2, segments: [{ speaker: 0, start: 0.2, end: 1 }, { speaker: 1, start: 1.1, end: 1.9 }] });

    // A blank line more than the first test's a.vtt: other bytes, so other media (decisions §18).
    const tr = await upload(`${VTT}\n`, 'a.vtt');
    const td = json<Diarization>(await get(`/v1/files/${tr.id}/diarization`));
    assert.deepEqual(td.segments.map((s) => s.speaker), [0, 1, 0]);
    assert.equal(td.durationSec, 7);

    await t.services.stores.media.failAnalysis(pending.id, { code: 'media_unreadable', message: 'cannot decode' });
    const failed = await get(`/v1/files/${pending.id}/diarization`);
    assert.equal(failed.statusCode, 409);
    assert.match(json<ErrorJson>(failed).error.message, /media_unreadable/);
  });

  it('attaches a transcript to pending media: 201 with that media, hasTranscript, still one media row', async () => {
    const audio = await upload(wavFile(1), 'a.wav');
    const count = (await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media'))?.n;
    const m = await upload(VTT, 'a.vtt', { mediaId: audio.id });
    assert.equal(m.id, audio.id);
    assert.equal(m.hasTranscript, true);
    assert.equal(m.kind, 'audio');
    assert.equal(m.analysis.status, 'pending');
    assert.equal((await t.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM media'))?.n, count);
    assert.equal((await t.services.stores.media.load(audio.id))?.transcript?.cues.length, 3);
  });

  it('attaching to analysed media queues its analysis again (credits reserved again); a running analysis answers 409', async () => {
    const { media } = await analysed();
    const reservedBefore = (await t.services.stores.credits.balance(t.main.workspaceId))?.reserved ?? 0;
    const m = await upload(SRT, 'b.srt', { mediaId: media.id });
    assert.equal(m.analysis.status, 'pending');
    assert.deepEqual(m.analysis.speakers, []);
    assert.equal((await t.services.stores.credits.balance(t.main.workspaceId))?.reserved, reservedBefore + 1);
    await t.services.stores.media.markAnalysisRunning(media.id);
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(VTT, 'a.vtt', { mediaId: media.id }) });
    assert.equal(res.statusCode, 409);
  });

  it('refuses mediaId with a non-transcript (400), an unknown or foreign id (400 REFERENCE_NOT_FOUND), a transcript target, and label with it', async () => {
    const audio = await upload(wavFile(1), 'a.wav');
    const send = (data: Buffer | string, fields: Record<string, string>, tenant = t.main) => call(t, tenant, { method: 'POST', url: '/v1/files', ...fileUpload(data, 'x', fields) });
    const notTranscript = await send(wavFile(1), { mediaId: audio.id });
    assert.equal(notTranscript.statusCode, 400);
    assert.equal(json<ErrorJson>(notTranscript).error.details?.[0]?.path, '/mediaId');
    for (const r of [await send(VTT, { mediaId: newId('med') }), await send(VTT, { mediaId: audio.id }, t.other)]) {
      assert.equal(r.statusCode, 400);
      assert.equal(json<ErrorJson>(r).error.code, 'REFERENCE_NOT_FOUND');
      assert.equal(json<ErrorJson>(r).error.details?.[0]?.path, '/mediaId');
    }
    const tr = await upload(`${VTT}\n\n`, 'a.vtt');
    assert.equal((await send(SRT, { mediaId: tr.id })).statusCode, 400);
    const withLabel = await send(SRT, { mediaId: audio.id, label: 'x' });
    assert.equal(withLabel.statusCode, 400);
    assert.equal(json<ErrorJson>(withLabel).error.details?.[0]?.path, '/label');
  });

  it('deletes media: 204, the file and its appearances are gone, then 404', async () => {
    const { media, entityIds } = await analysed();
    const stored = await t.services.stores.media.load(media.id);
    assert.ok(stored && existsSync(stored.storagePath));
    const del = await call(t, t.main, { method: 'DELETE', url: `/v1/files/${media.id}` });
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    assert.equal(existsSync(stored.storagePath), false);
    assert.equal((await get(`/v1/files/${media.id}`)).statusCode, 404);
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/files/${media.id}` })).statusCode, 404);
    // The people stay known; only this media's appearances went.
    const e = json<{ appearances: unknown[] }>(await get(`/v1/entities/${entityIds[0]}`));
    assert.deepEqual(e.appearances, []);
  });

  it('deleting pending media releases its reserved credits', async () => {
    const audio = await upload(wavFile(1), 'a.wav');
    const before = (await t.services.stores.credits.balance(t.main.workspaceId))?.reserved ?? 0;
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/files/${audio.id}` })).statusCode, 204);
    assert.equal((await t.services.stores.credits.balance(t.main.workspaceId))?.reserved, before - 1);
  });

  it('409 CONFLICT when deleting media that a queued job uses; allowed once the job ended', async () => {
    const audio = await upload(wavFile(1), 'a.wav');
    const job = await t.services.stores.jobs.create({
      workspaceId: t.main.workspaceId,
      type: 'report',
      request: { target: { type: 'media_target', mediaId: audio.id, selector: { strategy: 'dominant' } } },
      cost: 1,
    });
    const res = await call(t, t.main, { method: 'DELETE', url: `/v1/files/${audio.id}` });
    assert.equal(res.statusCode, 409);
    assert.equal(json<ErrorJson>(res).error.code, 'CONFLICT');
    assert.match(json<ErrorJson>(res).error.message, new RegExp(job.id));
    assert.equal((await get(`/v1/files/${audio.id}`)).statusCode, 200);
    const cancel = await call(t, t.main, { method: 'POST', url: `/v1/jobs/${job.id}/cancel` });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/files/${audio.id}` })).statusCode, 204);
  });

  it("another workspace gets 404 for every media route and sees none of this workspace's media", async () => {
    const audio = await upload(wavFile(1), 'a.wav');
    for (const [method, url] of [['GET', `/v1/files/${audio.id}`], ['DELETE', `/v1/files/${audio.id}`], ['GET', `/v1/files/${audio.id}/diarization`]] as const) {
      const res = await call(t, t.other, { method, url });
      assert.equal(res.statusCode, 404, `${method} ${url}`);
    }
    assert.deepEqual(json<{ data: Media[] }>(await get('/v1/files', t.other)).data, []);
    assert.equal((await get(`/v1/files/${audio.id}`)).statusCode, 200);
  });

  it('405 for a wrong method on a media path; the OpenAPI document lists every media route', async () => {
    assert.equal((await call(t, t.main, { method: 'PUT', url: '/v1/files' })).statusCode, 405);
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(await call(t, null, { method: 'GET', url: '/v1/openapi.json' }));
    assert.ok(doc.paths['/v1/files']?.post && doc.paths['/v1/files']?.get);
    assert.ok(doc.paths['/v1/files/{id}']?.get && doc.paths['/v1/files/{id}']?.delete);
    assert.ok(doc.paths['/v1/files/{id}/diarization']?.get);
  });
});
