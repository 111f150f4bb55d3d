// A seeded, bounded request fuzzer over every route (issue 20), against a real listening server
// on 127.0.0.1 only. Mutates methods, paths, ids, query strings, headers, JSON bodies, multipart
// bodies and encodings. Holds: zero 5xx answers, no stack trace in any body, every answer is the
// documented error body or a success, nothing hangs, and /healthz answers within
// FUZZ_HEALTH_P99_MS at the 99th percentile throughout. FUZZ_REQUESTS (default 2,000, to keep the
// suite short; 10,000 were run, see docs/security.md), FUZZ_SEED (default 20) and
// FUZZ_HEALTH_P99_MS change the run. The latter defaults to 400 ms because the suite runs two test
// files at once on two cores: the same 2,000 requests alone gave p99 32-81 ms, beside other tests
// 128-201 ms; the 100 ms is checked with FUZZ_HEALTH_P99_MS=100 on a run of its own.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { buildTestApp, insertEntity, insertMedia, type TestApp } from './helpers.ts';
import { wavFile } from '../src/files/files.fixtures.testkit.ts';
import { MAX_TRANSCRIPT_CUES } from '../src/files/media-probe.ts';
import { seededRandom } from '@rapport/analysis';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20);
const HEALTH_P99_MS = Number(process.env.FUZZ_HEALTH_P99_MS ?? 400);
const CONCURRENCY = 4;
const TIMEOUT_MS = 5000;

