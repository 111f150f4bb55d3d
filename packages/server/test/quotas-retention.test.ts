// Issue 20, findings 9, 11 and 13, through the API (on both backends: the API suite runs again on
// PostgreSQL): the active-key quota (409 QUOTA_EXCEEDED), the media storage quota and the
// free-space check on uploads (409 QUOTA_EXCEEDED, 507 INSUFFICIENT_STORAGE, nothing left on
// disk), GET /v1/events ids numbered per workspace, a Last-Event-ID older than the retention
// (410 GONE), and a job stream whose events retention removed (its state, then the end).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from './helpers.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import { SseReader } from './sse-reader.ts';
import { RetentionSweeper } from '../src/retention/retention.ts';

const DAY = 24 * 3600 * 1000;
const failed = { type: 'report.failed' as const, data: {}, webhook: undefined };

function upload(t: TestApp, data: Buffer, apiKey = t.main.apiKey) {
  const form = fileUpload(data, 'talk.wav');
  return t.app.inject({ method: 'POST', url: '/v1/files', payload: form.payload, headers: { ...form.headers, 'service-api-key': apiKey } });
}

function tempFiles(t: TestApp): string[] {
  try {
    return readdirSync(path.join(t.dataDir, 'tmp'));
  } catch {
    return [];
  }
}

