// The job progress stream of decisions §6 over a real port: `retry: 2000` and the current state
// at once, per-job sequence ids, job.updated / job.failed events carrying the job resource,
// Last-Event-ID resume, and the stream closing after the terminal event.
import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, insertEntity, insertMedia, matchingBody, type TestApp } from './helpers.ts';
import { otherProcessJobs } from './helpers.ts';
import { SseReader } from './sse-reader.ts';

describe('GET /v1/jobs/:id/events', () => {
  let t: TestApp;
  let base: string;
  let mediaId: string;
  let entityId: string;

  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_JOB_STATUS: '10000' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    mediaId = (await insertMedia(t.services, t.main.workspaceId, { kind: 'transcript' })).id;
    entityId = await insertEntity(t.services, t.main.workspaceId);
  });
  after(() => t.close());

  const newJob = async (): Promise<string> => {
    const res = await fetch(`${base}/v1/matching/jobs`, {
      method: 'POST',
      headers: { 'service-api-key': t.main.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(matchingBody(mediaId, entityId)),
    });
    assert.equal(res.status, 202);
    return ((await res.json()) as { jobId: string }).jobId;
  };
  const open = async (jobId: string, headers: Record<string, string> = {}, key = t.main.apiKey) => {
    const res = await fetch(`${base}/v1/jobs/${jobId}/events`, { headers: { 'service-api-key': key, ...headers } });
    return res;
  };

  it('sends retry and the current state at once, then every change, and closes after the terminal event', async () => {
    const jobId = await newJob();
    const res = await open(jobId);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(res.headers.get('x-ratelimit-limit'), 'rate-limit headers on the stream');
    assert.ok(res.headers.get('x-request-id'));
    const sse = new SseReader(res.body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    const current = await sse.next();
    assert.equal(current?.id, '1');
    assert.equal(current?.event, 'job.updated');
    const job = JSON.parse(current?.data ?? '{}') as { id: string; status: string };
    assert.deepEqual([job.id, job.status], [jobId, 'queued']);

    await t.services.stores.jobs.start(jobId);
    const started = await sse.next();
    assert.deepEqual([started?.id, started?.event, (JSON.parse(started?.data ?? '{}') as { status: string }).status], ['2', 'job.updated', 'running']);

    await t.services.stores.jobs.progress(jobId, 'detecting_speech', 0.3);
    const progressed = await sse.next();
    const p = JSON.parse(progressed?.data ?? '{}') as { stage: string; progress: number };
    assert.deepEqual([progressed?.id, p.stage, p.progress], ['3', 'detecting_speech', 0.3]);

    const cancel = await fetch(`${base}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers: { 'service-api-key': t.main.apiKey } });
    assert.equal(cancel.status, 200);
    const failed = await sse.next();
    assert.equal(failed?.id, '4');
    assert.equal(failed?.event, 'job.failed');
    assert.equal((JSON.parse(failed?.data ?? '{}') as { error: { code: string } }).error.code, 'canceled');
    assert.equal(await sse.next(), null, 'the stream closes after the terminal event');
  });

  it('sees changes made by another process (through the store, not this process bus)', async () => {
    const jobId = await newJob();
    const sse = new SseReader((await open(jobId)).body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    assert.equal((await sse.next())?.event, 'job.updated');
    // A second store on the same database stands for a worker process: it publishes nowhere in
    // this process (on PostgreSQL, its own pool: its NOTIFY reaches this process's bus).
    const elsewhere = await otherProcessJobs(t.services.stores);
    await elsewhere.jobs.start(jobId);
    await elsewhere.close();
    const started = await sse.next(3000);
    assert.equal((JSON.parse(started?.data ?? '{}') as { status: string }).status, 'running');
  });

  it('with Last-Event-ID sends only newer events, then closes at the terminal one', async () => {
    const jobId = await newJob();
    await t.services.stores.jobs.start(jobId);
    await fetch(`${base}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers: { 'service-api-key': t.main.apiKey } });
    const sse = new SseReader((await open(jobId, { 'last-event-id': '1' })).body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    const frames = [];
    for (let f = await sse.next(); f; f = await sse.next()) frames.push(f);
    assert.deepEqual(frames.map((f) => [f.id, f.event]), [['2', 'job.updated'], ['3', 'job.failed']]);
  });

  it('a stream resumed after a live gap catches up from the store', async () => {
    const jobId = await newJob();
    const sse = new SseReader((await open(jobId, { 'last-event-id': '1' })).body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    await t.services.stores.jobs.start(jobId);
    assert.equal((await sse.next())?.id, '2');
    await sse.cancel();
  });

  it('a finished job: the terminal state at once, then the stream closes', async () => {
    const jobId = await newJob();
    await fetch(`${base}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers: { 'service-api-key': t.main.apiKey } });
    const sse = new SseReader((await open(jobId)).body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    const current = await sse.next();
    assert.deepEqual([current?.id, current?.event], ['2', 'job.failed']);
    assert.equal(await sse.next(), null);
  });

  it('sends a `: ping` comment every 15 s', async () => {
    const jobId = await newJob();
    // Only setInterval is mocked (the heartbeat's timer); sockets and fetch keep real time.
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      const sse = new SseReader((await open(jobId)).body as ReadableStream<Uint8Array>);
      assert.equal((await sse.next())?.retry, '2000');
      assert.equal((await sse.next())?.id, '1');
      mock.timers.tick(14_999);
      await assert.rejects(sse.next(200), /no SSE frame/, 'no ping before 15 s');
      mock.timers.tick(1);
      assert.equal((await sse.next())?.comment, 'ping');
      mock.timers.tick(15_000);
      assert.equal((await sse.next())?.comment, 'ping');
      await sse.cancel();
    } finally {
      mock.timers.reset();
    }
  });

  it('404 JSON for an unknown job and for another workspace', async () => {
    const jobId = await newJob();
    for (const [id, key] of [['job_doesnotexist000000000000', t.main.apiKey], [jobId, t.other.apiKey]] as const) {
      const res = await open(id, {}, key);
      assert.equal(res.status, 404);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
    }
  });

  it('GET /v1/events streams the workspace events only', async () => {
    const res = await fetch(`${base}/v1/events`, { headers: { 'service-api-key': t.other.apiKey } });
    const sse = new SseReader(res.body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    const otherMedia = (await insertMedia(t.services, t.other.workspaceId, { kind: 'transcript' })).id;
    const otherEntity = await insertEntity(t.services, t.other.workspaceId);
    await newJob(); // main workspace: must not appear
    const own = await fetch(`${base}/v1/matching/jobs`, {
      method: 'POST',
      headers: { 'service-api-key': t.other.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(matchingBody(otherMedia, otherEntity)),
    });
    const ownId = ((await own.json()) as { jobId: string }).jobId;
    const frame = await sse.next();
    assert.equal((JSON.parse(frame?.data ?? '{}') as { id: string }).id, ownId);
    await sse.cancel();
  });
});
