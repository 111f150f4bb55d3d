// Issue 32, finding 1: a transcript was parsed on the API's thread, without a bound on its cues,
// and every media read (lists, gets, streams) loaded and parsed every stored transcript and
// analysis: one 16 MiB WebVTT (351k cues) held /healthz 1.3 s, and a list of six such media 2.8 s.
// Now a transcript is parsed in a worker thread and capped at MAX_TRANSCRIPT_CUES (413 beyond), and
// media reads take a summary kept beside the row, never the transcript or analysis columns: here
// those columns are spoiled after upload and every read still answers (it was a 500). The timings
// are measured by bench/transcripts.ts (docs/security.md).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from './helpers.ts';
import { fileUpload, VTT } from '../src/files/files.fixtures.testkit.ts';
import { MAX_TRANSCRIPT_CUES } from '../src/files/media-probe.ts';
import { SseReader } from './sse-reader.ts';
import type { AddressInfo } from 'node:net';

/** A WebVTT of `n` cues, two speakers taking turns. */
function vtt(n: number): string {
  const lines = ['WEBVTT', ''];
  const ts = (s: number) => new Date(s * 1000).toISOString().slice(11, 23);
  for (let i = 0; i < n; i++) lines.push(`${ts(i)} --> ${ts(i + 0.8)}`, `<v ${i % 2 ? 'Bob' : 'Alice'}>word ${i}`, '');
  return lines.join('\n');
}

describe('large transcripts', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_FILES: '100000', ROLE: 'api' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  const upload = (text: string, name = 'talk.vtt') => {
    const form = fileUpload(text, name);
    return call(t, t.main, { method: 'POST', url: '/v1/files', payload: form.payload, headers: form.headers });
  };

  it(`refuses a transcript of more than ${MAX_TRANSCRIPT_CUES} cues with 413, and takes one of exactly that many`, async () => {
    const over = await upload(vtt(MAX_TRANSCRIPT_CUES + 1));
    assert.equal(over.statusCode, 413, over.body.slice(0, 300));
    assert.equal(json<ErrorJson>(over).error.code, 'PAYLOAD_TOO_LARGE');
    assert.match(json<ErrorJson>(over).error.message, new RegExp(`${MAX_TRANSCRIPT_CUES} cues`));
    const at = await upload(vtt(MAX_TRANSCRIPT_CUES));
    assert.equal(at.statusCode, 201, at.body.slice(0, 300));
    assert.deepEqual(json<{ analysis: { speakers: { label: string }[] } }>(at).analysis.speakers.map((s) => s.label), ['Alice', 'Bob']);
  });

  it('answers lists, gets and streams of media without reading their transcript or analysis', async () => {
    const created = json<{ id: string }>(await upload(VTT));
    // Spoil what the reads must not touch: parsing it would fail (a 500 before).
    await t.sql.run("UPDATE media SET transcript_json = '{spoiled', analysis_json = '{spoiled' WHERE id = ?", created.id);
    const list = await call(t, t.main, { method: 'GET', url: '/v1/files?limit=100' });
    assert.equal(list.statusCode, 200, list.body.slice(0, 300));
    const listed = json<{ data: { id: string; hasTranscript: boolean; analysis: { speakers: { label: string; speechSec: number }[] } }[] }>(list).data.find((m) => m.id === created.id);
    assert.deepEqual(listed?.analysis.speakers.map((s) => [s.label, s.speechSec]), [['Alice', 4.3], ['Bob', 2.2]]);
    assert.equal(listed?.hasTranscript, true);
    const one = await call(t, t.main, { method: 'GET', url: `/v1/files/${created.id}` });
    assert.equal(one.statusCode, 200, one.body.slice(0, 300));
    const res = await fetch(`${base}/v1/files/events`, { headers: { 'service-api-key': t.main.apiKey, 'last-event-id': '0' } });
    assert.equal(res.status, 200);
    const reader = new SseReader(res.body as ReadableStream<Uint8Array>);
    assert.equal((await reader.next())?.retry, '2000');
    // The media's event, read from the store like any other change of the workspace.
    for (let f = await reader.next(); !f?.data?.includes(created.id); f = await reader.next()) assert.ok(f, 'the stream ended before the media event');
    await reader.cancel();
  });

  it('makes the summary of a row written before it existed from its whole row, once', async () => {
    const created = json<{ id: string }>(await upload(`${VTT}\nNOTE another transcript: other bytes than the one uploaded above (decisions §18)\n`, 'older.vtt'));
    await t.sql.run('UPDATE media SET summary_json = NULL WHERE id = ?', created.id);
    const one = json<{ hasTranscript: boolean; analysis: { speakers: { label: string }[] } }>(await call(t, t.main, { method: 'GET', url: `/v1/files/${created.id}` }));
    assert.deepEqual([one.hasTranscript, one.analysis.speakers.map((s) => s.label)], [true, ['Alice', 'Bob']]);
    assert.ok(await t.sql.get('SELECT 1 AS x FROM media WHERE id = ? AND summary_json IS NOT NULL', created.id), 'stored');
  });
});
