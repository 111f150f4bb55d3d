// Finding 5 of issue 20: revoking a key ends its open event streams, and the streams a key (and a
// workspace) may hold open at once are capped.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, call, json, type ErrorJson, type TestApp } from './helpers.ts';
import { MAX_STREAMS_PER_KEY } from '../src/events/stream-registry.ts';

let t: TestApp;
let port: number;
before(async () => {
  t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
after(async () => t.close());

interface Stream {
  status: number;
  ended: Promise<void>;
  body: () => string;
  destroy: () => void;
}

/** Opens GET /v1/events with `apiKey`; resolves once the head (and, for a 200, the first bytes) arrived. */
function openStream(apiKey: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/v1/events', headers: { 'service-api-key': apiKey }, agent: false }, (res) => {
      let body = '';
      const ended = new Promise<void>((done) => {
        res.on('close', done);
        res.on('end', done);
      });
      const stream: Stream = { status: res.statusCode ?? 0, ended, body: () => body, destroy: () => req.destroy() };
      res.on('data', (d: Buffer) => (body += d.toString()));
      if (res.statusCode === 200) res.once('data', () => resolve(stream));
      else res.once('end', () => resolve(stream));
    });
    req.on('error', reject);
  });
}

async function newKey(): Promise<{ id: string; apiKey: string }> {
  return json<{ id: string; apiKey: string }>(await call(t, t.main, { method: 'POST', url: '/v1/workspace/keys', payload: { scope: 'standard' } }));
}

describe('event streams and keys', () => {
  it('revoking a key ends its open streams at once', async () => {
    const key = await newKey();
    const stream = await openStream(key.apiKey);
    assert.equal(stream.status, 200);
    const started = performance.now();
    assert.equal((await call(t, t.main, { method: 'DELETE', url: `/v1/workspace/keys/${key.id}` })).statusCode, 204);
    await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the revoked key kept its stream for 3 s')), 3000))]);
    assert.ok(performance.now() - started < 3000);
  });

  it(`a key holds at most ${MAX_STREAMS_PER_KEY} open streams; the next is 429 until one closes`, async () => {
    const key = await newKey();
    const streams = await Promise.all(Array.from({ length: MAX_STREAMS_PER_KEY }, () => openStream(key.apiKey)));
    assert.ok(streams.every((s) => s.status === 200));
    const extra = await openStream(key.apiKey);
    assert.equal(extra.status, 429);
    assert.equal((JSON.parse(extra.body()) as ErrorJson).error.code, 'RATE_LIMITED');
    streams[0]?.destroy();
    await streams[0]?.ended;
    await new Promise((r) => setTimeout(r, 100));
    const again = await openStream(key.apiKey);
    assert.equal(again.status, 200);
    for (const s of [...streams, again]) s.destroy();
  });
});
