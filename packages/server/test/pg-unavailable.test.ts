// Issue 41, findings 7 and 5: with PostgreSQL refusing connections `/v1` answered 500 INTERNAL
// (decisions §2: 503 UNAVAILABLE for an unreachable store); with a PostgreSQL that hangs
// (connections open, no answer) every `/v1` request and `/readyz` went unanswered until the
// HTTP idle timeout (60 s): the pool had no connect or query timeout. PostgreSQL sits behind a
// proxy the test cuts or holds. PostgreSQL only: the embedded store is in the process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { buildTestApp, dropSchema, waitFor, type ErrorJson, type TestApp } from './helpers.ts';
import { PG_URL, postgresMissing } from './store-backends.ts';
import { TcpProxy } from './fixtures/tcp-proxy.ts';
import { randomToken } from '../src/ids.ts';

const skip = await postgresMissing();

describe('PostgreSQL refuses or stops answering', { skip: skip ?? false }, () => {
  const target = new URL(PG_URL);
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const schema = `u_${randomToken(12).toLowerCase()}`;
  let t: TestApp;
  let base: string;

  before(async () => {
    await proxy.start();
    const url = new URL(PG_URL);
    url.port = String(proxy.port);
    t = await buildTestApp({ DATABASE_URL: url.toString(), DATABASE_SCHEMA: schema, DATABASE_TIMEOUT_SEC: '2', RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_CREDITS: '100000' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await proxy.restore();
    await t.close();
    await proxy.close();
    await dropSchema(schema);
  });

  /** One request with a deadline well past the store's timeout (the HTTP idle timeout is 60 s). */
  const get = async (path: string, key: string | null) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers: key ? { 'service-api-key': key } : {}, signal: AbortSignal.timeout(20_000) });
    const body = await res.text();
    return { status: res.status, body, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
  };
  // A key the authentication cache has not seen, so that the request must read the store.
  const freshKey = async () => (await t.services.workspace.createKey(t.main.workspaceId, 'standard', null)).apiKey;

  const expectUnavailable = async (what: string, keys: string[], maxMs: number) => {
    const answers = await Promise.all([...keys.map((k) => get('/v1/credits', k)), get('/readyz', null)]);
    for (const a of answers) {
      assert.equal(a.status, 503, `${what}: ${a.body}`);
      assert.ok(a.ms < maxMs, `${what}: answered in ${Math.round(a.ms)} ms`);
    }
    for (const a of answers.slice(0, -1)) {
      assert.equal((JSON.parse(a.body) as ErrorJson).error.code, 'UNAVAILABLE', a.body);
      assert.ok(Number(a.retryAfter) > 0, `${what}: Retry-After ${a.retryAfter}`);
    }
    return answers.map((a) => Math.round(a.ms));
  };

  it('answers 503 UNAVAILABLE with Retry-After while PostgreSQL refuses connections, and recovers', async () => {
    const keys = [await freshKey(), await freshKey()];
    assert.equal((await get('/v1/credits', t.main.apiKey)).status, 200);
    await proxy.cut();
    await expectUnavailable('refused', keys, 10_000);
    await proxy.restore();
    await waitFor(async () => (await get('/readyz', null)).status === 200, 20_000, '/readyz 200 again');
    assert.equal((await get('/v1/credits', keys[0] ?? '')).status, 200);
  });

  it('answers 503 UNAVAILABLE within seconds while PostgreSQL hangs, and recovers by itself', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => freshKey()));
    assert.equal((await get('/v1/credits', t.main.apiKey)).status, 200);
    proxy.hang();
    const first = await expectUnavailable('hanging', keys.slice(0, 3), 8_000);
    // Again, once the first wave's connections were given up.
    const again = await expectUnavailable('hanging, again', keys.slice(3), 8_000);
    console.log(`hanging PostgreSQL: answered in ${first.join(', ')} ms, then ${again.join(', ')} ms`);
    await proxy.restore();
    await waitFor(async () => (await get('/readyz', null)).status === 200, 20_000, '/readyz 200 again');
    for (const key of keys) assert.equal((await get('/v1/credits', key)).status, 200);
  });
});
