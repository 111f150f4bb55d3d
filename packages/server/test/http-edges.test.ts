// Issue 32, findings 9, 10 and 12: a percent-encoded path (`/%761/files`) reached its handler
// without authentication or rate limiting (a 500 with a stack in the log); answers that show
// secrets had no Cache-Control; malformed HTTP (both Content-Length and Transfer-Encoding) was
// answered with fastify's own body. On both backends (the API suite runs again on PostgreSQL).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildTestApp, call, json, msLeftInMinute, sleep, type ErrorJson, type TestApp } from './helpers.ts';

/** Sends raw bytes and answers the whole reply (the server closes the connection). */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(bytes));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('close', () => resolve(out));
    socket.on('error', (err) => (out ? resolve(out) : reject(err)));
    socket.setTimeout(5000, () => socket.destroy());
  });
}

describe('HTTP edges', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_FILES: '4' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('authenticates and rate-limits a percent-encoded /v1 path as the path it decodes to', async () => {
    for (const url of ['/%761/files', '/%76%31/files', '/v%31/files?limit=1']) {
      const anonymous = await t.app.inject({ method: 'GET', url });
      assert.equal(anonymous.statusCode, 401, `${url}: ${anonymous.body}`);
      assert.equal(json<ErrorJson>(anonymous).error.code, 'UNAUTHENTICATED');
    }
    if (msLeftInMinute() < 5000) await sleep(msLeftInMinute() + 50);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(t, t.main, { method: 'GET', url: i % 2 ? '/%761/files' : '/v1/files' })).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429], 'the files class limit (4) counts encoded paths too');
  });

  it('sends Cache-Control: no-store with the answers under /v1, secrets and errors included', async () => {
    const key = await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { name: 'ci' } });
    assert.equal(key.statusCode, 201, key.body);
    assert.equal(key.headers['cache-control'], 'no-store');
    const secret = await call(t, t.main, { method: 'GET', url: '/v1/workspace/signing-secret' });
    assert.equal(secret.statusCode, 200);
    assert.equal(secret.headers['cache-control'], 'no-store');
    const refused = await t.app.inject({ method: 'GET', url: '/v1/workspace' });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.headers['cache-control'], 'no-store');
  });

  it('answers malformed HTTP with the error body and a request id', async () => {
    const reply = await raw(port, 'POST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    const [head = '', body = ''] = reply.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 /);
    const requestId = /^x-request-id: (\S+)$/im.exec(head)?.[1];
    const parsed = JSON.parse(body) as ErrorJson;
    assert.equal(parsed.error.code, 'VALIDATION_FAILED');
    assert.ok(requestId && parsed.error.requestId === requestId, head);
    const bad = await raw(port, 'GET /v1/files HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    assert.match(bad, /^HTTP\/1\.1 400 /);
    assert.equal((JSON.parse(bad.split('\r\n\r\n')[1] ?? '') as ErrorJson).error.code, 'VALIDATION_FAILED');
  });
});
