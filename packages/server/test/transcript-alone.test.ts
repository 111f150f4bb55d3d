// Decisions §19: a transcript uploaded without audio is analysed from its cues. Its speakers are
// entities by name, its metrics and diarization answer, a matching job may name it, and audio
// attached later (mediaId on the audio upload) replaces the text-only analysis. The audio's
// analysis is canned (canned-engine.ts): two speakers who speak where the transcript says.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { buildTestApp, call, json, waitFor, type ErrorJson, type TestApp } from './helpers.ts';
import { cannedAnalysis, cannedEngine } from './canned-engine.ts';
import { fileUpload, wavFile, TWO_NAMES_VTT as VTT } from '../src/files/files.fixtures.testkit.ts';
import type { Media } from '../src/files/files.schemas.ts';
import type { Job } from '../src/jobs/jobs.schemas.ts';
import type { MediaMetrics } from '../src/metrics/metrics.schemas.ts';
import { ResultEvidence } from '../src/results/results.schemas.ts';

// The times of cannedAnalysis([8, 8]): Ana 0.5–4.5 and 9.3–13.3, Ben 4.9–8.9 and 13.7–17.7, with
// Ben's first cue starting 0.5 s before Ana's ends (an interruption in the cues).

describe('a transcript on its own (decisions §19)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_JOB_STATUS: '100000', RATE_LIMIT_FILES: '100000' }, { engine: cannedEngine(() => cannedAnalysis([8, 8])) });
    t.composed.worker?.start();
  });
  after(() => t.close());

  const get = (url: string) => call(t, t.main, { method: 'GET', url });
  let mediaId = '';
  let people: string[] = [];

  it('is analysed from its cues as it is stored: its speakers are entities by name, without a voice', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(VTT, 'talk.vtt') });
    assert.equal(res.statusCode, 201, res.body);
    const m = json<Media>(res);
    mediaId = m.id;
    assert.equal(m.kind, 'transcript');
    assert.equal(m.analysis.status, 'ready');
    assert.deepEqual(m.analysis.speakers.map((s) => [s.label, s.speechSec]), [['Ana', 8], ['Ben', 8.9]]);
    people = m.analysis.speakers.map((s) => s.entityId ?? '');
    assert.ok(people.every((id) => id.startsWith('ent_')), JSON.stringify(m.analysis.speakers));
    for (const [i, id] of people.entries()) {
      const e = json<{ label: string; appearances: { mediaId: string; speakerIndex: number }[] }>(await get(`/v1/entities/${id}`));
      assert.equal(e.label, ['Ana', 'Ben'][i]);
      assert.deepEqual(e.appearances.map((a) => [a.mediaId, a.speakerIndex]), [[mediaId, i]]);
    }
    // No voice: nothing in the workspace is linked to them by one.
    const prints = await t.services.stores.entities.voiceprints(t.main.workspaceId);
    assert.deepEqual(prints.filter((p) => people.includes(p.entityId)).map((p) => p.voiceprint), [[], []]);
  });

  it('GET metrics answers 200: timing and language from the cues, acoustic measures not measured for "no audio"', async () => {
    const res = await get(`/v1/files/${mediaId}/metrics`);
    assert.equal(res.statusCode, 200, res.body);
    const body = json<MediaMetrics>(res);
    const [ana, ben] = body.speakers;
    assert.ok(ana && ben);
    assert.deepEqual([ana.entityId, ben.entityId], people);
    assert.equal(ana.metrics.speechSec, 8);
    assert.equal(ben.metrics.speechSec, 8.9);
    assert.equal(ana.metrics.turns, 2);
    assert.equal(ben.metrics.turns, 2);
    assert.equal(ben.metrics.interruptionsMade, 1);
    assert.ok(Math.abs((ben.metrics.overlapSec ?? 0) - 0.5) < 1e-9);
    assert.ok((ana.metrics.language?.words ?? 0) > 10);
    assert.ok((ana.metrics.language?.questionRate ?? 0) > 0);
    assert.equal(ana.metrics.pitchMedianSt, null);
    assert.equal(ana.metrics.loudnessMeanDb, null);
    assert.equal(ana.metrics.speakingRateSylPerSec, null);
    assert.equal(body.notMeasured?.reason, 'no audio');
    assert.ok(body.notMeasured?.measures.includes('pitchMedianSt'));
    const csv = await get(`/v1/files/${mediaId}/metrics?format=csv`);
    assert.equal(csv.statusCode, 200, csv.body);
  });

  it('its diarization answers in every format, from the cue times', async () => {
    const res = await get(`/v1/files/${mediaId}/diarization`);
    assert.equal(res.statusCode, 200, res.body);
    const d = json<{ segments: { speaker: number; start: number; end: number }[] }>(res);
    assert.deepEqual(d.segments.map((s) => [s.speaker, s.start, s.end]), [[0, 0.5, 4.5], [1, 4, 8.9], [0, 9.3, 13.3], [1, 13.7, 17.7]]);
    const vtt = await get(`/v1/files/${mediaId}/diarization?format=vtt`);
    assert.equal(vtt.statusCode, 200, vtt.body);
    assert.match(vtt.body, /<v Ana>Hello Ben/);
    assert.equal((await get(`/v1/files/${mediaId}/diarization?format=rttm`)).statusCode, 200);
  });

  it('a matching job naming it completes, with the figures of its cues', async () => {
    const target = { type: 'media_target', mediaId, selector: { strategy: 'speaker_index', speaker_index: 0 } };
    const group = [{ type: 'media_target', mediaId, selector: { strategy: 'speaker_index', speaker_index: 1 } }];
    const res = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: { context: 'behavioral_compatibility', target, group } });
    assert.equal(res.statusCode, 202, res.body);
    const { jobId } = json<{ jobId: string }>(res);
    const job = await waitFor(async () => {
      const j = json<Job>(await get(`/v1/jobs/${jobId}`));
      return j.status === 'failed' || j.status === 'succeeded' ? j : null;
    }, 30_000, 'job end');
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    const evidence = json<ResultEvidence>(await get(`/v1/matching/${job.resultId}/evidence`));
    assert.deepEqual([...Value.Errors(ResultEvidence, evidence)].map((e) => `${e.instancePath}: ${e.message}`), [], 'the evidence its schema describes');
    assert.equal(evidence.target.entityId, people[0]);
    assert.equal(evidence.target.metrics.speechSec, 8);
    assert.equal(evidence.target.metrics.pitchMedianSt, null);
    assert.equal(evidence.group[0]?.metrics.speechSec, 8.9);
  });

  it('audio refused for credits leaves the transcript as it was: its kind, its analysis and its file', async () => {
    const balance = (await t.sql.get<{ balance: number }>('SELECT balance FROM workspaces WHERE id = ?', t.main.workspaceId))?.balance ?? 0;
    await t.sql.run('UPDATE workspaces SET balance = 0 WHERE id = ?', t.main.workspaceId);
    try {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(19), 'talk.wav', { mediaId }) });
      assert.equal(res.statusCode, 402, res.body);
      assert.equal(json<ErrorJson>(res).error.code, 'INSUFFICIENT_CREDITS');
    } finally {
      await t.sql.run('UPDATE workspaces SET balance = ? WHERE id = ?', balance, t.main.workspaceId);
    }
    const m = json<Media>(await get(`/v1/files/${mediaId}`));
    assert.equal(m.kind, 'transcript');
    assert.deepEqual(m.analysis.speakers.map((s) => s.entityId), people);
    const content = await get(`/v1/files/${mediaId}/content`);
    assert.equal(content.statusCode, 200);
    assert.equal(content.body, VTT);
  });

  it('a transcript stored alone before it was analysed from its cues is measured when read, analysed once and answered alike after', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(VTT.replace('Hello Ben', 'Hi Ben'), 'old.vtt') });
    const old = json<Media>(res).id;
    await t.sql.run('UPDATE media SET analysis_json = NULL, engine_version = NULL WHERE id = ?', old);
    const resource = (await get(`/v1/files/${old}`)).body;
    // The exports first (getRow: the first read may be any), RTTM without the transcript's text.
    const files = [];
    for (const format of ['rttm', 'vtt']) {
      const file = await get(`/v1/files/${old}/diarization?format=${format}`);
      assert.equal(file.statusCode, 200, file.body);
      files.push(file.body);
    }
    assert.match(files[1] ?? '', /<v Ana>Hi Ben/);
    const metrics = await get(`/v1/files/${old}/metrics`);
    assert.equal(metrics.statusCode, 200, metrics.body);
    assert.deepEqual(json<MediaMetrics>(metrics).speakers.map((s) => [s.label, s.metrics.speechSec]), [['Ana', 8], ['Ben', 8.9]]);
    const diarization = await get(`/v1/files/${old}/diarization`);
    assert.equal(diarization.statusCode, 200);
    // The analysis was kept in the row at the first read (the store's suite counts it made once:
    // test/stores/legacy-transcripts.test.ts); every answer after is the same, the resource too.
    assert.ok((await t.sql.get<{ a: string | null }>('SELECT analysis_json AS a FROM media WHERE id = ?', old))?.a);
    assert.equal((await get(`/v1/files/${old}/metrics`)).body, metrics.body);
    assert.equal((await get(`/v1/files/${old}/diarization`)).body, diarization.body);
    assert.equal((await get(`/v1/files/${old}`)).body, resource);
    assert.deepEqual([(await get(`/v1/files/${old}/diarization?format=rttm`)).body, (await get(`/v1/files/${old}/diarization?format=vtt`)).body], files);
  });

  it('audio uploaded with its mediaId replaces the text-only analysis; its people keep their ids and gain a voice', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(19), 'talk.wav', { mediaId }) });
    assert.equal(res.statusCode, 201, res.body);
    const m = json<Media>(res);
    assert.equal(m.id, mediaId);
    assert.equal(m.kind, 'audio');
    assert.equal(m.hasTranscript, true);
    assert.equal(m.analysis.status, 'pending');
    const ready = await waitFor(async () => {
      const x = json<Media>(await get(`/v1/files/${mediaId}`));
      return x.analysis.status === 'ready' ? x : null;
    }, 30_000, 'audio analysis');
    assert.deepEqual(ready.analysis.speakers.map((s) => s.entityId), people);
    const metrics = json<MediaMetrics>(await get(`/v1/files/${mediaId}/metrics`));
    assert.equal(metrics.notMeasured, undefined);
    assert.ok(metrics.speakers.every((s) => s.metrics.pitchMedianSt !== null));
    const prints = await t.services.stores.entities.voiceprints(t.main.workspaceId);
    assert.ok(prints.filter((p) => people.includes(p.entityId)).every((p) => p.voiceprint.length === 32));
    const stored = await t.services.stores.media.get(t.main.workspaceId, mediaId);
    assert.equal(stored?.analysis?.method.diarization, 'canned');
    // It was charged as audio: one credit for its 19 s.
    const ledger = json<{ data: { kind: string; mediaId?: string; amount: number }[] }>(await get('/v1/credits/transactions?limit=100')).data;
    assert.ok(ledger.some((x) => x.mediaId === mediaId && x.kind === 'charge'), JSON.stringify(ledger));
  });

  it('audio with the mediaId of audio media is 400 VALIDATION_FAILED at /mediaId; an unknown id 404 REFERENCE_NOT_FOUND', async () => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(2), 'again.wav', { mediaId }) });
    assert.equal(res.statusCode, 400, res.body);
    const err = json<ErrorJson>(res).error;
    assert.equal(err.code, 'VALIDATION_FAILED');
    assert.deepEqual(err.details?.map((d) => d.path), ['/mediaId']);
    const unknown = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(2), 'again.wav', { mediaId: 'med_doesnotexist0000000000' }) });
    assert.equal(json<ErrorJson>(unknown).error.code, 'REFERENCE_NOT_FOUND');
  });
});
