// The media analysis streams over a real port: GET /v1/files/:id/events (the current state at
// once, every change with its stage and progress, media.ready or media.failed, then the end;
// Last-Event-ID resumes) and GET /v1/files/events (every media of the workspace that changes,
// no other workspace's, resumable). The analysis is driven through the store, as a worker does.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaAnalysis } from '@rapport/analysis';
import { buildTestApp, insertMedia, otherProcessMedia, type TestApp } from './helpers.ts';
import type { Media } from '../src/files/files.schemas.ts';
import { SseReader, type SseFrame } from './sse-reader.ts';

const analysis = {
  version: 1,
  durationSec: 2,
  segments: [{ speaker: 0, start: 0.2, end: 1.0 }],
  speakers: [{ index: 0, speechSec: 0.8, firstSpeechSec: 0.2, label: null, voiceprint: [1, 0], metrics: {} }],
  turns: [],
  transcript: null,
  method: { vad: 'test', diarization: 'test', voiceprint: 'test', realTimeFactor: null },
} as unknown as MediaAnalysis;

const media = (f: SseFrame | null): Media => JSON.parse(f?.data ?? '{}') as Media;

describe('media analysis events', () => {
  let t: TestApp;
  let base: string;

  before(async () => {
    // No worker: the test plays the worker's part through the store.
    t = await buildTestApp({ ROLE: 'api', RATE_LIMIT_FILES: '10000' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  const open = (path: string, headers: Record<string, string> = {}, key = t.main.apiKey) =>
    fetch(`${base}${path}`, { headers: { 'service-api-key': key, ...headers } });
  const store = () => t.services.stores.media;

  it('GET /v1/files/:id/events: the current state, each stage, the ready state, then the end', async () => {
    const m = await insertMedia(t.services, t.main.workspaceId);
    const res = await open(`/v1/files/${m.id}/events`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(res.headers.get('x-ratelimit-limit'));
    const sse = new SseReader(res.body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    const current = await sse.next();
    assert.equal(current?.event, 'media.updated');
    assert.deepEqual([media(current).id, media(current).analysis.status, media(current).analysis.stage, media(current).analysis.progress], [m.id, 'pending', null, 0]);

    await store().markAnalysisRunning(m.id);
    const running = await sse.next();
    assert.ok(Number(running?.id) > Number(current?.id), 'ids grow');
    assert.deepEqual([running?.event, media(running).analysis.status, media(running).analysis.stage, media(running).analysis.progress], ['media.updated', 'running', 'detecting_speech', 0]);

    await store().setAnalysisProgress(m.id, 'identifying_speakers', 0.5);
    const stage = await sse.next();
    assert.deepEqual([media(stage).analysis.stage, media(stage).analysis.progress], ['identifying_speakers', 0.5]);

    await store().completeAnalysis(m.id, analysis, []);
    const ready = await sse.next();
    assert.equal(ready?.event, 'media.ready');
    assert.deepEqual([media(ready).analysis.status, media(ready).analysis.stage, media(ready).analysis.progress, media(ready).analysis.speakers.length], ['ready', null, 1, 1]);
    assert.equal(await sse.next(), null, 'the stream closes after media.ready');

    // Resuming after the running event gets only what is newer; after the last one, nothing.
    const resumed = new SseReader((await open(`/v1/files/${m.id}/events`, { 'last-event-id': String(running?.id) })).body as ReadableStream<Uint8Array>);
    assert.equal((await resumed.next())?.retry, '2000');
    const next = await resumed.next();
    assert.deepEqual([next?.id, next?.event], [ready?.id, 'media.ready']);
    assert.equal(await resumed.next(), null);
    const done = new SseReader((await open(`/v1/files/${m.id}/events`, { 'last-event-id': String(ready?.id) })).body as ReadableStream<Uint8Array>);
    assert.equal((await done.next())?.retry, '2000');
    assert.equal(await done.next(), null);
  });

  it('a failed analysis ends with media.failed and its error', async () => {
    const m = await insertMedia(t.services, t.main.workspaceId);
    const sse = new SseReader((await open(`/v1/files/${m.id}/events`)).body as ReadableStream<Uint8Array>);
    await sse.next();
    await sse.next();
    // A second store on the same database stands for a worker process: it publishes nowhere, so
    // the stream finds the change by reading the store.
    const worker = await otherProcessMedia(t.services.stores);
    try {
      await worker.media.failAnalysis(m.id, { code: 'media_unreadable', message: 'not audio' });
    } finally {
      await worker.close();
    }
    const failed = await sse.next(3000);
    assert.equal(failed?.event, 'media.failed');
    assert.deepEqual(media(failed).analysis.error, { code: 'media_unreadable', message: 'not audio' });
    assert.equal(await sse.next(), null);
  });

  it('is 404 for another workspace’s media and 401 without a key', async () => {
    const m = await insertMedia(t.services, t.main.workspaceId);
    assert.equal((await open(`/v1/files/${m.id}/events`, {}, t.other.apiKey)).status, 404);
    assert.equal((await fetch(`${base}/v1/files/${m.id}/events`)).status, 401);
  });

  it('GET /v1/files/events: "from now on" is fixed before the stream opens, so a change made right after it opens is sent', async () => {
    // The store answers slowly (as PostgreSQL under load): a change made once the client sees
    // the stream open must not be counted as already seen.
    const s = store();
    const latestChange = s.latestChange.bind(s);
    s.latestChange = async (workspaceId) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return latestChange(workspaceId);
    };
    try {
      const res = await open('/v1/files/events');
      const sse = new SseReader(res.body as ReadableStream<Uint8Array>);
      assert.equal((await sse.next())?.retry, '2000');
      const fresh = await insertMedia(t.services, t.main.workspaceId);
      assert.equal(media(await sse.next()).id, fresh.id);
      await sse.cancel();
    } finally {
      s.latestChange = latestChange;
    }
  });

  it('GET /v1/files/events: every change in the workspace from now on, none of another, resumable', async () => {
    const before = await insertMedia(t.services, t.main.workspaceId);
    const res = await open('/v1/files/events');
    assert.equal(res.status, 200);
    const sse = new SseReader(res.body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    await insertMedia(t.services, t.other.workspaceId);
    const fresh = await insertMedia(t.services, t.main.workspaceId);
    const created = await sse.next();
    assert.deepEqual([created?.event, media(created).id, media(created).analysis.status], ['media.updated', fresh.id, 'pending']);
    // Each change is read before the next is made: a stream sends each media in its state when it
    // reads (as a resumed one does), so a pump that reads after both changes sends only the last
    // (seen on PostgreSQL under the suite's load: no second frame within 5 s).
    await store().markAnalysisRunning(before.id);
    const running = await sse.next();
    await store().completeAnalysis(before.id, analysis, []);
    const frames = [running, await sse.next()];
    assert.deepEqual(frames.map((f) => [f?.event, media(f).id]), [['media.updated', before.id], ['media.ready', before.id]]);
    await sse.cancel();

    // Resuming after the first event gives each media changed since, in its latest state.
    const again = new SseReader((await open('/v1/files/events', { 'last-event-id': String(created?.id) })).body as ReadableStream<Uint8Array>);
    assert.equal((await again.next())?.retry, '2000');
    const latest = await again.next();
    assert.deepEqual([latest?.event, media(latest).id, latest?.id], ['media.ready', before.id, frames[1]?.id]);
    await again.cancel();
  });
});
