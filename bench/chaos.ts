// `npm run chaos`: crash campaign on PostgreSQL with real processes (issue 21). One API process
// and two workers (packages/server/test/fixtures/crash-server.ts: runService with the
// delayed-failure TEST DOUBLE engine, which holds each analysis for a while and then fails it,
// so jobs waiting on it fail too, through the same terminal transaction as any job), on a fresh
// schema of the PostgreSQL of TEST_DATABASE_URL. Each round runs one scenario:
//
//   worker-mid-analysis  SIGKILL the worker holding a running analysis
//   worker-random        SIGKILL a worker at a random moment while jobs end (some kills land in
//                        or around terminal transactions)
//   api-mid-upload       SIGKILL the API process while an upload is half written
//   worker-in-terminal   SIGKILL a worker exactly inside a job's terminal transaction: after it
//                        locked the job, wrote its result or error, settled the credit and
//                        dropped the task, and before it commits (see below)
//   worker-after-commit  SIGKILL a worker exactly after a job's terminal transaction committed
//                        and before the worker acknowledged the task
//
// The two exact kills are made with PostgreSQL locks, so that the service has no test hook:
// this process holds `events` (the webhook outbox, written only by a job's terminal transaction)
// in SHARE mode, which stops the next terminal transaction at its outbox insert; the waiting
// session's application_name (`rapport-PID`, store/pg.ts) names the worker, and the job row
// whose xmax is that session's transaction names the job. Inside: the worker is killed, the lock
// released, and the session is seen to end with the job still not ended (rolled back). After
// commit: this process first asks for `tasks` in ACCESS EXCLUSIVE mode (queued behind the
// terminal transaction, which already holds it), releases `events`, sees the job ended (the
// commit), and kills the worker while its acknowledgement waits for `tasks`.
//
// then restarts what was killed, waits for every job to end, and checks the invariants: every
// job ended exactly once (one terminal event, one webhook event, one delivery, its credit
// settled once), every analysis settled once, no task and no reservation left, no event after a
// terminal one, no event lost or doubled, no media row without its file and no file without its
// row. CHAOS_ROUNDS (default 20) rounds per scenario (CHAOS_SCENARIOS=a,b runs only those); the
// counts are printed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { pcm16WavHeader } from '@rapport/analysis';
import { randomToken } from '../packages/server/src/ids.ts';
import { fileUpload, wavFile } from '../packages/server/src/files/files.fixtures.testkit.ts';

const URL_ = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 20);
const FIXTURE = path.join(import.meta.dirname, '..', 'packages', 'server', 'test', 'fixtures', 'crash-server.ts');
const SCENARIOS = ['worker-mid-analysis', 'worker-random', 'api-mid-upload', 'worker-in-terminal', 'worker-after-commit'] as const;
type Scenario = (typeof SCENARIOS)[number];
/** CHAOS_SCENARIOS (comma-separated) runs only those scenarios. */
const ONLY = (process.env.CHAOS_SCENARIOS ?? '').split(',').filter(Boolean);

