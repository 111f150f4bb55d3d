// PostgreSQL rows of the bench (issue 21), on the PostgreSQL of TEST_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test), each run in a fresh schema dropped at the end:
//
// 1. Event latency across processes: an API process (ROLE=api, `npm start`'s entry, its own OS
//    process) holds an SSE stream of a job; this process, standing for a worker on another host,
//    writes the job's progress through its own pool; measured from just before each write to
//    the frame's arrival on the stream (commit, NOTIFY, the API process reading the store, the
//    SSE frame). Goal: median under 200 ms. The API process does not poll the store.
// 2. Job creations per second through the PostgreSQL job store (one process, 32 at once, each
//    its own transaction: row, reservation, first event, task), beside the embedded store's
//    in the same run, as a ratio. This is the store's share of POST /v1/matching/jobs; the
//    issue's HTTP row through two API processes is not measured yet.
//
// `bench/run.ts` calls benchPostgres(); run this file directly for these rows alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../packages/server/src/config.ts';
import { openBackend, type Stores } from '../packages/server/src/store/backends.ts';
import { generateApiKey, generateSigningSecret } from '../packages/server/src/workspace/workspace.store.ts';
import { randomToken } from '../packages/server/src/ids.ts';

const URL_ = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUICK = process.env.BENCH_QUICK === '1';
const LATENCY_SAMPLES = QUICK ? 30 : 200;
const CREATE_SEC = QUICK ? 3 : 10;
const CONCURRENCY = 32;
const MAIN = fileURLToPath(new URL('../packages/server/src/main.ts', import.meta.url));

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

async function dropSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: URL_ });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
}

async function open(env: Record<string, string>): Promise<Stores> {
  return (await openBackend(loadConfig({ LOG_LEVEL: 'silent', ...env }), () => undefined)).stores;
}

async function newWorkspace(stores: Stores, apiKey = generateApiKey()): Promise<string> {
  return (await stores.workspaces.createWorkspace({ name: 'bench', apiKey, signingSecret: generateSigningSecret(), initialCredits: 100_000_000 })).workspace.id;
}

async function startApi(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', ...env, ROLE: 'api', PORT: '0', LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const m = /listening on (\S+)/.exec(line);
    if (m?.[1]) return { child, url: m[1] };
  }
  throw new Error('the API process exited before listening');
}

async function eventLatency(): Promise<number[]> {
  const schema = `b_${randomToken(12).toLowerCase()}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-pg-'));
  const apiKey = generateApiKey();
  const env = { DATABASE_URL: URL_, DATABASE_SCHEMA: schema, DATA_DIR: dataDir, SERVICE_API_KEY: apiKey, SIGNING_SECRET: generateSigningSecret() };
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

async function createRates(): Promise<{ postgres: number; embedded: number }> {
  const schema = `b_${randomToken(12).toLowerCase()}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rapport-bench-pg-'));
  const onPg = await open({ DATABASE_URL: URL_, DATABASE_SCHEMA: schema, DATA_DIR: dataDir });
  const embedded = await open({ DATA_DIR: path.join(dataDir, 'embedded') });
  try {
    return { postgres: await creations(onPg), embedded: await creations(embedded) };
  } finally {
    await onPg.backend.close();
    await embedded.backend.close();
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchPostgres(): Promise<Record<string, string>[]> {
  const latency = await eventLatency();
  const rates = await createRates();
  return [
    { measurement: `job progress written by another process → SSE frame on an API process (${latency.length} events)`, median: `${pct(latency, 0.5).toFixed(1)} ms`, p95: `${pct(latency, 0.95).toFixed(1)} ms`, goal: 'median < 200 ms', met: pct(latency, 0.5) < 200 ? 'yes' : 'NO' },
    { measurement: `job creations/s through the PostgreSQL store (${CONCURRENCY} at once, ${CREATE_SEC} s, one process)`, median: rates.postgres.toFixed(0), p95: '', goal: '(store share of the HTTP row)', met: '' },
    { measurement: 'the same through the embedded store, this run', median: rates.embedded.toFixed(0), p95: '', goal: `ratio PostgreSQL ÷ embedded: ${(rates.postgres / rates.embedded).toFixed(2)}`, met: '' },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.table(await benchPostgres());
