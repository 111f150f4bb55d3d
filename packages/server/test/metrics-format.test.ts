// Issue 33 item 9: GET …/metrics?format=csv serves CSV (as the CLI's --csv offers), for a media
// and for an entity; an unknown format is one 400 detail listing the allowed values, on every
// route with a format (metrics and diarization).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, json, waitFor, type ErrorJson, type TestApp } from './helpers.ts';
import { cannedAnalysis, cannedEngine } from './canned-engine.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import type { Media } from '../src/files/files.schemas.ts';

describe('measurements as CSV, and one error for an unknown format', () => {
  let t: TestApp;
  let media: Media;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_FILES: '100000', RATE_LIMIT_ENTITIES: '100000' }, { engine: cannedEngine(() => cannedAnalysis([20, 12])) });
    t.composed.worker?.start();
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), 'interview.wav') });
    const id = json<Media>(res).id;
    media = await waitFor(async () => {
      const m = json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${id}` }));
      return m.analysis.status === 'ready' ? m : null;
    }, 30_000, 'analysis');
  });
  after(() => t.close());

  it('a media\'s measurements as CSV: text/csv, one row per speaker named "Speaker N", units in the header', async () => {
    const res = await call(t, t.main, { method: 'GET', url: `/v1/files/${media.id}/metrics?format=csv` });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv; charset=utf-8/);
    const [header, first, second, ...rest] = res.body.trimEnd().split('\n');
    assert.equal(rest.length, 0);
    assert.match(header ?? '', /^media,speaker,speaker index \(from 0\),entity,speech \(s\),/);
    assert.match(first ?? '', new RegExp(`^${media.id},Speaker 1,0,ent_`));
    assert.match(second ?? '', new RegExp(`^${media.id},Speaker 2,1,ent_`));
    // JSON stays the default.
    assert.equal(json<{ mediaId: string }>(await call(t, t.main, { method: 'GET', url: `/v1/files/${media.id}/metrics` })).mediaId, media.id);
  });

  it('an entity\'s measurements as CSV: the profile, then each appearance', async () => {
    const entityId = media.analysis.speakers[0]?.entityId ?? '';
    const res = await call(t, t.main, { method: 'GET', url: `/v1/entities/${entityId}/metrics?format=csv` });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    const lines = res.body.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[1] ?? '', new RegExp(`^${entityId},,all,`));
  });

  for (const [route, allowed] of [['metrics', 'json, csv'], ['diarization', 'json, rttm, vtt, srt']] as const) {
    it(`${route}?format=xml is one 400 VALIDATION_FAILED detail listing ${allowed}`, async () => {
      const res = await call(t, t.main, { method: 'GET', url: `/v1/files/${media.id}/${route}?format=xml` });
      assert.equal(res.statusCode, 400, res.body);
      const err = json<ErrorJson>(res).error;
      assert.equal(err.code, 'VALIDATION_FAILED');
      assert.deepEqual(err.details, [{ path: '/query/format', message: `must be one of: ${allowed}` }]);
    });
  }
});
