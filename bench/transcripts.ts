// Transcripts and the API's liveness (issue 32, finding 1): /healthz is probed every 10 ms from a
// worker thread of this process (its own event loop) while large WebVTT transcripts are uploaded
// one after the other, and then a list of 100 media, each with a transcript of 20,000 cues (the
// cap), is timed. The uploads come from a child process (bench/transcript-uploads.ts), as a
// client's would: with BENCH_CLIENT=inprocess they are sent by fetch from this process, whose
// event loop is the service's, as this bench did before 2026-11-28 (building and sending a 15 MiB
// multipart body there held it ~100 ms per upload, which the service's own work was then blamed
// for). Besides the probes, the event loop's delay is sampled in the service's thread
// (monitorEventLoopDelay, 5 ms resolution) during each series.
// `node bench/transcripts.ts` (DATABASE_URL: on PostgreSQL; else the embedded store);
// BENCH_QUICK=1: the uploads at the cue cap only, no list.
// Goals: /healthz p99 < 50 ms during the uploads; the list of 100 in < 100 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { execFile } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../packages/server/src/config.ts';
import { composeService } from '../packages/server/src/compose/compose.ts';
import { randomToken } from '../packages/server/src/ids.ts';
import { vtt } from './transcripts-vtt.ts';

const IN_PROCESS = process.env.BENCH_CLIENT === 'inprocess';
const QUICK = process.env.BENCH_QUICK === '1';

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

/** One upload sent from this process (BENCH_CLIENT=inprocess, and the list's media). */
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

/**
 * `count` uploads of a WebVTT of `cues` cues of `text`, one after the other: the statuses. With
 * `body` (BENCH_CLIENT=inprocess: made before the probes start, as the client process makes its
 * own), that body from this process.
 */
async function uploads(cues: number, text: string, count: number, body?: Buffer): Promise<{ bytes: number; statuses: number[] }> {
  if (body) {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push(await upload(body, 'big.vtt'));
    return { bytes: body.length, statuses };
  }
  const env = { ...process.env, BASE_URL: base, API_KEY: apiKey, CUES: String(cues), TEXT: text, COUNT: String(count) };
  const out = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, [path.join(import.meta.dirname, 'transcript-uploads.ts')], { env, maxBuffer: 1 << 20 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
  return JSON.parse(out) as { bytes: number; statuses: number[] };
}

interface Probed<T> { out: T; p50: number; p99: number; max: number; n: number; delayP99: number; delayMax: number }

async function probed<T>(fn: () => Promise<T>): Promise<Probed<T>> {
  const worker = new Worker(PROBE, { eval: true, workerData: base });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const out = await fn();
  delay.disable();
  const latencies = await new Promise<number[]>((resolve) => {
    worker.once('message', resolve);
    worker.postMessage('stop');
  });
  await worker.terminate();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN).toFixed(1));
  const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
  return { out, p50: at(0.5), p99: at(0.99), max: at(1), n: sorted.length, delayP99: ms(delay.percentile(99)), delayMax: ms(delay.max) };
}

console.log(`${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded store'}; uploads from ${IN_PROCESS ? 'this process (BENCH_CLIENT=inprocess)' : 'a child process'}`);
const series = [
  ['351k cues', 351_000, 'word'], // 15 MiB of 351k cues, as the review's file
  ['95k cues', 95_000, 'word'], // 4 MiB of 95k cues: as many as the byte cap lets in
  ['20k cues', 20_000, 'x'.repeat(160)], // 4 MiB at the cue cap
] as const;
for (const [name, cues, text] of QUICK ? series.slice(2) : series) {
  const body = IN_PROCESS ? vtt(cues, text) : undefined;
  const r = await probed(() => uploads(cues, text, 6, body));
  console.log(`6 uploads of ${name} (${(r.out.bytes / 2 ** 20).toFixed(1)} MiB): statuses ${r.out.statuses.join(',')}; /healthz ${r.n} probes, p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms; event-loop delay p99 ${r.delayP99} ms, max ${r.delayMax} ms`);
}

// 100 media with transcripts at the cap (short cues: 1 MB each) for the list.
if (!QUICK) {
  const stored = await uploads(20_000, 'w', 100);
  if (stored.statuses.some((s) => s !== 201)) throw new Error(`uploads for the list: ${stored.statuses.join(',')}`);
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
}

await service.close();
rmSync(dataDir, { recursive: true, force: true });
if (process.env.DATABASE_URL) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
