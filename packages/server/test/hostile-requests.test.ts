// Hostile requests of issue 20: a near-1 MB body of thousands of bad group items is answered
// 400 in bounded time with a bounded list of details (finding 4), and an absolute-form request
// line (`GET http://host/v1/...`) goes through authentication like any other (finding 10); a
// HEAD on an event stream ends (found by the fuzzer: it held the connection forever).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000' });
});
after(async () => t.close());

describe('validation cost', () => {
  it('12,000 bad group items in ~1 MB: 400 in bounded time (not 137 s), details capped, /healthz not held up', async () => {
    const group = Array.from({ length: 12_000 }, (_, i) => ({ type: 'media_target', mediaId: `m${i}`, selector: { strategy: 'nope', x: i } }));
    const payload = JSON.stringify({ target: { type: 'entity_id', entityId: 'ent_x' }, group, context: 'behavioral_compatibility' });
    assert.ok(payload.length > 900_000 && payload.length < 1024 * 1024, `${payload.length} bytes`);
    const started = performance.now();
    const [res, health] = await Promise.all([
      call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload, headers: { 'content-type': 'application/json' } }),
      t.app.inject({ method: 'GET', url: '/healthz' }),
    ]);
    const ms = performance.now() - started;
    assert.equal(res.statusCode, 400, res.body.slice(0, 300));
    assert.equal(health.statusCode, 200);
    const body = json<ErrorJson>(res);
    assert.equal(body.error.code, 'VALIDATION_FAILED');
    const details = body.error.details ?? [];
    assert.ok(details.length <= 101, `${details.length} details`);
    assert.ok(details.some((d) => d.path === '/group' && /(at most|more than) 20/.test(d.message)), JSON.stringify(details.slice(0, 5)));
    // 137 s before the fix; 0.37 s alone on the 2-core host, up to 3.4 s with the whole suite running beside it.
    assert.ok(ms < 10_000, `answered in ${ms.toFixed(0)} ms`);
  });
});

/**
 * Sends one raw HTTP/1.1 request and answers the status code and body. `halfClose: false` keeps
 * the client's side open until the server closes (`Connection: close`): Node's HTTP server drops
 * a request whose client ended its side before the answer was ready, which an answer that reads
 * the store asynchronously (PostgreSQL) may not be.
 */
function raw(port: number, request: string, halfClose = true): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => (halfClose ? socket.end(request) : socket.write(request)));
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describe('absolute-form request lines', () => {
  let port: number;
  before(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });

  it('without a key: 401 UNAUTHENTICATED, never a 500 or a stack trace', async () => {
    for (const target of ['http://127.0.0.1/v1/files', 'http://evil.example/v1/workspace/keys', 'http://x/v1/matching/jobs?limit=1']) {
      const r = await raw(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.equal(r.status, 401, `${target}: ${r.status} ${r.body.slice(0, 200)}`);
      assert.doesNotMatch(r.body, /at \w+ \(|node:internal|\.ts:\d+/);
    }
  });

  it('HEAD on an event stream answers its head and ends, instead of holding the connection open', async () => {
    for (const path of ['/v1/events']) {
      const started = performance.now();
      // Not half-closed: on PostgreSQL the key is looked up asynchronously, and Node's server may
      // drop a request whose client half-closed its socket meanwhile (a known Node behaviour,
      // seen once in the full suite under load); Connection: close ends the socket after the head.
      const r = await raw(port, `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nService-Api-Key: ${t.main.apiKey}\r\nConnection: close\r\n\r\n`, false);
      assert.equal(r.status, 200);
      assert.ok(performance.now() - started < 2000, `${path} held ${(performance.now() - started).toFixed(0)} ms`);
    }
  });

  it('with a key: routed and authorised as its path', async () => {
    const r = await raw(port, `GET http://127.0.0.1/v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nService-Api-Key: ${t.main.apiKey}\r\nConnection: close\r\n\r\n`, false);
    assert.equal(r.status, 200, r.body.slice(0, 200));
  });
});
