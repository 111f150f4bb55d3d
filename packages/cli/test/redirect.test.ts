// `rapport` behind a base URL that redirects elsewhere (a misconfigured proxy, a taken-over host):
// the key must not follow the redirect (fetch would keep `Service-Api-Key` across origins).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/rapport.js', import.meta.url));

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; close(): void }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test('rapport credits refuses a redirect to another origin and sends the key nowhere else (exit 1)', async () => {
  const seen: (string | undefined)[] = [];
  const other = await listen((req, res) => {
    seen.push(req.headers['service-api-key'] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"balance":1,"reserved":0,"available":1,"updatedAt":"2026-12-01T00:00:00.000Z"}');
  });
  const otherOrigin = other.url.replace('127.0.0.1', 'localhost');
  const base = await listen((req, res) => {
    res.writeHead(307, { location: `${otherOrigin}${req.url ?? '/'}` });
    res.end();
  });
  try {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, 'credits', '--base-url', base.url, '--api-key', 'rk_secret'], { env: { PATH: process.env.PATH ?? '' }, timeout: 60_000 }, (err, _stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr });
      });
    });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /Refused a 307 redirect .* to http:\/\/localhost:/);
    assert.deepEqual(seen, [], 'the other origin got no request');
  } finally {
    base.close();
    other.close();
  }
});
