// Per-speaker measurements of a media and an entity: the shapes of the schema, 409 until the
// analysis is ready and for a transcript alone, 404 for an unknown id, the entity's profile
// aggregated over its analysed appearances only.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import type { MediaAnalysis, SpeakerMetrics } from '@rapport/analysis';
import { buildTestApp, call, json, type TestApp } from '../../test/helpers.ts';
import { newId } from '../ids.ts';
import { fileUpload, VTT, wavFile } from '../files/files.fixtures.testkit.ts';
import type { Media } from '../files/files.schemas.ts';
import { EntityMetrics, MediaMetrics } from './metrics.schemas.ts';

function metrics(speechSec: number, pitchMedianSt: number): SpeakerMetrics {
  return {
    speechSec, talkShare: 0.5, turns: 4, medianTurnSec: 2, longestTurnSec: 5, pausesPerMin: 6, medianPauseSec: 0.4,
    speakingRateSylPerSec: 4.2, articulationRateSylPerSec: 5, pitchMedianSt, pitchRangeSt: 6, pitchVariabilitySt: 2,
    loudnessMeanDb: -24, loudnessVariabilityDb: 4, medianGapBeforeTurnSec: 0.3,
    interruptionsMade: null, interruptionsReceived: null, backchannels: null, overlapSec: null, language: null,
  };
}

function analysis(a: SpeakerMetrics, b: SpeakerMetrics): MediaAnalysis {
  return {
    version: 1, durationSec: 20, turns: [], transcript: null,
    segments: [{ speaker: 0, start: 0, end: 8 }, { speaker: 1, start: 9, end: 17 }],
    speakers: [a, b].map((m, index) => ({ index, speechSec: m.speechSec, firstSpeechSec: index * 9, label: index ? 'Bo' : null, voiceprint: [1, index], metrics: m })),
    method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null },
  } as unknown as MediaAnalysis;
}

describe('measurements', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000', RATE_LIMIT_ENTITIES: '1000' });
  });
  after(async () => t.close());
  const get = (url: string) => call(t, t.main, { method: 'GET', url });
  const upload = async (data: Buffer | string, name: string) => json<Media>(await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(data, name) }));

  it('of a media: each speaker with its entity, label and measurements; 409 before ready; 404 unknown', async () => {
    const media = await upload(wavFile(2), 'a.wav');
    assert.equal((await get(`/v1/files/${media.id}/metrics`)).statusCode, 409);
    const ent = [newId('ent'), newId('ent')];
    await t.services.stores.media.completeAnalysis(media.id, analysis(metrics(8, 30), metrics(8, 40)), [0, 1].map((speakerIndex) => ({ speakerIndex, entityId: ent[speakerIndex] as string, speechSec: 8, create: { voiceprint: [1, speakerIndex], label: null } })));
    const res = await get(`/v1/files/${media.id}/metrics`);
    assert.equal(res.statusCode, 200, res.body);
    const body = json<MediaMetrics>(res);
    assert.ok(Value.Check(MediaMetrics, body), res.body);
    assert.deepEqual(body.speakers.map((s) => [s.index, s.entityId, s.label, s.metrics.pitchMedianSt]), [[0, ent[0], null, 30], [1, ent[1], 'Bo', 40]]);
    assert.equal((await get(`/v1/files/${newId('med')}/metrics`)).statusCode, 404);
    const tr = await upload(VTT, 'a.vtt');
    // Decisions §19: a transcript on its own is measured from its cues, without its acoustics.
    const alone = await get(`/v1/files/${tr.id}/metrics`);
    assert.equal(alone.statusCode, 200, alone.body);
    const text = json<MediaMetrics>(alone);
    assert.ok(Value.Check(MediaMetrics, text), alone.body);
    assert.deepEqual(text.speakers.map((s) => [s.label, s.metrics.speechSec, s.metrics.pitchMedianSt]), [['Alice', 4.3, null], ['Bob', 2.2, null]]);
    assert.equal(text.notMeasured?.reason, 'no audio');
  });

  it('of an entity: the profile aggregated over its analysed appearances, and each appearance', async () => {
    const entityId = newId('ent');
    const first = await upload(wavFile(2), 'one.wav');
    const second = await upload(wavFile(2), 'two.wav');
    const pending = await upload(wavFile(2), 'three.wav');
    const link = (speakerIndex: number, id: string, create: boolean) => ({ speakerIndex, entityId: id, speechSec: 8, ...(create ? { create: { voiceprint: [1, 0], label: null } } : {}) });
    await t.services.stores.media.completeAnalysis(first.id, analysis(metrics(10, 30), metrics(5, 50)), [link(0, entityId, true), link(1, newId('ent'), true)]);
    await t.services.stores.media.completeAnalysis(second.id, analysis(metrics(5, 60), metrics(30, 36)), [link(0, newId('ent'), true), link(1, entityId, false)]);
    void pending; // analysis pending: has no appearance yet, changes nothing
    const res = await get(`/v1/entities/${entityId}/metrics`);
    assert.equal(res.statusCode, 200, res.body);
    const body = json<EntityMetrics>(res);
    assert.ok(Value.Check(EntityMetrics, body), res.body);
    assert.deepEqual(body.appearances.map((a) => [a.mediaId, a.speakerIndex, a.metrics.speechSec]).sort(), [[first.id, 0, 10], [second.id, 1, 30]].sort());
    assert.equal(body.metrics?.speechSec, 40);
    const pitch = body.metrics?.pitchMedianSt ?? 0;
    assert.ok(pitch > 30 && pitch < 36, `the profile's pitch lies between its appearances' (${pitch})`);
    assert.equal((await get(`/v1/entities/${newId('ent')}/metrics`)).statusCode, 404);
  });

  it("of an entity: reads only its appearances' speakers, not their media's transcripts (issue 41)", async () => {
    const entityId = newId('ent');
    const media = await upload(wavFile(2), 'hour.wav');
    await t.services.stores.media.completeAnalysis(media.id, analysis(metrics(10, 30), metrics(5, 50)), [
      { speakerIndex: 0, entityId, speechSec: 10, create: { voiceprint: [1, 0], label: null } },
      { speakerIndex: 1, entityId: newId('ent'), speechSec: 5, create: { voiceprint: [0, 1], label: null } },
    ]);
    // A transcript column no reader of the measurements may parse (an hour's 20,000 cues were
    // parsed, with the whole analysis, for every appearance on the event loop: 1 to 2 s for 20).
    await t.sql.run('UPDATE media SET transcript_json = ? WHERE id = ?', '{not json', media.id);
    const res = await get(`/v1/entities/${entityId}/metrics`);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(json<EntityMetrics>(res).appearances.map((a) => [a.mediaId, a.metrics.speechSec]), [[media.id, 10]]);
  });
});
