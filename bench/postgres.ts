// PostgreSQL rows of the bench (issue 21), on the PostgreSQL of TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test), each run in a fresh schema dropped at the end:
//
// 1. Event latency across processes: an API process (ROLE=api, `npm start`'s entry, its own OS
//    process) holds an SSE stream of a job; this process, standing for a worker on another host,
//    writes the job's progress through its own pool; measured from just before each write to
//    the frame's arrival on the stream (commit, NOTIFY, the API process reading the store, the
//    SSE frame). Goal: median under 200 ms. The API process does not poll the store. Measured
//    twice in the same run: by LISTEN/NOTIFY, then with REDIS_URL set (REDIS_URL, default
//    redis://127.0.0.1:6379), where the writer publishes on Redis after its commit.
// 2. Job creations per second through the PostgreSQL job store (one process, 32 at once: one
//    statement each, a turn's creations in one transaction), beside the embedded store's in the
//    same run, as a ratio: the store's share of POST /v1/matching/jobs; and with REDIS_URL set,
//    where job events go by Redis and the creation statements send no NOTIFY.
// 3. POST /v1/matching/jobs through two API processes (ROLE=api, their own OS processes) on one
//    PostgreSQL, each loaded by its own autocannon for CREATE_HTTP_SEC (goal: 3,000/s sustained
//    over 30 s), one workspace; with the CPU each job cost the API processes and PostgreSQL
//    (from /proc), which the machine's other load moves less than the rate. No event stream is
//    open, so no process LISTENs (events/job-event-bus.pg.ts): each listening process would add
//    a wake-up per creation statement.
// 4. The read path on PostgreSQL: GET /v1/matching/:id against a bare fastify route in the same
//    instance, as bench/run.ts measures it on the embedded store (bench/http-load.ts); goal ≥ 0.6.
// 5. Analysis throughput of 2 workers against 1 (ROLE=worker processes with the real engine,
//    WORKER_CONCURRENCY=1 so that a worker runs one analysis at a time) on the same recordings
//    (synthetic two-voice conversations), uploaded through an API process to a fresh schema per
//    run; their tasks are held until every worker is ready (a worker starting up takes about a
//    second of a core, which was counted in the 2-worker time when the second one started beside
//    the first one's analyses), then released at once; from the first analysis running to the
//    last one done. Runs in the order 1, 2, 2, 1 so that a drift of the machine's load weighs on
//    both sides; goal ≥ 1.8×. With the CPU each recording cost (the worker and the analysis
//    processes it ran, from /proc) and the cores one worker keeps busy: a worker that keeps C
//    cores busy leaves 2 workers on K cores at most min(2, K / C) times its rate.
//    ANALYSIS_NICE in this process's environment reaches the workers.
//
// `bench/run.ts` calls benchPostgres(); run this file directly for these rows alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import pg from 'pg';
import { loadConfig } from '../packages/server/src/config.ts';
import { openStores } from '../packages/server/src/compose/open-stores.ts';
import type { Stores } from '../packages/server/src/compose/stores.ts';
import { generateApiKey, generateSigningSecret } from '../packages/server/src/workspace/workspace.store.ts';
import { newId, nowIso, randomToken } from '../packages/server/src/ids.ts';
import type { PgStores } from '../packages/server/src/compose/open-pg-stores.ts';
import { benchRead } from './http-load.ts';
import { conversationWav } from './liveness.ts';
import { descendants } from '../packages/server/src/analysis/process-tree.ts';
import { taskChannel } from '../packages/server/src/queue/task-signal.pg.ts';

const URL_ = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL_ = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUICK = process.env.BENCH_QUICK === '1';
const LATENCY_SAMPLES = QUICK ? 30 : 200;
const CREATE_SEC = QUICK ? 3 : 10;
const CONCURRENCY = 32;
const CREATE_HTTP_SEC = QUICK ? 5 : 30;
const RECORDINGS = QUICK ? 2 : 8;
const RECORDING_SEC = QUICK ? 60 : 300;
const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const MAIN = fileURLToPath(new URL('../packages/server/src/main.ts', import.meta.url));

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

async function dropSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: URL_ });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
}

async function open(env: Record<string, string>): Promise<Stores> {
  return (await openStores(loadConfig({ LOG_LEVEL: 'silent', ...env }), () => undefined)).stores;
}

