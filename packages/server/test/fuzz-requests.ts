// The request fuzzer of fuzz.test.ts (issue 20), shared with bench/fuzz-health.ts: seeded,
// mutated requests over every route of a real listening server on 127.0.0.1 (methods, paths,
// ids, query strings, headers, JSON bodies, multipart bodies and encodings), sent from
// CONCURRENCY connections, and a /healthz probe in a thread of its own (so that its timings are
// the server's, not those of the thread that builds the fuzz requests).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { insertEntity, insertMedia, type TestApp } from './helpers.ts';
import { wavFile } from '../src/files/files.fixtures.testkit.ts';
import { MAX_TRANSCRIPT_CUES } from '../src/files/media-probe.ts';
import { seededRandom } from '@rapport/analysis';

export const CONCURRENCY = 4;
/** A request unanswered after this long is a hang. */
export const TIMEOUT_MS = 5000;

/** Every rate limit and the credits out of the fuzzer's way: buildTestApp's env. */
export const FUZZ_ENV: Record<string, string> = {
  RATE_LIMIT_DEFAULT: '1000000', RATE_LIMIT_UPLOAD: '1000000', RATE_LIMIT_FILES: '1000000', RATE_LIMIT_ENTITIES: '1000000',
  RATE_LIMIT_JOB_STATUS: '1000000', RATE_LIMIT_CREDITS: '1000000', RATE_LIMIT_REPORT_CREATION: '1000000', INITIAL_CREDITS: '1000000',
};

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

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export interface Outcome {
  status: number;
  body: string;
  contentType: string;
  ms: number;
}

/** The listening server and what the fuzzer picks from: its routes, ids of both workspaces, their keys. */
export interface FuzzTarget {
  port: number;
  routes: { method: string; path: string }[];
  ids: string[];
  keys: { main: string; other: string };
}

/** Starts `t` on 127.0.0.1 (port 0), reads its routes from /v1/openapi.json, and writes a media and an entity in each workspace. */
export async function fuzzTarget(t: TestApp): Promise<FuzzTarget> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.server.address() as AddressInfo).port;
  const doc = (await (await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const routes = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p })));
  routes.push({ method: 'GET', path: '/healthz' }, { method: 'GET', path: '/readyz' }, { method: 'GET', path: '/metrics' }, { method: 'GET', path: '/' });
  const media = await insertMedia(t.services, t.main.workspaceId);
  const otherMedia = await insertMedia(t.services, t.other.workspaceId);
  const ids = [media.id, otherMedia.id, await insertEntity(t.services, t.main.workspaceId, 'Ann'), await insertEntity(t.services, t.other.workspaceId)];
  return { port, routes, ids, keys: { main: t.main.apiKey, other: t.other.apiKey } };
}

/** /healthz every 20 ms from a thread of its own until `stop`, which answers every probe's time and every answer that was not 200. */
export function probeHealth(port: number): { stop(): Promise<{ times: number[]; bad: string[] }> } {
  const prober = new Worker(HEALTH_PROBE, { eval: true, workerData: { port } });
  const probed = new Promise<{ times: number[]; bad: string[] }>((resolve) => prober.once('message', resolve));
  return {
    async stop() {
      prober.postMessage('stop');
      const out = await probed;
      await prober.terminate();
      return out;
    },
  };
}

/** The value at fraction `q` (0.99: the 99th percentile) of `xs`, sorted in place; 0 when empty. */
export function percentile(xs: number[], q: number): number {
  xs.sort((a, b) => a - b);
  return xs[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? 0;
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

/** The seeded generator of mutated requests (mulberry32: a failing run is replayed by its seed). */
function requestMaker(seed: number, { routes, ids, keys }: FuzzTarget): () => FuzzRequest {
  const rand = seededRandom(seed);
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
  return (): FuzzRequest => {
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
    if (key < 0.7) headers['service-api-key'] = keys.main;
    else if (key < 0.8) headers['service-api-key'] = keys.other;
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
}

/** Sends `requests` mutated requests of seed `seed` from CONCURRENCY connections; `check` hears each request with its answer (a status of -1: unanswered after TIMEOUT_MS). */
export async function runFuzz(target: FuzzTarget, requests: number, seed: number, check: (req: FuzzRequest, answer: Outcome) => void): Promise<void> {
  const makeRequest = requestMaker(seed, target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests) {
      next++;
      const req = makeRequest();
      check(req, await send(target.port, req, agent));
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
  } finally {
    agent.destroy();
  }
}