describe('quotas and retention through the API', () => {
  let t: TestApp;
  let base: string;
  const wav = wavFile(1); // 32,044 bytes
  before(async () => {
    t = await buildTestApp({ ROLE: 'api', MAX_API_KEYS: '3', MEDIA_QUOTA_BYTES: String(wav.length * 2 + 100), RATE_LIMIT_UPLOAD: '1000', RATE_LIMIT_DEFAULT: '100000' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  it('a workspace holds at most MAX_API_KEYS active keys: the next is 409 QUOTA_EXCEEDED until one is revoked', async () => {
    const create = () => call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { scope: 'standard' } });
    const made = [await create(), await create()];
    assert.deepEqual(made.map((r) => r.statusCode), [201, 201], 'the bootstrap key and two more');
    const refused = await create();
    assert.equal(refused.statusCode, 409);
    const body = json<ErrorJson>(refused);
    assert.equal(body.error.code, 'QUOTA_EXCEEDED');
    assert.match(body.error.message, /3 active API keys/);
    assert.ok(body.error.requestId);
    const keyId = json<{ id: string }>(made[0] as NonNullable<(typeof made)[0]>).id;
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/workspace/keys/${keyId}` })).statusCode, 204);
    assert.equal((await create()).statusCode, 201, 'a revoked key frees its place');
    assert.equal((await call(t, t.other, { method: 'POST', url: '/v1/workspace/keys', payload: {} })).statusCode, 201, 'other workspaces count their own');
    await t.services.stores.workspaces.setQuotas(t.main.workspaceId, { apiKeys: 4 });
    assert.equal((await create()).statusCode, 201, "the operator's number for the workspace wins");
    assert.equal((await create()).statusCode, 409);
  });

  it('uploads past the media quota are 409 QUOTA_EXCEEDED, leave nothing on disk, and fit again after a delete', async () => {
    const first = await upload(t, wav);
    assert.equal(first.statusCode, 201, first.body);
    // Recordings of the same length with other bytes (each wavFile call differs): the same bytes
    // again would be the first media, stored once (decisions §18).
    assert.equal((await upload(t, wavFile(1))).statusCode, 201);
    const over = await upload(t, wavFile(1));
    assert.equal(over.statusCode, 409);
    assert.equal(json<ErrorJson>(over).error.code, 'QUOTA_EXCEEDED');
    assert.match(json<ErrorJson>(over).error.message, /quota/);
    assert.deepEqual(tempFiles(t), [], 'no temporary file left');
    assert.equal((await t.services.stores.workspaces.usage(t.main.workspaceId)).mediaBytes, wav.length * 2);
    assert.equal((await upload(t, wav, t.other.apiKey)).statusCode, 201, 'the other workspace has its own quota');
    const id = json<{ id: string }>(first).id;
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/files/${id}` })).statusCode, 204);
    assert.equal((await upload(t, wav)).statusCode, 201, 'a delete gives its bytes back');
    // 100 bytes left at the start, less than the file: the bytes past them are not written, then refused.
    const tooBig = await upload(t, wavFile(2));
    assert.equal(tooBig.statusCode, 409, 'a file larger than what is left is refused after its body');
    assert.deepEqual(tempFiles(t), []);
    const files = json<{ data: unknown[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files' })).data;
    assert.equal(files.length, 2);
  });

  it('GET /v1/events ids count only the workspace\'s own events', async () => {
    const jobs = t.services.stores.jobs;
    // The other workspace is busy first.
    for (let i = 0; i < 5; i++) await jobs.create({ workspaceId: t.other.workspaceId, type: 'report', request: {}, cost: 1 });
    const res = await fetch(`${base}/v1/events`, { headers: { 'service-api-key': t.main.apiKey, 'last-event-id': '0' } });
    assert.equal(res.status, 200);
    const sse = new SseReader(res.body as ReadableStream<Uint8Array>);
    assert.equal((await sse.next())?.retry, '2000');
    const job = await jobs.create({ workspaceId: t.main.workspaceId, type: 'report', request: {}, cost: 1 });
    const frame = await sse.next();
    assert.equal(frame?.id, '1', "the workspace's first event is 1, whatever the other workspace did");
    assert.equal(JSON.parse(frame?.data ?? '{}').id, job.id);
    await sse.cancel();
  });

  it('a Last-Event-ID older than what retention kept is 410 GONE; a job stream of a swept job gives its state and ends', async () => {
    const jobs = t.services.stores.jobs;
    const ws = t.other.workspaceId;
    const old = await jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    await jobs.fail(old.id, { code: 'canceled', message: 'x' }, failed);
    const kept = await jobs.workspaceEventsAfter(ws, 0);
    const lastOld = kept.at(-1)?.id as number;
    await t.sql.run('UPDATE job_events SET created_at = ? WHERE workspace_id = ?', Date.now() - 40 * DAY, ws);
    const sweeper = new RetentionSweeper(t.services.stores.retention, { retentionDays: 30 });
    assert.ok((await sweeper.sweep()).jobEvents >= 2);
    await sweeper.close();
    await jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });

    const gone = await fetch(`${base}/v1/events`, { headers: { 'service-api-key': t.other.apiKey, 'last-event-id': String(lastOld - 1) } });
    assert.equal(gone.status, 410);
    const body = (await gone.json()) as ErrorJson;
    assert.equal(body.error.code, 'GONE');
    assert.match(body.error.message, /RETENTION_DAYS/);
    const fresh = await fetch(`${base}/v1/events`, { headers: { 'service-api-key': t.other.apiKey, 'last-event-id': String(lastOld) } });
    assert.equal(fresh.status, 200, 'resuming from the last removed id misses nothing');
    const sse = new SseReader(fresh.body as ReadableStream<Uint8Array>);
    await sse.next();
    assert.equal((await sse.next())?.id, String(lastOld + 1));
    await sse.cancel();

    const stream = await fetch(`${base}/v1/jobs/${old.id}/events`, { headers: { 'service-api-key': t.other.apiKey, 'last-event-id': '1' } });
    assert.equal(stream.status, 200);
    const js = new SseReader(stream.body as ReadableStream<Uint8Array>);
    await js.next();
    const state = await js.next(3000);
    assert.equal(state?.event, 'job.failed', 'the terminal state, not a stream held open with nothing to say');
    assert.equal(await js.next(3000), null, 'then the end');
  });
});

describe('the free-space check on uploads', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ ROLE: 'api', MIN_FREE_DISK_BYTES: String(Number.MAX_SAFE_INTEGER) });
  });
  after(() => t.close());

  it('refuses an upload with 507 INSUFFICIENT_STORAGE before writing it while the disk has less than MIN_FREE_DISK_BYTES free', async () => {
    const res = await upload(t, wavFile(1));
    assert.equal(res.statusCode, 507);
    const body = json<ErrorJson>(res);
    assert.equal(body.error.code, 'INSUFFICIENT_STORAGE');
    assert.match(body.error.message, /MIN_FREE_DISK_BYTES/);
    assert.deepEqual(tempFiles(t), []);
    assert.equal(json<{ data: unknown[] }>(await call(t, t.main, { method: 'GET', url: '/v1/files' })).data.length, 0);
  });
});
