// The build: what the first page costs (the goal is under 250 KB gzipped), and the service's
// dashboard routes serving it (gzipped when accepted), refusing anything else, and saying so
// when the dashboard was never built.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { registerDashboardRoutes } from '../../server/src/dashboard/dashboard.routes.ts';
import { buildDashboard } from '../src/build.ts';
import type { BuildReport } from '../src/build.ts';

let dir: string;
let report: BuildReport;
const apps: FastifyInstance[] = [];

function app(from: string): FastifyInstance {
  const a = Fastify();
  a.setErrorHandler((err: Error & { status?: number; code?: string }, _req, reply) => reply.code(err.status ?? 500).send({ error: { code: err.code } }));
  registerDashboardRoutes(a, from);
  apps.push(a);
  return a;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rapport-dashboard-'));
  report = await buildDashboard(dir);
});
after(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('the dashboard build', () => {
  it('keeps the first page under 250 KB gzipped', () => {
    console.log(`first page: ${report.files.map((f) => `${f.name} ${f.bytes} B (${f.gzipBytes} B gzipped)`).join(', ')}; total ${report.firstPageGzipBytes} B gzipped`);
    assert.ok(report.firstPageGzipBytes < 250 * 1024, `${report.firstPageGzipBytes} B`);
    assert.ok(report.files.find((f) => f.name === 'app.js')!.bytes > 10_000, 'the bundle holds the app');
  });

  it('is served at / and /assets, gzipped when the browser accepts it', async () => {
    const a = app(dir);
    const page = await a.inject({ url: '/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<script type="module" src="\/assets\/app.js">/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    const js = await a.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(js.statusCode, 200);
    assert.equal(js.headers['content-encoding'], 'gzip');
    assert.match(String(js.headers['content-type']), /^text\/javascript/);
    const plain = await a.inject({ url: '/assets/app.js' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gunzipSync(js.rawPayload).toString(), plain.body);
  });

  it('serves its icon at the path the page names and at /favicon.ico (no 404 in the console on each load)', async () => {
    const a = app(dir);
    const page = await a.inject({ url: '/' });
    assert.match(page.body, /<link rel="icon" href="\/assets\/favicon.svg"/);
    for (const url of ['/assets/favicon.svg', '/favicon.ico']) {
      const res = await a.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^image\/svg\+xml/);
      assert.match(res.body, /^<svg /);
    }
  });

  it('serves nothing but its own assets', async () => {
    const a = app(dir);
    for (const url of ['/assets/index.html', '/assets/app.js.gz', '/assets/..%2Fpackage.json', '/assets/nope.js']) {
      const res = await a.inject({ url });
      assert.equal(res.statusCode, 404, url);
    }
  });

  it('answers 503 with the way out when the dashboard was never built', async () => {
    const res = await app(join(dir, 'missing')).inject({ url: '/' });
    assert.equal(res.statusCode, 503);
    assert.equal(JSON.parse(res.body).error.code, 'UNAVAILABLE');
  });
});