const schema = `chaos_${randomToken(10).toLowerCase()}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-chaos-'));
const apiKey = `rk_${randomToken(40)}`;
const env = {
  PATH: process.env.PATH ?? '', DATA_DIR: dir, DATABASE_URL: URL_, DATABASE_SCHEMA: schema, PORT: '0', HOST: '127.0.0.1',
  SERVICE_API_KEY: apiKey, SIGNING_SECRET: `whsec_${randomToken(30)}`, JOB_LEASE_SEC: '2', WORKER_CONCURRENCY: '2',
  RATE_LIMIT_DEFAULT: '1000000', RATE_LIMIT_UPLOAD: '1000000', LOG_LEVEL: 'silent', TEST_ENGINE_DELAY_MS: '800',
};
const db = new pg.Client({ connectionString: URL_ });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  url: string;
  pid: number;
}

async function start(role: 'api' | 'worker'): Promise<Proc> {
  const child = spawn(process.execPath, [FIXTURE], { env: { ...env, ROLE: role }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => { throw new Error(`the ${role} process exited early`); })])) as [string];
  const info = JSON.parse(line) as { url: string; pid: number };
  return { child, url: info.url, pid: info.pid };
}

async function kill9(p: Proc): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = once(p.child, 'exit');
  p.child.kill('SIGKILL');
  await exited;
}

async function waitFor<T>(fn: () => Promise<T>, ms: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const n = async (sql: string, ...params: unknown[]) => Number((await db.query(sql.replaceAll('{s}', schema), params)).rows[0]?.n ?? 0);

let api: Proc;
const workers: Proc[] = [];

async function upload(): Promise<string> {
  const body = fileUpload(wavFile(1), 'a.wav', {}, 'audio/wav');
  const res = await fetch(`${api.url}/v1/files`, { method: 'POST', body: new Uint8Array(body.payload), headers: { ...body.headers, 'service-api-key': apiKey } });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

async function createJob(mediaId: string): Promise<string> {
  const res = await fetch(`${api.url}/v1/matching/jobs`, {
    method: 'POST',
    headers: { 'service-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ context: 'behavioral_compatibility', webhook: { url: 'https://hooks.example.com/chaos' }, target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } }, group: [{ type: 'media_target', mediaId, selector: { strategy: 'speaker_index', speaker_index: 1 } }] }),
  });
  if (res.status !== 202) throw new Error(`job creation answered ${res.status}`);
  return ((await res.json()) as { jobId: string }).jobId;
}

/** An upload left half-written on a raw socket. */
async function halfUpload(): Promise<net.Socket> {
  const { hostname, port } = new URL(api.url);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.on('error', () => undefined);
  const boundary = 'chaosboundary';
  socket.write(`POST /v1/files HTTP/1.1\r\nHost: ${hostname}\r\nService-Api-Key: ${apiKey}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100001000\r\n\r\n`);
  socket.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
  socket.write(pcm16WavHeader(100_000_000, 16000));
  socket.write(Buffer.alloc(1024 * 1024));
  return socket;
}

/** A terminal transaction stopped at its outbox insert: its session, worker and job. */
interface Stopped {
  backend: number;
  worker: number;
  jobId: string;
}

/** Waits for a worker's terminal transaction to wait on the `events` lock that `hold` has. */
async function stoppedTerminal(): Promise<Stopped> {
  return waitFor(async () => {
    const r = (await db.query(
      `SELECT a.pid AS backend, a.application_name AS app, j.id AS job_id
       FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid AND NOT l.granted AND l.relation = '${schema}.events'::regclass
       JOIN ${schema}.jobs j ON j.xmax::text = a.backend_xid::text
       LIMIT 1`,
    )).rows[0] as { backend: number; app: string; job_id: string } | undefined;
    if (!r) return undefined;
    const worker = Number(r.app.replace(/^rapport-/, ''));
    return workers.some((w) => w.pid === worker) ? { backend: r.backend, worker, jobId: r.job_id } : undefined;
  }, 30_000, 'a terminal transaction at its outbox insert');
}

const sessionGone = (backend: number) => waitFor(async () => (await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [backend])).rowCount === 0, 10_000, 'the killed worker\'s session to end');
const jobStatus = async (id: string) => (await db.query(`SELECT status FROM ${schema}.jobs WHERE id = $1`, [id])).rows[0]?.status as string;
const ended = (status: string) => status === 'succeeded' || status === 'failed';

async function lockSession(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: URL_ });
  await c.connect();
  await c.query('BEGIN');
  return c;
}

async function replaceWorker(pid: number): Promise<void> {
  const i = workers.findIndex((w) => w.pid === pid);
  await kill9(workers[i] as Proc);
  workers[i] = await start('worker');
}

/** Kills the worker inside a terminal transaction; answers whether the transaction was seen rolled back. */
async function killInTerminal(): Promise<boolean> {
  const hold = await lockSession();
  try {
    await hold.query(`LOCK TABLE ${schema}.events IN SHARE MODE`);
    const stopped = await stoppedTerminal();
    const i = workers.findIndex((w) => w.pid === stopped.worker);
    await kill9(workers[i] as Proc);
    await hold.query('ROLLBACK');
    await sessionGone(stopped.backend);
    const rolledBack = !ended(await jobStatus(stopped.jobId));
    workers[i] = await start('worker');
    return rolledBack;
  } finally {
    await hold.end();
  }
}

/** Kills the worker after its terminal transaction committed, before its acknowledgement; answers whether the commit was seen first. */
async function killAfterCommit(): Promise<boolean> {
  const hold = await lockSession();
  const gate = await lockSession();
  try {
    await hold.query(`LOCK TABLE ${schema}.events IN SHARE MODE`);
    const stopped = await stoppedTerminal();
    const gated = gate.query(`LOCK TABLE ${schema}.tasks IN ACCESS EXCLUSIVE MODE`);
    const gatePid = (gate as unknown as { processID: number }).processID;
    await waitFor(async () => (await db.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [gatePid])).rowCount === 1, 10_000, 'the tasks lock to be asked for');
    await hold.query('ROLLBACK');
    await gated;
    const committed = ended(await jobStatus(stopped.jobId));
    await replaceWorker(stopped.worker);
    return committed;
  } finally {
    await gate.query('ROLLBACK').catch(() => undefined);
    await gate.end();
    await hold.query('ROLLBACK').catch(() => undefined);
    await hold.end();
  }
}

async function round(scenario: Scenario): Promise<{ jobs: number; killed: string; exact: boolean }> {
  const media = [await upload(), await upload()];
  const jobs: string[] = [];
  for (let i = 0; i < 6; i++) jobs.push(await createJob(media[i % 2] as string));
  let killed = '';
  let exact = false;
  if (scenario === 'worker-in-terminal') {
    exact = await killInTerminal();
    killed = 'worker';
  } else if (scenario === 'worker-after-commit') {
    exact = await killAfterCommit();
    killed = 'worker';
  } else if (scenario === 'worker-mid-analysis') {
    const owner = await waitFor(async () => (await db.query(`SELECT lease_owner FROM ${schema}.tasks WHERE kind = 'media.analyze' AND state = 'leased' LIMIT 1`)).rows[0]?.lease_owner as string | undefined, 20_000, 'a leased analysis');
    const i = workers.findIndex((w) => owner.startsWith(`worker-${w.pid}-`));
    if (i >= 0) {
      await kill9(workers[i] as Proc);
      workers[i] = await start('worker');
      killed = 'worker';
    }
  } else if (scenario === 'worker-random') {
    await sleep(600 + Math.random() * 600);
    const i = Math.floor(Math.random() * workers.length);
    await kill9(workers[i] as Proc);
    workers[i] = await start('worker');
    killed = 'worker';
  } else {
    const socket = await halfUpload();
    await waitFor(async () => readdirSync(path.join(dir, 'tmp')).length > 0, 10_000, 'the upload to reach a temporary file');
    await kill9(api);
    socket.destroy();
    api = await start('api');
    killed = 'api';
  }
  await waitFor(async () => (await n("SELECT COUNT(*) AS n FROM {s}.jobs WHERE status IN ('queued', 'running')")) === 0, 60_000, 'every job to end');
  await waitFor(async () => (await n("SELECT COUNT(*) AS n FROM {s}.media WHERE analysis_status IN ('pending', 'running')")) === 0, 60_000, 'every analysis to end');
  return { jobs: jobs.length, killed, exact };
}

/** Every invariant over the whole store; answers the violations found. */
async function violations(): Promise<string[]> {
  const out: string[] = [];
  const check = async (what: string, sql: string) => {
    const bad = await n(sql);
    if (bad !== 0) out.push(`${what}: ${bad}`);
  };
  await check('jobs not ended', "SELECT COUNT(*) AS n FROM {s}.jobs WHERE status NOT IN ('succeeded', 'failed')");
  await check('jobs without exactly one terminal event', "SELECT COUNT(*) AS n FROM {s}.jobs j WHERE (SELECT COUNT(*) FROM {s}.job_events e WHERE e.job_id = j.id AND e.event <> 'job.updated') <> 1");
  await check('jobs whose events are not exactly those counted (lost or doubled)', 'SELECT COUNT(*) AS n FROM {s}.jobs j WHERE (SELECT COUNT(DISTINCT e.seq) FROM {s}.job_events e WHERE e.job_id = j.id) <> j.event_seq OR (SELECT MAX(e.seq) FROM {s}.job_events e WHERE e.job_id = j.id) <> j.event_seq');
  await check('events after a terminal one', "SELECT COUNT(*) AS n FROM {s}.job_events e WHERE EXISTS (SELECT 1 FROM {s}.job_events t WHERE t.job_id = e.job_id AND t.event <> 'job.updated' AND t.seq < e.seq)");
  await check('jobs without exactly one webhook event', 'SELECT COUNT(*) AS n FROM {s}.jobs j WHERE (SELECT COUNT(*) FROM {s}.events e WHERE e.job_id = j.id) <> 1');
  await check('jobs without exactly one delivery', 'SELECT COUNT(*) AS n FROM {s}.jobs j WHERE (SELECT COUNT(*) FROM {s}.webhook_deliveries d WHERE d.job_id = j.id) <> 1');
  await check('jobs whose credit was not settled exactly once', "SELECT COUNT(*) AS n FROM {s}.jobs j WHERE (SELECT COUNT(*) FROM {s}.credit_transactions c WHERE c.job_id = j.id AND c.kind IN ('charge', 'release')) <> 1");
  await check('analyses not settled exactly once', "SELECT COUNT(*) AS n FROM {s}.media m WHERE m.kind <> 'transcript' AND (SELECT COUNT(*) FROM {s}.credit_transactions c WHERE c.media_id = m.id AND c.kind IN ('charge', 'release')) <> 1");
  await check('tasks left', 'SELECT COUNT(*) AS n FROM {s}.tasks');
  await check('credits still reserved', 'SELECT COALESCE(SUM(reserved), 0) AS n FROM {s}.workspaces');
  const rows = (await db.query(`SELECT id, storage_path FROM ${schema}.media`)).rows as { id: string; storage_path: string }[];
  const missing = rows.filter((r) => !existsSync(r.storage_path)).length;
  if (missing) out.push(`media rows without their file: ${missing}`);
  const files = readdirSync(path.join(dir, 'media')).filter((f) => !rows.some((r) => r.id === f)).length;
  if (files) out.push(`media files without their row: ${files}`);
  return out;
}

async function main(): Promise<void> {
  await db.connect();
  const started = Date.now();
  api = await start('api');
  workers.push(await start('worker'), await start('worker'));
  // exact: rounds whose kill was seen at its point (inside: rolled back; after commit: committed first).
  const results: Record<string, { rounds: number; kills: number; exact: number | string; jobs: number; violations: number }> = {};
  const problems: string[] = [];
  try {
    for (const scenario of SCENARIOS.filter((x) => ONLY.length === 0 || ONLY.includes(x))) {
      const precise = scenario === 'worker-in-terminal' || scenario === 'worker-after-commit';
      const r = (results[scenario] = { rounds: 0, kills: 0, exact: precise ? 0 : '', jobs: 0, violations: 0 });
      for (let i = 0; i < ROUNDS; i++) {
        const { jobs, killed, exact } = await round(scenario);
        r.rounds++;
        r.jobs += jobs;
        if (killed) r.kills++;
        if (precise && exact) r.exact = (r.exact as number) + 1;
        else if (precise) problems.push(`${scenario} round ${i + 1}: the kill was not seen at its point`);
        // Past another lease period nothing ends twice.
        await sleep(500);
        const v = await violations();
        r.violations += v.length;
        problems.push(...v.map((x) => `${scenario} round ${i + 1}: ${x}`));
      }
    }
  } finally {
    for (const p of [api, ...workers]) await kill9(p);
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.end();
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(results);
  console.log(`${Object.values(results).reduce((s, r) => s + r.jobs, 0)} jobs in ${((Date.now() - started) / 1000).toFixed(0)} s; violations: ${problems.length === 0 ? 'none' : ''}`);
  for (const p of problems) console.log(`  ${p}`);
  if (problems.length > 0) process.exitCode = 1;
}

await main();
