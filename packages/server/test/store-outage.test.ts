// Issue 32, finding 4: with an event stream open, stopping PostgreSQL ended the service about 16 s
// later: the stream registry's key re-check (every STREAM_RECHECK_SEC) rejected and nothing
// handled it. Here PostgreSQL sits behind a proxy the test cuts: with streams open the process
// must not see an unhandled rejection, the streams end cleanly, /readyz says 503, and once the
// proxy is restored the service is ready again and new streams carry events.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { buildTestApp, call, dropSchema, insertEntity, insertMedia, matchingBody, waitFor, type TestApp } from './helpers.ts';
import { PG_URL, postgresMissing } from './store-backends.ts';
import { SseReader } from './sse-reader.ts';
import { TcpProxy } from './fixtures/tcp-proxy.ts';
import { randomToken } from '../src/ids.ts';

const skip = await postgresMissing();

describe('PostgreSQL goes away with event streams open', { skip: skip ?? false }, () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  const target = new URL(PG_URL);
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const schema = `o_${randomToken(12).toLowerCase()}`;
  let t: TestApp;
  let base: string;

  before(async () => {
    process.on('unhandledRejection', onRejection);
    await proxy.start();
    const url = new URL(PG_URL);
    url.port = String(proxy.port);
    t = await buildTestApp({ DATABASE_URL: url.toString(), DATABASE_SCHEMA: schema, STREAM_RECHECK_SEC: '1', RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_JOB_STATUS: '100000' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await proxy.restore();
    await t.close();
    await proxy.close();
    await dropSchema(schema);
    process.off('unhandledRejection', onRejection);
  });

  const open = async (path: string): Promise<SseReader> => {
    const res = await fetch(`${base}${path}`, { headers: { 'service-api-key': t.main.apiKey } });
    assert.equal(res.status, 200);
    const reader = new SseReader(res.body as ReadableStream<Uint8Array>);
    assert.equal((await reader.next())?.retry, '2000');
    return reader;
  };
  const readyz = async () => (await fetch(`${base}/readyz`)).status;

  it('stays up, ends its streams cleanly, is not ready, and recovers', async () => {
    const mediaId = (await insertMedia(t.services, t.main.workspaceId)).id;
    const entityId = await insertEntity(t.services, t.main.workspaceId);
    const created = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(mediaId, entityId) });
    assert.equal(created.statusCode, 202);
    const jobId = (JSON.parse(created.body) as { jobId: string }).jobId;
    const workspace = await open('/v1/events');
    const job = await open(`/v1/jobs/${jobId}/events`);
    assert.equal((await job.next())?.event, 'job.updated');
    assert.equal(await readyz(), 200);

    await proxy.cut();
    // Every frame until the end is whole, and the end comes (the key cannot be checked again).
    for (const reader of [workspace, job]) {
      for (let frame = await reader.next(10_000); frame !== null; frame = await reader.next(10_000)) assert.ok(frame.comment === 'ping' || frame.id);
    }
    assert.equal(await readyz(), 503);
    // Several re-check periods with the store away: nothing left unhandled.
    await new Promise((r) => setTimeout(r, 2500));
    assert.deepEqual(rejections.map(String), []);

    await proxy.restore();
    await waitFor(async () => (await readyz()) === 200, 20_000, '/readyz 200 again');
    const again = await waitFor(async () => {
      const res = await fetch(`${base}/v1/events`, { headers: { 'service-api-key': t.main.apiKey } });
      if (res.status === 200) return res;
      await res.body?.cancel();
      return null;
    }, 20_000, 'a new stream');
    const reader = new SseReader(again.body as ReadableStream<Uint8Array>);
    assert.equal((await reader.next())?.retry, '2000');
    const cancel = await call(t, t.main, { method: 'POST', url: `/v1/jobs/${jobId}/cancel` });
    assert.ok(cancel.statusCode === 200 || cancel.statusCode === 409, String(cancel.statusCode));
    if (cancel.statusCode === 200) assert.equal((await reader.next(10_000))?.event, 'job.failed');
    await reader.cancel();
    assert.deepEqual(rejections.map(String), []);
  });
});