async function newWorkspace(stores: Stores, apiKey = generateApiKey()): Promise<string> {
  return (await stores.workspaces.createWorkspace({ name: 'bench', apiKey, signingSecret: generateSigningSecret(), initialCredits: 100_000_000 })).workspace.id;
}

/**
 * CPU seconds (user + system) of one process, from /proc (Linux), with `children` those of the
 * children it waited for; 0 when it cannot be read.
 */
function cpuSec(pid: number, children = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL server process on this machine (the bench's database is local). */
function postgresCpuSec(): number {
  let total = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim().startsWith('postgres')) total += cpuSec(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function startApi(env: Record<string, string>, role: 'api' | 'worker' = 'api'): Promise<{ child: ChildProcess; url: string }> {
  // BENCH_NODE_OPTIONS (e.g. --cpu-prof) reaches the API processes, for profiling them.
  const nodeOptions = process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {};
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', ...env, ...nodeOptions, ROLE: role, PORT: '0', LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    // A worker does not listen: its line names no address.
    const m = /listening on (\S*)/.exec(line);
    if (m) return { child, url: m[1] ?? '' };
  }
  throw new Error(`the ${role} process exited before it was ready`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function eventLatency(redis: boolean): Promise<number[]> {
  const schema = `b_${randomToken(12).toLowerCase()}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-pg-'));
  const apiKey = generateApiKey();
  const env = {
    DATABASE_URL: URL_, DATABASE_SCHEMA: schema, DATA_DIR: dataDir, SERVICE_API_KEY: apiKey, SIGNING_SECRET: generateSigningSecret(),
    ...(redis ? { REDIS_URL: REDIS_URL_ } : {}),
  };
  const worker = await open(env);
  const api = await startApi(env);
  try {
    const ws = (await worker.workspaces.authenticate(apiKey))?.workspaceId ?? '';
    const job = await worker.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    await worker.jobs.start(job.id);
    const res = await fetch(`${api.url}/v1/jobs/${job.id}/events`, { headers: { 'service-api-key': apiKey } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const waitFor = async (seq: number) => {
      while (!new RegExp(`^id: ${seq}$`, 'm').test(buffered)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += decoder.decode(value, { stream: true });
      }
      buffered = buffered.slice(buffered.lastIndexOf(`id: ${seq}`));
    };
    await waitFor(2);
    const out: number[] = [];
    for (let i = 1; i <= LATENCY_SAMPLES; i++) {
      const t0 = performance.now();
      const changed = await worker.jobs.progress(job.id, 'scoring', i / (LATENCY_SAMPLES + 1));
      await waitFor(2 + i);
      if (changed) out.push(performance.now() - t0);
    }
    await reader.cancel();
    return out;
  } finally {
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
    await worker.backend.close();
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Job creations per second through a store, CONCURRENCY at once over 8 workspaces, for CREATE_SEC. */
async function creations(stores: Stores): Promise<number> {
  const workspaces = await Promise.all(Array.from({ length: 8 }, () => newWorkspace(stores)));
  let n = 0;
  const until = performance.now() + CREATE_SEC * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async (_, i) => {
    const ws = workspaces[i % workspaces.length] as string;
    while (performance.now() < until) {
      await stores.jobs.create({ workspaceId: ws, type: 'matching', request: { i }, cost: 1 });
      n++;
    }
  }));
  return n / ((performance.now() - started) / 1000);
}

/** Creations per second through the PostgreSQL store, with REDIS_URL (job events by Redis, no NOTIFY), and the embedded store. */
async function createRates(): Promise<{ postgres: number; redis: number; embedded: number }> {
  const schema = `b_${randomToken(12).toLowerCase()}`;
  const redisSchema = `b_${randomToken(12).toLowerCase()}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-pg-'));
  // Each on tables of its own: the second run on the first's tables would write into bigger ones.
  const onPg = await open({ DATABASE_URL: URL_, DATABASE_SCHEMA: schema, DATA_DIR: dataDir });
  const withRedis = await open({ DATABASE_URL: URL_, DATABASE_SCHEMA: redisSchema, DATA_DIR: dataDir, REDIS_URL: REDIS_URL_ });
  const embedded = await open({ DATA_DIR: path.join(dataDir, 'embedded') });
  try {
    return { postgres: await creations(onPg), redis: await creations(withRedis), embedded: await creations(embedded) };
  } finally {
    await onPg.backend.close();
    await withRedis.backend.close();
    await embedded.backend.close();
    await dropSchema(schema);
    await dropSchema(redisSchema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** autocannon against one URL in a child process: requests per second (mean) and 2xx count. */
function autocannon(url: string, seconds: number, headers: Record<string, string>, body: string): Promise<{ rps: number; ok: number; total: number }> {
  const args = [AUTOCANNON, '-j', '-c', '16', '-d', String(seconds), '-m', 'POST', '-b', body, url];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { requests: { average: number; total: number }; '2xx': number };
      resolve({ rps: r.requests.average, ok: r['2xx'], total: r.requests.total });
    });
  });
}

async function httpCreates(): Promise<{ rps: number; ok: number; stored: number; apiCpuUs: number; pgCpuUs: number }> {
  const schema = `b_${randomToken(12).toLowerCase()}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-pg-'));
  const apiKey = generateApiKey();
  const env = { DATABASE_URL: URL_, DATABASE_SCHEMA: schema, DATA_DIR: dataDir, SERVICE_API_KEY: apiKey, SIGNING_SECRET: generateSigningSecret(), RATE_LIMIT_DEFAULT: '100000000' };
  const stores = await open(env);
  const first = await startApi(env);
  const second = await startApi(env);
  try {
    const ws = (await stores.workspaces.authenticate(apiKey))?.workspaceId ?? '';
    await stores.credits.grant(ws, 100_000_000);
    const mediaId = newId('med');
    await stores.media.insert({
      id: mediaId, workspaceId: ws, kind: 'transcript', filename: 'talk.vtt', contentType: 'text/vtt', sizeBytes: 100, sha256: '0'.repeat(64),
      durationSec: 60, label: null, storagePath: path.join(dataDir, 'media', mediaId), transcript: null, analysisStatus: 'pending',
    });
    const entityId = newId('ent');
    await (stores as PgStores).db.run('INSERT INTO entities (id, workspace_id, label, tags_json, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)', entityId, ws, 'Alex', '[]', nowIso());
    const body = JSON.stringify({ context: 'behavioral_compatibility', label: 'bench', target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } }, group: [{ type: 'entity_id', entityId }] });
    const headers = { 'service-api-key': apiKey, 'content-type': 'application/json' };
    // CPU per job, of the API processes and of PostgreSQL: a measure that the machine's other load
    // moves less than the rate does.
    const apiCpu0 = [first, second].reduce((t, a) => t + cpuSec(a.child.pid ?? 0), 0);
    const pgCpu0 = postgresCpuSec();
    const runs = await Promise.all([first, second].map((a) => autocannon(`${a.url}/v1/matching/jobs`, CREATE_HTTP_SEC, headers, body)));
    const apiCpu = [first, second].reduce((t, a) => t + cpuSec(a.child.pid ?? 0), 0) - apiCpu0;
    const pgCpu = postgresCpuSec() - pgCpu0;
    const stored = (await (stores as PgStores).db.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))?.n ?? 0;
    const ok = runs.reduce((t, r) => t + r.ok, 0);
    return { rps: runs.reduce((t, r) => t + r.rps, 0), ok, stored, apiCpuUs: (apiCpu * 1e6) / Math.max(1, ok), pgCpuUs: (pgCpu * 1e6) / Math.max(1, ok) };
  } finally {
    for (const a of [first, second]) {
      a.child.kill('SIGTERM');
      await once(a.child, 'exit');
    }
    await stores.backend.close();
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The read-path bench of bench/run.ts, on PostgreSQL. */
async function readPath(): Promise<Awaited<ReturnType<typeof benchRead>>> {
  const schema = `b_${randomToken(12).toLowerCase()}`;
  try {
    return await benchRead({ DATABASE_URL: URL_, DATABASE_SCHEMA: schema });
  } finally {
    await dropSchema(schema);
  }
}

interface AnalysisRun {
  /** From the first analysis running to the last one done. */
  sec: number;
  /** From the tasks being released (and announced) to the first analysis running. */
  claimSec: number;
  /** CPU seconds of the worker processes, of the analysis processes they ran, of the API process and PostgreSQL. */
  workerCpu: number;
  childCpu: number;
  otherCpu: number;
}

/**
 * `files` analysed by `count` workers. The uploads' tasks are held (run_at in the far future)
 * until every worker is ready, so that no worker starts up (about a second of a core) beside
 * another's analyses inside the measured time; then released together.
 */
async function analysisRun(count: number, files: string[], reuse: number): Promise<AnalysisRun> {
  const schema = `b_${randomToken(12).toLowerCase()}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-pg-'));
  const apiKey = generateApiKey();
  const env = {
    DATABASE_URL: URL_, DATABASE_SCHEMA: schema, DATA_DIR: dataDir, SERVICE_API_KEY: apiKey, SIGNING_SECRET: generateSigningSecret(),
    RATE_LIMIT_DEFAULT: '1000000', RATE_LIMIT_UPLOAD: '1000000', WORKER_CONCURRENCY: '1', ANALYSIS_PROCESS_REUSE: String(reuse), ...(process.env.ANALYSIS_NICE ? { ANALYSIS_NICE: process.env.ANALYSIS_NICE } : {}),
  };
  const api = await startApi(env);
  const workers: ChildProcess[] = [];
  const db = new pg.Client({ connectionString: URL_ });
  await db.connect();
  try {
    for (const [i, file] of files.entries()) {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(file)], { type: 'audio/wav' }), `talk${i}.wav`);
      const res = await fetch(`${api.url}/v1/files`, { method: 'POST', body: form, headers: { 'service-api-key': apiKey } });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    }
    await db.query(`UPDATE ${schema}.tasks SET run_at = $1`, [Number.MAX_SAFE_INTEGER]);
    workers.push(...(await Promise.all(Array.from({ length: count }, () => startApi(env, 'worker')))).map((w) => w.child));
    // Steady state: each worker's analysis process has analysed before (analysis-pool.ts), as in a
    // worker that runs for long (with ANALYSIS_PROCESS_REUSE=1, what the warm-up leaves is unused).
    await warmUp(api.url, apiKey, db, schema, count, files[0] ?? '');
    const workerCpu = () => workers.reduce((t, w) => t + cpuSec(w.pid ?? 0), 0);
    // The analysis processes: those reaped (in their worker's children time) and those alive (kept warm).
    const childCpu = () =>
      workers.reduce((t, w) => t + cpuSec(w.pid ?? 0, true) + descendants(w.pid ?? 0).reduce((u, d) => u + cpuSec(d.pid, true), 0), 0) - workerCpu();
    // PostgreSQL: the server processes of this run's sessions only (named rapport-PID), not the machine's others.
    const otherCpu = async () => {
      const names = [api.child, ...workers].map((c) => `rapport-${c.pid ?? 0}`);
      const backends = (await db.query('SELECT pid FROM pg_stat_activity WHERE application_name = ANY($1)', [names])).rows as { pid: number }[];
      return new Map([[0, cpuSec(api.child.pid ?? 0)], ...backends.map((b): [number, number] => [b.pid, cpuSec(b.pid)])]);
    };
    const cpu0 = { workers: workerCpu(), children: childCpu(), other: await otherCpu() };
    const released = performance.now();
    await db.query(`UPDATE ${schema}.tasks SET run_at = $1`, [Date.now()]);
    await announceTasks(db, schema);
    let first = 0;
    for (;;) {
      const rows = (await db.query(`SELECT analysis_status AS s, COUNT(*)::int AS n FROM ${schema}.media WHERE filename NOT LIKE 'warm-up%' GROUP BY 1`)).rows as { s: string; n: number }[];
      const n = (s: string) => rows.find((r) => r.s === s)?.n ?? 0;
      if (!first && (n('running') > 0 || n('ready') > 0)) first = performance.now();
      if (n('pending') + n('running') === 0) {
        if (n('ready') !== files.length) throw new Error(`analyses ended ${JSON.stringify(rows)}`);
        // The analysis processes were reaped before their media was marked ready: their CPU is in their worker's.
        const sec = (performance.now() - first) / 1000;
        return { sec, claimSec: (first - released) / 1000, workerCpu: workerCpu() - cpu0.workers, childCpu: childCpu() - cpu0.children, otherCpu: [...(await otherCpu())].reduce((t, [pid, c]) => t + c - (cpu0.other.get(pid) ?? 0), 0) };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await db.end();
    for (const c of [...workers, api.child]) await stop(c);
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Tells the workers that tasks are due, as a process that queued them does (queue/task-signal.pg.ts). */
async function announceTasks(db: pg.Client, schema: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [taskChannel(schema), 'bench']);
}

/**
 * Gives each of `count` workers one analysis to run before the measured ones: `count` uploads of
 * the first minute of `file`, released alone. A worker runs one analysis at a time and a cold one
 * takes one: the announcement wakes them all, and each runs one analysis at a time.
 */
async function warmUp(url: string, apiKey: string, db: pg.Client, schema: string, count: number, file: string): Promise<void> {
  const minute = readFileSync(file).subarray(0, 44 + 60 * 16000 * 2);
  minute.writeUInt32LE(minute.length - 8, 4);
  minute.writeUInt32LE(minute.length - 44, 40);
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    minute.writeInt16LE(100 + i, 44);
    form.append('file', new Blob([minute], { type: 'audio/wav' }), `warm-up${i}.wav`);
    const res = await fetch(`${url}/v1/files`, { method: 'POST', body: form, headers: { 'service-api-key': apiKey } });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  }
  await db.query(`UPDATE ${schema}.tasks SET run_at = $1 WHERE ref_id IN (SELECT id FROM ${schema}.media WHERE filename LIKE 'warm-up%')`, [Date.now()]);
  await announceTasks(db, schema);
  for (;;) {
    const left = (await db.query(`SELECT COUNT(*)::int AS n FROM ${schema}.media WHERE filename LIKE 'warm-up%' AND analysis_status <> 'ready'`)).rows as { n: number }[];
    if ((left[0]?.n ?? 1) === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The bench's recordings, each with different bytes (the same audio otherwise), in `dir`. */
function recordings(dir: string): string[] {
  return Array.from({ length: RECORDINGS }, (_, i) => {
    const file = path.join(dir, `talk${i}.wav`);
    conversationWav(file, RECORDING_SEC);
    const wav = readFileSync(file);
    wav.writeInt16LE(i + 1, 44);
    writeFileSync(file, wav);
    return file;
  });
}

interface Scaling {
  one: number;
  two: number;
  runs: string;
  cpu: string;
  cores: number;
}

/** Audio seconds analysed per second by 1 and by 2 workers, runs in the order 1, 2, 2, 1, with their CPU; ANALYSIS_PROCESS_REUSE=`reuse`. */
async function workerScaling(files: string[], reuse: number): Promise<Scaling> {
  const order = QUICK ? [1, 2] : [1, 2, 2, 1];
  const took: (AnalysisRun & { count: number })[] = [];
  for (const count of order) took.push({ count, ...(await analysisRun(count, files, reuse)) });
  const runs = (count: number) => took.filter((t) => t.count === count);
  const mean = (count: number, f: (r: AnalysisRun) => number) => runs(count).reduce((t, r) => t + f(r), 0) / runs(count).length;
  const per = (count: number, f: (r: AnalysisRun) => number) => mean(count, (r) => f(r) / RECORDINGS).toFixed(2);
  const perAnalysis = (count: number) => `${count} worker${count > 1 ? 's' : ''}: ${per(count, (r) => r.childCpu)} + ${per(count, (r) => r.workerCpu)} s (+ ${per(count, (r) => r.otherCpu)} s API and PostgreSQL)`;
  return {
    one: mean(1, (r) => (RECORDINGS * RECORDING_SEC) / r.sec),
    two: mean(2, (r) => (RECORDINGS * RECORDING_SEC) / r.sec),
    runs: took.map((t) => `${t.count}: ${t.sec.toFixed(1)} s`).join(', ') + `; first claim ${Math.max(...took.map((t) => t.claimSec)).toFixed(2)} s after release at most`,
    cpu: `${perAnalysis(1)}; ${perAnalysis(2)}`,
    // Cores one worker keeps busy: with C of them, 2 workers on K cores gain at most K / C.
    cores: mean(1, (r) => (r.childCpu + r.workerCpu + r.otherCpu) / r.sec),
  };
}

export async function benchPostgres(only?: readonly string[]): Promise<Record<string, string>[]> {
  const want = (name: string) => !only || only.length === 0 || only.includes(name);
  const rows: Record<string, string>[] = [];
  if (want('latency')) {
    for (const redis of [false, true]) {
      const latency = await eventLatency(redis);
      const by = redis ? 'Redis pub/sub (REDIS_URL)' : 'LISTEN/NOTIFY';
      rows.push({ measurement: `job progress written by another process → SSE frame on an API process, by ${by} (${latency.length} events)`, median: `${pct(latency, 0.5).toFixed(1)} ms`, p95: `${pct(latency, 0.95).toFixed(1)} ms`, goal: 'median < 200 ms', met: pct(latency, 0.5) < 200 ? 'yes' : 'NO' });
    }
  }
  if (want('store')) {
    const rates = await createRates();
    rows.push(
      { measurement: `job creations/s through the PostgreSQL store (${CONCURRENCY} at once, ${CREATE_SEC} s, one process)`, median: rates.postgres.toFixed(0), p95: '', goal: '(store share of the HTTP row)', met: '' },
      { measurement: 'the same through the embedded store, this run', median: rates.embedded.toFixed(0), p95: '', goal: `ratio PostgreSQL ÷ embedded: ${(rates.postgres / rates.embedded).toFixed(2)}`, met: '' },
      { measurement: 'the same with REDIS_URL (job events by Redis: the writes send no NOTIFY), this run', median: rates.redis.toFixed(0), p95: '', goal: `ratio to LISTEN/NOTIFY: ${(rates.redis / rates.postgres).toFixed(2)}`, met: '' },
    );
  }
  if (want('http')) {
    const http = await httpCreates();
    rows.push(
      { measurement: `POST /v1/matching/jobs through 2 API processes, ${CREATE_HTTP_SEC} s (req/s; 2xx; jobs stored)`, median: http.rps.toFixed(0), p95: `${http.ok}; ${http.stored}`, goal: '≥ 3,000/s', met: http.rps >= 3000 ? 'yes' : 'NO' },
      { measurement: 'the same: CPU per job of the API processes; of PostgreSQL', median: `${http.apiCpuUs.toFixed(0)} µs`, p95: `${http.pgCpuUs.toFixed(0)} µs`, goal: '', met: '' },
    );
  }
  if (want('read')) {
    const read = await readPath();
    const ratio = read.matching.rps / read.bare.rps;
    rows.push(
      { measurement: 'bare fastify route, same JSON text from memory (same instance, PostgreSQL backend), req/s', median: read.bare.rps.toFixed(0), p95: `${read.bare.p99Ms} ms p99`, goal: '', met: '' },
      { measurement: 'GET /v1/matching/:id on PostgreSQL (key, rate limit, store), req/s', median: read.matching.rps.toFixed(0), p95: `${read.matching.p99Ms} ms p99`, goal: '', met: '' },
      { measurement: 'GET /v1/matching/:id on PostgreSQL ÷ bare route (same document)', median: ratio.toFixed(2), p95: '', goal: '≥ 0.6', met: ratio >= 0.6 ? 'yes' : 'NO' },
    );
  }
  if (want('workers')) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-rec-'));
    try {
      const files = recordings(dir);
      const w = await workerScaling(files, 20);
      const fresh = await workerScaling(files, 1);
      rows.push(
        { measurement: `analysis, 1 worker: audio s per s (${RECORDINGS} recordings of ${RECORDING_SEC} s, warm analysis processes; ${w.runs})`, median: w.one.toFixed(1), p95: '', goal: '', met: '' },
        { measurement: 'analysis, 2 workers: audio s per s, same recordings', median: w.two.toFixed(1), p95: '', goal: `ratio 2 ÷ 1: ${(w.two / w.one).toFixed(2)}`, met: w.two / w.one >= 1.8 ? 'yes' : 'NO' },
        { measurement: `analysis: CPU per recording, analysis process + worker (${w.cpu})`, median: '', p95: '', goal: '', met: '' },
        { measurement: `analysis: cores one worker keeps busy (all its processes, API, PostgreSQL); ratio ${os.cpus().length} cores allow`, median: w.cores.toFixed(2), p95: '', goal: `≤ ${Math.min(2, os.cpus().length / w.cores).toFixed(2)}`, met: '' },
        { measurement: `the same with a fresh analysis process for each (ANALYSIS_PROCESS_REUSE=1): 1 worker; 2 workers (${fresh.runs}; CPU ${fresh.cpu}; one worker keeps ${fresh.cores.toFixed(2)} cores busy)`, median: fresh.one.toFixed(1), p95: fresh.two.toFixed(1), goal: `ratio 2 ÷ 1: ${(fresh.two / fresh.one).toFixed(2)}`, met: '' },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

// `node bench/postgres.ts [latency] [store] [http] [read] [workers]`: the rows named, or all of them.
if (process.argv[1] === fileURLToPath(import.meta.url)) console.table(await benchPostgres(process.argv.slice(2)));
