// Crash safety on PostgreSQL with real processes: an API process and two workers (ROLE=worker,
// test/fixtures/crash-server.ts with the delayed-failure TEST DOUBLE engine, which holds each
// analysis and then fails it). While analyses are running, the worker holding one is killed with
// SIGKILL; the other worker retakes its tasks when their leases run out (JOB_LEASE_SEC=2). Every
// analysis and every job must end exactly once: one terminal job event and one webhook event per
// job, one release of each reservation, no task left, nothing reserved.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { PG_URL, postgresMissing } from './store-backends.ts';
import { dropSchema, tempDir, testKey, testSecret, waitFor } from './helpers.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import { randomToken } from '../src/ids.ts';

const pgSkip = await postgresMissing();
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'crash-server.ts');
const MEDIA = 6;
const JOBS_PER_MEDIA = 3;

describe('kill -9 of a worker on PostgreSQL', { skip: pgSkip ?? false, timeout: 120_000 }, () => {
  const schema = `k_${randomToken(12).toLowerCase()}`;
  const dataDir = tempDir('rapport-crash-pg-');
  const apiKey = testKey();
  const children: ChildProcess[] = [];
  const db = new pg.Client({ connectionString: PG_URL });
  const env = {
    PATH: process.env.PATH ?? '', DATA_DIR: dataDir, DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, PORT: '0', HOST: '127.0.0.1',
    SERVICE_API_KEY: apiKey, SIGNING_SECRET: testSecret(), JOB_LEASE_SEC: '2', WORKER_CONCURRENCY: '2',
    RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_UPLOAD: '100000', LOG_LEVEL: 'silent', TEST_ENGINE_DELAY_MS: '2500',
  };
  const count = async (sql: string, ...params: string[]) => Number((await db.query(sql.replaceAll('{s}', schema), params)).rows[0]?.n ?? 0);

  async function start(role: string): Promise<{ child: ChildProcess; url: string; pid: number }> {
    const child = spawn(process.execPath, [FIXTURE], { env: { ...env, ROLE: role }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => { throw new Error(`the ${role} process exited early`); })])) as [string];
    const info = JSON.parse(line) as { url: string; pid: number };
    return { child, url: info.url, pid: info.pid };
  }

  let api: { url: string };
  let workers: { child: ChildProcess; pid: number }[];
  before(async () => {
    await db.connect();
    api = await start('api');
    workers = await Promise.all([start('worker'), start('worker')]);
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? once(c, 'exit') : null)));
    await db.end();
    await dropSchema(schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (route: string, init: RequestInit = {}) => fetch(`${api.url}${route}`, { ...init, headers: { 'service-api-key': apiKey, ...(init.headers as Record<string, string> | undefined) } });

  it('every analysis and job ends exactly once after a worker is killed mid-analysis', async () => {
    const media: string[] = [];
    for (let i = 0; i < MEDIA; i++) {
      const upload = fileUpload(wavFile(1), `m${i}.wav`, {}, 'audio/wav');
      const res = await call('/v1/files', { method: 'POST', body: new Uint8Array(upload.payload), headers: upload.headers });
      assert.equal(res.status, 201);
      media.push(((await res.json()) as { id: string }).id);
    }
    const jobs: string[] = [];
    for (const m of media) {
      for (let j = 0; j < JOBS_PER_MEDIA; j++) {
        const res = await call('/v1/matching/jobs', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ context: 'behavioral_compatibility', webhook: { url: 'https://hooks.example.com/crash' }, target: { type: 'media_target', mediaId: m, selector: { strategy: 'dominant' } }, group: [{ type: 'media_target', mediaId: m, selector: { strategy: 'speaker_index', speaker_index: 1 } }] }),
        });
        assert.equal(res.status, 202);
        jobs.push(((await res.json()) as { jobId: string }).jobId);
      }
    }
    // Kill the worker that holds a running analysis.
    const owner = await waitFor(async () => (await db.query(`SELECT lease_owner FROM ${schema}.tasks WHERE kind = 'media.analyze' AND state = 'leased' LIMIT 1`)).rows[0]?.lease_owner as string | undefined, 20_000, 'an analysis to be leased');
    const victim = workers.find((w) => owner.startsWith(`worker-${w.pid}-`));
    assert.ok(victim, `the lease owner ${owner} is one of the two workers`);
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');

    await waitFor(async () => (await count("SELECT COUNT(*) AS n FROM {s}.jobs WHERE status IN ('queued', 'running')")) === 0, 90_000, 'every job to end');
    await waitFor(async () => (await count("SELECT COUNT(*) AS n FROM {s}.media WHERE analysis_status IN ('pending', 'running')")) === 0, 30_000, 'every analysis to end');
    for (const id of jobs) {
      assert.equal(await count("SELECT COUNT(*) AS n FROM {s}.job_events WHERE job_id = $1 AND event <> 'job.updated'", id), 1, `${id}: one terminal event`);
      assert.equal(await count('SELECT COUNT(*) AS n FROM {s}.events WHERE job_id = $1', id), 1, `${id}: one webhook event`);
      assert.equal(await count('SELECT COUNT(*) AS n FROM {s}.webhook_deliveries WHERE job_id = $1', id), 1, `${id}: one delivery`);
      assert.equal(await count("SELECT COUNT(*) AS n FROM {s}.credit_transactions WHERE job_id = $1 AND kind IN ('release', 'charge')", id), 1, `${id}: its credit settled once`);
    }
    for (const id of media) {
      assert.equal(await count("SELECT COUNT(*) AS n FROM {s}.credit_transactions WHERE media_id = $1 AND kind IN ('release', 'charge')", id), 1, `${id}: its analysis settled once`);
    }
    assert.equal(await count('SELECT COUNT(*) AS n FROM {s}.tasks'), 0, 'no task left');
    assert.equal(await count('SELECT SUM(reserved) AS n FROM {s}.workspaces'), 0, 'nothing reserved');
  });
});
