// Decisions §15: the analysis's warnings (hint_not_met) are shown by the API on the media
// resource, as the OpenAPI document describes them; media analysed within its hint has none.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import { buildTestApp, call, json, waitFor, type TestApp } from './helpers.ts';
import { cannedAnalysis, cannedEngine } from './canned-engine.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import { Media } from '../src/files/files.schemas.ts';

describe('analysis warnings on the media resource (decisions §15)', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_FILES: '100000' }, { engine: cannedEngine(() => cannedAnalysis([20, 15])) });
    t.composed.worker?.start();
  });
  after(() => t.close());

  const analysed = async (fields: Record<string, string>): Promise<Media> => {
    const res = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(wavFile(1), 'talk.wav', fields) });
    assert.equal(res.statusCode, 201, res.body);
    const id = json<Media>(res).id;
    return waitFor(async () => {
      const m = json<Media>(await call(t, t.main, { method: 'GET', url: `/v1/files/${id}` }));
      return m.analysis.status === 'ready' ? m : null;
    }, 30_000, 'analysis');
  };

  it('numSpeakers the analysis could not give: hint_not_met with asked, found and the reason', async () => {
    const m = await analysed({ numSpeakers: '3' });
    assert.ok(Value.Check(Media, m), 'the resource matches its schema');
    assert.equal(m.analysis.warnings.length, 1);
    const [w] = m.analysis.warnings;
    assert.deepEqual({ code: w?.code, asked: w?.code === 'hint_not_met' ? w.asked : null, found: w?.found }, { code: 'hint_not_met', asked: { numSpeakers: 3 }, found: 2 });
    assert.match(w?.reason ?? '', /exactly 3 speakers were asked for/);
  });

  it('a hint met, or none: an empty list', async () => {
    assert.deepEqual((await analysed({ numSpeakers: '2' })).analysis.warnings, []);
    assert.deepEqual((await analysed({})).analysis.warnings, []);
  });

  it('the OpenAPI document describes the warnings', async () => {
    const doc = json<{ components: { schemas: Record<string, unknown> } }>(await call(t, null, { method: 'GET', url: '/v1/openapi.json' }));
    assert.match(JSON.stringify(doc), /hint_not_met/);
  });
});
