// Issue 32, finding 6, through the API: the free-space floor (MIN_FREE_DISK_BYTES) was checked
// once, against the announced Content-Length, so a chunked upload (no length) and concurrent
// uploads (each saw the same free space) passed it and filled a small disk (ENOSPC). The media
// directory here sits on a simulated disk of 9 MiB (its free space is 9 MiB less what the data
// directory holds) with a floor of 4 MiB: 5 MiB to use. Nothing refused is left on disk.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readdirSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildTestApp, type TestApp } from './helpers.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import { DiskSpaceGuard } from '../src/files/storage-space.ts';

const MiB = 1024 * 1024;
const CAPACITY = 9 * MiB;
const FLOOR = 4 * MiB;

/** Bytes of the files under `dir`. */
function du(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += statSync(path.join(e.parentPath, e.name)).size;
  return n;
}

describe('the free-space floor counts what uploads write', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await buildTestApp({ MIN_FREE_DISK_BYTES: String(FLOOR), RATE_LIMIT_UPLOAD: '1000', ROLE: 'api' });
    const mediaDir = t.services.config.mediaDir;
    (t.services.files as unknown as { disk: DiskSpaceGuard }).disk = new DiskSpaceGuard(mediaDir, FLOOR, async () => CAPACITY - du(path.join(mediaDir, 'media')) - du(path.join(mediaDir, 'tmp')));
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  const files = (sub: string) => readdirSync(path.join(t.dataDir, sub)).filter((f) => !f.startsWith('.'));

  /** POSTs `payload` chunked (no Content-Length) in 64 KiB pieces a few ms apart. */
  function slowUpload(form: { payload: Buffer; headers: Record<string, string> }): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { ...form.headers, 'service-api-key': t.main.apiKey };
      let answered = false;
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/files', headers, agent: false }, (res) => {
        answered = true;
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      // A refusal before the body is read may close the connection while we still write.
      req.on('error', (err) => setTimeout(() => answered || reject(err), 100));
      let at = 0;
      const next = () => {
        if (req.destroyed || answered) return;
        if (at >= form.payload.length) return req.end();
        req.write(form.payload.subarray(at, at + 64 * 1024));
        at += 64 * 1024;
        setTimeout(next, 2);
      };
      next();
    });
  }

  it('refuses a chunked upload (no Content-Length) while it is written, once it would cross the floor', async () => {
    const res = await slowUpload(fileUpload(wavFile(200), 'long.wav')); // 6.4 MB
    assert.equal(res.status, 507, res.body);
    const json = JSON.parse(res.body) as { error: { code: string; message: string } };
    assert.equal(json.error.code, 'INSUFFICIENT_STORAGE');
    assert.match(json.error.message, /MIN_FREE_DISK_BYTES/);
    assert.deepEqual(files('tmp'), []);
  });

  it('never lets concurrent uploads together cross the floor', async () => {
    // 3.2 MB each, without a length: each fits alone, two do not. (Announced lengths are reserved
    // at admission: storage-space.test.ts.)
    const form = fileUpload(wavFile(100), 'talk.wav');
    const results = await Promise.all([0, 1, 2].map(() => slowUpload(form)));
    const statuses = results.map((r) => r.status);
    assert.ok(statuses.every((s) => s === 201 || s === 507), statuses.join());
    assert.ok(statuses.filter((s) => s === 201).length <= 1, statuses.join());
    assert.equal(files('media').length, statuses.filter((s) => s === 201).length);
    assert.deepEqual(files('tmp'), []);
    assert.ok(du(path.join(t.dataDir, 'media')) <= CAPACITY - FLOOR);
  });
});