const HEALTH_PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [], bad = [];
let running = true;
parentPort.on('message', () => { running = false; });
(async () => {
  while (running) {
    const started = performance.now();
    const status = await new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: workerData.port, path: '/healthz', agent }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
      req.setTimeout(5000, () => { req.destroy(); resolve(-1); });
      req.on('error', () => resolve(-2));
    });
    times.push(performance.now() - started);
    if (status !== 200) bad.push('/healthz answered ' + status);
    await new Promise((r) => setTimeout(r, 20));
  }
  agent.destroy();
  parentPort.postMessage({ times, bad });
})();
`;


interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

interface Outcome {
  status: number;
  body: string;
  contentType: string;
  ms: number;
}

function send(port: number, r: FuzzRequest, agent: http.Agent): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (): void => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), contentType: String(res.headers['content-type'] ?? ''), ms: performance.now() - started });
      // Event streams never end by themselves: their first bytes are the answer.
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        res.once('data', () => {
          req.destroy();
          done();
        });
        res.once('end', done); // a HEAD request's stream ends with its head
        return;
      }
      res.on('data', (d: Buffer) => {
        size += d.length;
        if (size < 64 * 1024) chunks.push(d);
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.setTimeout(TIMEOUT_MS, () => {
      req.destroy();
      resolve({ status: -1, body: 'timeout', contentType: '', ms: performance.now() - started });
    });
    req.on('error', (err) => resolve({ status: -2, body: err.message, contentType: '', ms: performance.now() - started }));
    req.end(r.body ?? undefined);
  });
}

describe('request fuzzer', () => {
  let t: TestApp;
  let port: number;
  let routes: { method: string; path: string }[];
  let ids: string[];

  before(async () => {
    t = await buildTestApp({
      RATE_LIMIT_DEFAULT: '1000000', RATE_LIMIT_UPLOAD: '1000000', RATE_LIMIT_FILES: '1000000', RATE_LIMIT_ENTITIES: '1000000',
      RATE_LIMIT_JOB_STATUS: '1000000', RATE_LIMIT_CREDITS: '1000000', RATE_LIMIT_REPORT_CREATION: '1000000', INITIAL_CREDITS: '1000000',
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    const doc = (await (await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    routes = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })));
    routes.push({ method: 'GET', path: '/healthz' }, { method: 'GET', path: '/readyz' }, { method: 'GET', path: '/metrics' }, { method: 'GET', path: '/' });
    const media = await insertMedia(t.services, t.main.workspaceId);
    const otherMedia = await insertMedia(t.services, t.other.workspaceId);
    ids = [media.id, otherMedia.id, await insertEntity(t.services, t.main.workspaceId, 'Ann'), await insertEntity(t.services, t.other.workspaceId)];
  });
  after(async () => t.close());

  // Bounded in time too: a hang the per-request timeout missed fails instead of stalling the suite.
  it(`${REQUESTS} mutated requests (seed ${SEED}): no 5xx, no stack trace, no hang, /healthz p99 under ${HEALTH_P99_MS} ms`, { timeout: 120_000 + REQUESTS * 50 }, async () => {
    const rand = seededRandom(SEED); // mulberry32: a failing run is replayed by its seed
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const junk = (n: number): string => Array.from({ length: n }, () => String.fromCharCode(Math.floor(rand() * 0x2500))).join('');
    const randomJson = (depth: number): unknown => {
      const k = rand();
      if (depth > 3 || k < 0.3) return pick([null, true, 0, -1, 1e308, 1.5, '', 'x'.repeat(Math.floor(rand() * 300)), junk(8), '../../etc/passwd', pick(ids)]);
      if (k < 0.6) return Array.from({ length: Math.floor(rand() * 5) }, () => randomJson(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(rand() * 5) }, () => [pick(['type', 'mediaId', 'entityId', 'selector', 'strategy', 'group', 'target', 'context', 'label', 'tags', 'url', 'webhook', 'into', 'from', junk(3)]), randomJson(depth + 1)]));
    };
    const validish = (): unknown => ({
      target: pick([{ type: 'media_target', mediaId: pick(ids), selector: { strategy: pick(['dominant', 'speaker_index', 'magic_hint', 'timerange', 'nope']), speaker_index: pick([0, -1, 99, 'a']) } }, { type: 'entity_id', entityId: pick(ids) }, randomJson(1)]),
      group: pick([[{ type: 'entity_id', entityId: pick(ids) }], [], randomJson(1), Array.from({ length: 25 }, () => ({ type: 'entity_id', entityId: pick(ids) }))]),
      context: pick(['behavioral_compatibility', 'x', 1]),
      ...(rand() < 0.3 ? { webhook: { url: pick(['https://hooks.example.com/a', 'http://127.0.0.1/x', 'notaurl', 'http://[::1]/']) } } : {}),
    });
    // A transcript one cue over the cap (413), sent now and then (issue 32, finding 1).
    const hugeVtt = Buffer.from(['WEBVTT', '', ...Array.from({ length: MAX_TRANSCRIPT_CUES + 1 }, (_, i) => `${new Date(i * 1000).toISOString().slice(11, 23)} --> ${new Date(i * 1000 + 800).toISOString().slice(11, 23)}\n<v S${i % 3}>w\n`)].join('\n'));
    const multipartBody = (): { body: Buffer; type: string } => {
      const boundary = `fz${Math.floor(rand() * 1e9)}`;
      const parts: Buffer[] = [];
      for (let i = 0; i < Math.floor(rand() * 4); i++) {
        const name = pick(['file', 'file', 'label', 'mediaId', junk(2)]);
        const data = rand() < 0.01 ? hugeVtt : pick([wavFile(0.2), Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\n<v A>hi\n'), Buffer.from(junk(200)), Buffer.alloc(0), Buffer.from('RIFF\0\0\0\0WAVE'), Buffer.from('ID3\x04\0\0\0\0\0\0#EXTM3U\n/etc/passwd\n', 'latin1')]);
        const filename = name === 'file' ? `; filename="${pick(['a.wav', '', '../../x', junk(5)])}"` : '';
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename}\r\n\r\n`), data, Buffer.from('\r\n'));
      }
      if (rand() < 0.8) parts.push(Buffer.from(`--${boundary}--\r\n`));
      return { body: Buffer.concat(parts), type: pick([`multipart/form-data; boundary=${boundary}`, 'multipart/form-data', `multipart/mixed; boundary=${boundary}`]) };
    };
    const makeRequest = (): FuzzRequest => {
      const route = pick(routes);
      const method = rand() < 0.85 ? route.method : pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE']);
      let path = route.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(pick([...ids, ...ids, 'med_x', '', 'x'.repeat(300), junk(4), '..', '%00', 'evt_1'])));
      if (rand() < 0.1) path = path.replace(/\/[^/]*$/, `/${pick(['%ZZ', '%00', '..%2F..', '%E2%82', 'a;b'])}`);
      if (rand() < 0.2) path += `?${pick(['limit=0', 'limit=101', 'limit=abc', 'cursor=zzz', 'cursor=' + 'a'.repeat(500), 'format=rttm', 'format=xml', 'tag=' + encodeURIComponent(junk(3)), 'q=%', 'limit=5&limit=6'])}`;
      // A letter or digit of the path percent-encoded (`/%761/files`): routed, authenticated and
      // limited as the path it decodes to (issue 32, finding 9).
      if (rand() < 0.05) path = path.replace(/[a-z0-9]/g, (c) => (rand() < 0.3 ? `%${c.charCodeAt(0).toString(16)}` : c));
      if (rand() < 0.03) path = `http://127.0.0.1${path}`;
      const headers: Record<string, string> = {};
      const key = rand();
      if (key < 0.7) headers['service-api-key'] = t.main.apiKey;
      else if (key < 0.8) headers['service-api-key'] = t.other.apiKey;
      else if (key < 0.9) headers['service-api-key'] = pick(['rk_' + 'a'.repeat(40), '', 'x'.repeat(600), 'rk_\u00e9']).replace(/[^\x20-\x7e]/g, '?');
      if (rand() < 0.2) headers['idempotency-key'] = pick(['k1', 'k2', 'x'.repeat(300), String(Math.floor(rand() * 5))]);
      if (rand() < 0.1) headers['last-event-id'] = pick(['0', '-1', 'abc', '99999999999999999999']);
      let body: Buffer | null = null;
      if (method !== 'GET' && method !== 'HEAD' && rand() < 0.9) {
        const kind = rand();
        if (route.path === '/v1/files' && kind < 0.6) {
          const m = multipartBody();
          body = m.body;
          headers['content-type'] = m.type;
        } else {
          const value = kind < 0.5 ? validish() : randomJson(0);
          body = kind < 0.9 ? Buffer.from(JSON.stringify(value)) : Buffer.from(pick(['{', '{"a":', '[]]', '\u0000', '{"a":1}'.repeat(3), '{' .repeat(5000) + '}'.repeat(5000)]));
          headers['content-type'] = pick(['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'text/plain', 'application/x-www-form-urlencoded', 'application/json']);
        }
        if (rand() < 0.05) {
          headers['content-encoding'] = pick(['gzip', 'br', 'identity', 'x']);
          if (headers['content-encoding'] === 'gzip' && rand() < 0.5) body = gzipSync(body);
        }
        headers['content-length'] = String(body.length);
      }
      return { method, path, headers, body };
    };

    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    // /healthz is probed from its own thread, so that its timings are the server's, not this
    // thread's (which also builds the fuzz requests).
    const prober = new Worker(HEALTH_PROBE, { eval: true, workerData: { port } });
    const probed = new Promise<{ times: number[]; bad: string[] }>((resolve) => prober.once('message', resolve));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < REQUESTS) {
        next++;
        const req = makeRequest();
        const r = await send(port, req, agent);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        const what = `${req.method} ${req.path.slice(0, 120)}`;
        if (r.status >= 500 || r.status < 0) failures.push(`${what}: ${r.status} ${r.body.slice(0, 200)}`);
        // No /v1 route but the OpenAPI document answers 2xx without a valid key, however its path is spelled.
        const key = req.headers['service-api-key'];
        const decoded = (() => {
          try {
            return decodeURIComponent(req.path.replace(/^http:\/\/[^/]+/, '').split('?')[0] ?? '');
          } catch {
            return '';
          }
        })();
        if (r.status < 300 && decoded.startsWith('/v1/') && decoded !== '/v1/openapi.json' && key !== t.main.apiKey && key !== t.other.apiKey) failures.push(`${what}: ${r.status} without a valid key`);
        if (/\bat [\w.<>]+ \(|node:internal|\.ts:\d+:\d+/.test(r.body)) failures.push(`${what}: stack trace in the body`);
        if (r.status >= 400 && req.method !== 'HEAD' && r.contentType.startsWith('application/json')) {
          const parsed = JSON.parse(r.body) as { error?: { code?: string; requestId?: string } };
          if (!parsed.error?.code || !parsed.error.requestId) failures.push(`${what}: ${r.status} without the error body`);
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
    prober.postMessage('stop');
    const { times: health, bad } = await probed;
    await prober.terminate();
    failures.push(...bad);
    agent.destroy();
    health.sort((a, b) => a - b);
    const p99 = health[Math.floor(health.length * 0.99)] ?? 0;
    const summary = `${REQUESTS} requests in ${((performance.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; /healthz ${health.length} probes, p99 ${p99.toFixed(1)} ms, max ${(health.at(-1) ?? 0).toFixed(1)} ms`;
    console.log(summary);
    assert.deepEqual(failures.slice(0, 20), [], summary);
    assert.ok(p99 < HEALTH_P99_MS, summary);
  });
});
