// Issue 41, finding 9: labels took raw control characters (ESC, BEL, CR), and the CLI and the
// VTT, SRT and RTTM exports printed them, so a label could rewrite a user's terminal or clipboard
// (OSC 52). Every label and name is refused with them at input; file names and transcript speaker
// names are stripped of them; the exports strip them from what was stored before. On both
// backends (the API suite runs again on PostgreSQL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, call, insertEntity, insertMedia, json, type ErrorJson, type TestApp } from './helpers.ts';
import { fileUpload } from '../src/files/files.fixtures.testkit.ts';
import { newId } from '../src/ids.ts';
import type { Media } from '../src/files/files.schemas.ts';

const HOSTILE = ['Ann\u001b]52;c;ZWNobyBwd25lZA==\u0007', 'Bob\rEve', 'x\u009b2J', 'tab\there', 'two\nlines', 'nul\u0000', 'del\u007f'];
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('control characters in labels and names', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '1000', RATE_LIMIT_ENTITIES: '1000', RATE_LIMIT_DEFAULT: '1000' });
  });
  after(() => t.close());

  it('a label too long says its length and the limit (issue 40 item 9), in a JSON body as in an upload', async () => {
    const entity = await insertEntity(t.services, t.main.workspaceId, 'Plain');
    for (const n of [65, 500]) {
      const res = await call(t, t.main, { method: 'PATCH', url: `/v1/entities/${entity}`, payload: { label: 'z'.repeat(n) } });
      assert.equal(res.statusCode, 400, res.body);
      const detail = json<ErrorJson>(res).error.details?.find((d) => d.path === '/label');
      assert.match(detail?.message ?? '', new RegExp(`^is ${n} characters long; the limit is \\d+$`), res.body);
    }
  });

  it('refuses them in every label and name a client writes, with 400 VALIDATION_FAILED naming the field', async () => {
    const entity = await insertEntity(t.services, t.main.workspaceId, 'Plain');
    const media = await insertMedia(t.services, t.main.workspaceId);
    const member = { type: 'media_target', mediaId: media.id, selector: { strategy: 'speaker_index', speaker_index: 0, on_miss: 'fallback_dominant' } };
    for (const bad of HOSTILE) {
      const cases: [string, Parameters<typeof call>[2]][] = [
        ['/label', { method: 'PATCH', url: `/v1/entities/${entity}`, payload: { label: bad } }],
        ['/tags/0', { method: 'POST', url: `/v1/entities/${entity}/tags`, payload: { tags: [bad] } }],
        ['/name', { method: 'POST', url: '/v1/workspace/keys', payload: { name: bad } }],
        ['/label', { method: 'POST', url: '/v1/matching/jobs', payload: { target: member, group: [member], context: 'behavioral_compatibility', label: bad } }],
        ['/label', { method: 'POST', url: '/v1/reports/jobs', payload: { target: member, label: bad } }],
        ['/label', { method: 'POST', url: '/v1/files', ...fileUpload('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nhi\n', 't.vtt', { label: bad }) }],
      ];
      for (const [path, req] of cases) {
        const res = await call(t, t.main, req);
        assert.equal(res.statusCode, 400, `${req.method} ${req.url} ${JSON.stringify(bad)}: ${res.body}`);
        const err = json<ErrorJson>(res).error;
        assert.equal(err.code, 'VALIDATION_FAILED');
        assert.ok(err.details?.some((d) => d.path === path && /control characters/.test(d.message)), res.body);
      }
    }
    const entityAfter = json<{ label: string }>(await call(t, t.main, { method: 'GET', url: `/v1/entities/${entity}` }));
    assert.equal(entityAfter.label, 'Plain');
    assert.equal((await call(t, t.main, { method: 'PATCH', url: `/v1/entities/${entity}`, payload: { label: 'Zoë O’Brien — 山田' } })).statusCode, 200, 'other characters still pass');
  });

  it('strips them from an uploaded file name and transcript speaker names, so no export carries them', async () => {
    // A JSON transcript carries them escaped (`\u001b`), so its bytes pass the upload's text check;
    // a WebVTT or SRT can carry them raw past the first 4 KiB the check reads.
    const transcript = JSON.stringify({
      segments: [
        { speaker: 'Al\u001b]52;c;eA==\u0007ice', start: 0, end: 2, text: 'Hello \u001b[2Jthere' },
        { speaker: '\u0007\u001b', start: 2.5, end: 4, text: 'Who is this\u009b' },
      ],
    });
    const pad = Array.from({ length: 200 }, (_, k) => `00:00:${String(10 + Math.floor(k / 10)).padStart(2, '0')}.${String(k % 10)}00 --> 00:00:${String(10 + Math.floor(k / 10)).padStart(2, '0')}.${String(k % 10)}50\n<v Carol>padding words\n`).join('\n');
    const vtt = `WEBVTT\n\n${pad}\n00:01:00.000 --> 00:01:02.000\n<v Da\u001b]52;c;eA==\u0007ve>raw \u001b[2J words\n`;
    assert.ok(vtt.indexOf('\u001b') > 4096);
    for (const [text, name] of [[transcript, 'ta\u001b]0;pwned\u0007lk\u009b.json'], [vtt, 'long.vtt']] as const) {
      const up = await call(t, t.main, { method: 'POST', url: '/v1/files', ...fileUpload(text, name) });
      assert.equal(up.statusCode, 201, up.body);
      const media = json<Media & { filename: string }>(up);
      assert.doesNotMatch(media.filename, CONTROL);
      for (const format of ['rttm', 'vtt', 'srt', 'json']) {
        const body = (await call(t, t.main, { method: 'GET', url: `/v1/files/${media.id}/diarization?format=${format}` })).body;
        assert.doesNotMatch(body, CONTROL, `${format}: ${JSON.stringify(body)}`);
        assert.doesNotMatch(body, /\\u00[01]/, `${format}: no escaped control in the JSON either`);
        if (format === 'srt') assert.match(body, name === 'long.vtt' ? /Da\]52;c;eA==ve: raw \[2J words/ : /Al\]52;c;eA==ice: Hello \[2Jthere/);
      }
    }
  });

  it('strips them from labels stored before they were refused, in RTTM, WebVTT and SRT', async () => {
    const media = await insertMedia(t.services, t.main.workspaceId);
    const labels = ['Ann\u001b]52;c;eA==\u0007', 'Bob\rEve\u009b'];
    const analysis = {
      version: 1, durationSec: 2, turns: [], transcript: null,
      segments: [{ speaker: 0, start: 0.2, end: 1.0 }, { speaker: 1, start: 1.1, end: 1.9 }],
      speakers: [0, 1].map((index) => ({ index, speechSec: 0.8, firstSpeechSec: 0.2, label: labels[index], voiceprint: [1, 0], metrics: {} })),
      method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null },
    } as unknown as MediaAnalysis;
    await t.services.stores.media.completeAnalysis(media.id, analysis, [0, 1].map((speakerIndex) => ({ speakerIndex, entityId: newId('ent'), speechSec: 0.8, create: { voiceprint: [1, 0], label: null } })));
    const get = async (format: string) => (await call(t, t.main, { method: 'GET', url: `/v1/files/${media.id}/diarization?format=${format}` })).body;
    const rttm = await get('rttm');
    assert.match(rttm, / Ann\]52;c;eA== <NA>/);
    assert.match(rttm, / Bob_Eve <NA>/);
    assert.match(await get('vtt'), /<v Bob Eve>/);
    for (const format of ['rttm', 'vtt', 'srt']) assert.doesNotMatch(await get(format), CONTROL, format);
  });
});
