// Finding 8 of issue 20: a request or upload that stalls after a few bytes no longer holds its
// socket (and temp file) for ever: the connection closes after REQUEST_IDLE_TIMEOUT_SEC without a
// byte, and a partial upload's temp file is removed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let port: number;
before(async () => {
  t = await buildTestApp({ REQUEST_IDLE_TIMEOUT_SEC: '1' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
after(async () => t.close());

/** Sends `head` and the first bytes of a body, then nothing; answers how long until the server closed. */
function stall(head: string, firstBytes: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head + firstBytes));
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(performance.now() - started));
    setTimeout(() => {
      socket.destroy();
      reject(new Error('the server kept a stalled request open for 10 s'));
    }, 10_000);
  });
}

describe('stalled requests', () => {
  it('an upload that stalls after a few bytes is closed after the idle timeout and leaves no temp file', async () => {
    const boundary = 'stall';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF\0\0\0\0WAVEfmt `;
    const head = `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nService-Api-Key: ${t.main.apiKey}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n`;
    const ms = await stall(head, body);
    assert.ok(ms >= 900 && ms < 5000, `closed after ${ms.toFixed(0)} ms`);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(readdirSync(path.join(t.dataDir, 'tmp')), []);
  });

  it('a JSON POST that stalls mid-body, and headers that never end, are closed too', async () => {
    const json = `POST /v1/matching/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nService-Api-Key: ${t.main.apiKey}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n`;
    const a = await stall(json, '{"target":');
    assert.ok(a < 5000, `closed after ${a.toFixed(0)} ms`);
    const b = await stall('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n');
    assert.ok(b < 5000, `closed after ${b.toFixed(0)} ms`);
  });
});
