// Transcripts and the API's liveness (issue 32, finding 1): /healthz is probed every 10 ms from a
// worker thread of this process (its own event loop) while large WebVTT transcripts are uploaded
// one after the other, and then a list of 100 media, each with a transcript of 20,000 cues (the
// cap), is timed. `node bench/transcripts.ts` (DATABASE_URL: on PostgreSQL; else the embedded
// store). Goals: /healthz p99 < 50 ms during the uploads; the list of 100 in < 100 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../packages/server/src/config.ts';
import { composeService } from '../packages/server/src/compose/compose.ts';
import { randomToken } from '../packages/server/src/ids.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-transcripts-'));
const apiKey = `rk_${randomToken(40)}`;
const schema = `b_${randomToken(10).toLowerCase()}`;
const config = loadConfig({
  DATA_DIR: dataDir, LOG_LEVEL: 'silent', ROLE: 'api', SERVICE_API_KEY: apiKey, SIGNING_SECRET: `whsec_${randomToken(32)}`,
  RATE_LIMIT_UPLOAD: '100000', RATE_LIMIT_FILES: '100000', MIN_FREE_DISK_BYTES: '0', HOST: '127.0.0.1', PORT: '0',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
});
const service = await composeService(config, { engine: null, logger: false });
await service.services.workspace.bootstrap({ serviceApiKey: apiKey, signingSecret: config.signingSecret ?? `whsec_${randomToken(32)}` });
await service.app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`;

/** A WebVTT of `cues` cues, each with `words` of text, two speakers taking turns. */
function vtt(cues: number, text = 'w'): Buffer {
  const ts = (s: number) => new Date(s * 1000).toISOString().slice(11, 23);
  const parts = ['WEBVTT\n\n'];
  for (let i = 0; i < cues; i++) parts.push(`${ts(i * 0.04)} --> ${ts(i * 0.04 + 0.03)}\n<v ${i % 2 ? 'Bob' : 'Alice'}>${text}\n\n`);
  return Buffer.from(parts.join(''));
}

async function upload(body: Buffer, name: string): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(body)]), name);
  const res = await fetch(`${base}/v1/files`, { method: 'POST', body: form, headers: { 'service-api-key': apiKey } });
  await res.arrayBuffer();
  return res.status;
}

const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const latencies = [];
let stop = false;
parentPort.on('message', () => { stop = true; });
function probe() {
  if (stop) return parentPort.postMessage(latencies);
  const start = performance.now();
  http.get(workerData + '/healthz', { agent }, (res) => { res.resume(); res.on('end', () => { latencies.push(performance.now() - start); setTimeout(probe, 10); }); });
}
probe();`;

async function probed<T>(fn: () => Promise<T>): Promise<{ out: T; p50: number; p99: number; max: number; n: number }> {
  const worker = new Worker(PROBE, { eval: true, workerData: base });
  const out = await fn();
  const latencies = await new Promise<number[]>((resolve) => {
    worker.once('message', resolve);
    worker.postMessage('stop');
  });
  await worker.terminate();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN).toFixed(1));
  return { out, p50: at(0.5), p99: at(0.99), max: at(1), n: sorted.length };
}

const review = vtt(351_000, 'word'); // 15 MiB of 351k cues, as the review's file
const hostile = vtt(95_000, 'word'); // 4 MiB of 95k cues: as many as the byte cap lets in
const atCap = vtt(20_000, 'x'.repeat(160)); // 4 MiB at the cue cap
for (const [name, body] of [['351k cues', review], ['95k cues', hostile], ['20k cues', atCap]] as const) {
  const r = await probed(async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await upload(body, 'big.vtt'));
    return statuses;
  });
  console.log(`6 uploads of ${name} (${(body.length / 2 ** 20).toFixed(1)} MiB): statuses ${r.out.join(',')}; /healthz ${r.n} probes, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms`);
}

// 100 media with transcripts at the cap (short cues: 1 MB each) for the list.
const listed = vtt(20_000);
let stored = 0;
while (stored < 100) if ((await upload(listed, 'cap.vtt')) === 201) stored++;
const times: number[] = [];
for (let i = 0; i < 10; i++) {
  const start = performance.now();
  const res = await fetch(`${base}/v1/files?limit=100`, { headers: { 'service-api-key': apiKey } });
  const body = (await res.json()) as { data: unknown[] };
  times.push(performance.now() - start);
  if (body.data.length !== 100) throw new Error(`listed ${body.data.length}`);
}
times.sort((a, b) => a - b);
const list = await probed(async () => {
  for (let i = 0; i < 5; i++) await (await fetch(`${base}/v1/files?limit=100`, { headers: { 'service-api-key': apiKey } })).arrayBuffer();
});
console.log(`GET /v1/files?limit=100 of 100 media with 20k-cue transcripts: median ${times[5]?.toFixed(1)} ms, max ${times[9]?.toFixed(1)} ms; /healthz meanwhile p99 ${list.p99} ms, max ${list.max} ms`);

await service.close();
rmSync(dataDir, { recursive: true, force: true });
if (process.env.DATABASE_URL) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
