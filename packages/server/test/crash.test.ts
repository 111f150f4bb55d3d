// Crash safety with real processes: the service (test/fixtures/crash-server.ts, runService with a
// test-double engine that holds analyses and then fails them) accepts jobs, is killed with
// SIGKILL while jobs are both queued and running and while an upload is half-written, and is
// started again on the same DATA_DIR. Every accepted job must reach a terminal state exactly once
// (one terminal job event, one webhook event), and the upload must leave no file and no row.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pcm16WavHeader } from '@rapport/analysis';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { SqliteDatabase } from '../src/store/sqlite.ts';
import { SqlMediaStore } from '../src/files/media.store.ts';
import { newId } from '../src/ids.ts';
import { tempDir, testKey, testSecret, waitFor } from './helpers.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'crash-server.ts');
const dataDir = tempDir('rapport-crash-');
const apiKey = testKey();
const env = {
  PATH: process.env.PATH ?? '',
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  SERVICE_API_KEY: apiKey,
  SIGNING_SECRET: testSecret(),
  JOB_LEASE_SEC: '2',
  WORKER_CONCURRENCY: '2',
  RATE_LIMIT_DEFAULT: '100000',
  RATE_LIMIT_JOB_STATUS: '100000',
  RATE_LIMIT_UPLOAD: '100000',
  LOG_LEVEL: 'silent',
};

interface Started {
  child: ChildProcess;
  url: string;
  workspaceId: string;
}

async function start(engineDelayMs: number): Promise<Started> {
  const child = spawn(process.execPath, [FIXTURE], { env: { ...env, TEST_ENGINE_DELAY_MS: String(engineDelayMs) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => { throw new Error('the server exited before listening'); })])) as [string];
  const info = JSON.parse(line) as { url: string; workspaceId: string };
  return { child, url: info.url, workspaceId: info.workspaceId };
}

async function kill9(s: Started): Promise<void> {
  const exited = once(s.child, 'exit');
  s.child.kill('SIGKILL');
  const [, signal] = (await exited) as [number | null, string | null];
  assert.equal(signal, 'SIGKILL');
}

// The test reads the file as another process would, synchronously.
let db: DatabaseSync | null = null;
const store = () => {
  const file = (db ??= new DatabaseSync(path.join(dataDir, 'rapport.db')));
  return {
    get: <T>(sql: string, ...params: SQLInputValue[]) => file.prepare(sql).get(...params) as T | undefined,
    all: <T>(sql: string, ...params: SQLInputValue[]) => file.prepare(sql).all(...params) as T[],
  };
};
const count = (sql: string, ...params: string[]) => store().get<{ n: number }>(sql, ...params)?.n ?? 0;

async function insertAudio(workspaceId: string): Promise<string> {
  const id = newId('med');
  const own = await SqliteDatabase.open(path.join(dataDir, 'rapport.db'));
  await new SqlMediaStore(own).insert({
    id, workspaceId, kind: 'audio', filename: `${id}.wav`, contentType: 'audio/wav', sizeBytes: 1000, sha256: '0'.repeat(64),
    durationSec: 30, label: null, storagePath: path.join(dataDir, 'media', id), transcript: null, analysisStatus: 'pending',
  });
  await own.close();
  return id;
}

async function createJob(url: string, mediaId: string): Promise<string> {
  const res = await fetch(`${url}/v1/matching/jobs`, {
    method: 'POST',
    headers: { 'service-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ context: 'behavioral_compatibility', target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } }, group: [{ type: 'media_target', mediaId, selector: { strategy: 'speaker_index', speaker_index: 1 } }] }),
  });
  assert.equal(res.status, 202);
  return ((await res.json()) as { jobId: string }).jobId;
}

/** Starts an upload over a raw socket and leaves it half-written (the body is never finished). */
async function halfUpload(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  const boundary = 'crashboundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
  const wavHeader = pcm16WavHeader(100_000_000, 16000);
  socket.write(
    `POST /v1/files HTTP/1.1\r\nHost: ${hostname}\r\nService-Api-Key: ${apiKey}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100001000\r\n\r\n`,
  );
  socket.write(head);
  socket.write(wavHeader);
  socket.write(Buffer.alloc(2 * 1024 * 1024));
  socket.on('error', () => undefined);
  return socket;
}

const tmpFiles = () => readdirSync(path.join(dataDir, 'tmp'));
const mediaFiles = () => readdirSync(path.join(dataDir, 'media'));

describe('crash safety (kill -9)', { timeout: 120_000 }, () => {
  let second: Started | null = null;
  after(async () => {
    if (second && second.child.exitCode === null) await kill9(second).catch(() => undefined);
    db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every accepted job ends exactly once after a restart; a half-written upload leaves nothing', async () => {
    // Run 1: analyses hang (until the process dies), so jobs waiting on them stay running.
    const first = await start(600_000);
    const m1 = await insertAudio(first.workspaceId);
    await waitFor(() => store().get<{ s: string }>('SELECT analysis_status AS s FROM media WHERE id = ?', m1)?.s === 'running', 15_000, 'the first analysis to run');
    const running: string[] = [];
    for (let i = 0; i < 20; i++) running.push(await createJob(first.url, m1));
    await waitFor(() => count("SELECT COUNT(*) AS n FROM jobs WHERE status = 'running'") === running.length, 15_000, 'the first jobs to run');
    // A second analysis takes the other worker slot: jobs accepted now stay queued.
    const m2 = await insertAudio(first.workspaceId);
    await waitFor(() => store().get<{ s: string }>('SELECT analysis_status AS s FROM media WHERE id = ?', m2)?.s === 'running', 15_000, 'the second analysis to run');
    const queued: string[] = [];
    for (let i = 0; i < 20; i++) queued.push(await createJob(first.url, i % 2 ? m1 : m2));
    const socket = await halfUpload(first.url);
    await waitFor(() => tmpFiles().some((f) => statSync(path.join(dataDir, 'tmp', f)).size > 1024 * 1024), 15_000, 'the upload to reach its temporary file');

    const statuses = new Map(store().all<{ id: string; status: string }>('SELECT id, status FROM jobs').map((r) => [r.id, r.status]));
    assert.ok(running.every((id) => statuses.get(id) === 'running'), 'jobs running at the kill');
    assert.ok(queued.every((id) => statuses.get(id) === 'queued'), 'jobs queued at the kill');
    await kill9(first);
    socket.destroy();

    const accepted = [...running, ...queued];
    assert.equal(count('SELECT COUNT(*) AS n FROM jobs'), accepted.length, 'every accepted job survived the crash');
    assert.equal(count('SELECT COUNT(*) AS n FROM media'), 2, 'the half-written upload has no row');

    // Run 2: analyses fail quickly; leases of the dead process run out after JOB_LEASE_SEC.
    second = await start(100);
    const s = second;
    const terminal = async () => {
      const res = await fetch(`${s.url}/v1/jobs?limit=100`, { headers: { 'service-api-key': apiKey } });
      const page = (await res.json()) as { data: { id: string; status: string }[] };
      return page.data.filter((j) => j.status === 'succeeded' || j.status === 'failed').length === accepted.length ? page.data : null;
    };
    const jobs = await waitFor(terminal, 60_000, 'every job to end');
    assert.deepEqual(new Set(jobs.map((j) => j.id)), new Set(accepted));
    for (const id of accepted) {
      const res = await fetch(`${s.url}/v1/jobs/${id}`, { headers: { 'service-api-key': apiKey } });
      const job = (await res.json()) as { status: string; error: { code: string } | null; finishedAt: string | null };
      assert.equal(job.status, 'failed', id);
      assert.equal(job.error?.code, 'media_unreadable', `${id}: the test engine fails media as unreadable, never with a result`);
      assert.ok(job.finishedAt);
    }

    // Another lease period: nothing ends twice when old leases run out.
    await new Promise((r) => setTimeout(r, 2500));
    const ends = store().all<{ job_id: string; n: number }>("SELECT job_id, COUNT(*) AS n FROM job_events WHERE event IN ('job.succeeded', 'job.failed') GROUP BY job_id");
    assert.equal(ends.length, accepted.length);
    assert.ok(ends.every((e) => e.n === 1), `one terminal event per job: ${JSON.stringify(ends.filter((e) => e.n !== 1))}`);
    const webhookEvents = store().all<{ job_id: string; n: number }>('SELECT job_id, COUNT(*) AS n FROM events GROUP BY job_id');
    assert.equal(webhookEvents.length, accepted.length);
    assert.ok(webhookEvents.every((e) => e.n === 1), 'one matching.failed event per job');
    const afterTerminal = count(
      `SELECT COUNT(*) AS n FROM job_events e WHERE EXISTS (SELECT 1 FROM job_events t WHERE t.job_id = e.job_id
       AND t.event IN ('job.succeeded', 'job.failed') AND t.seq < e.seq)`,
    );
    assert.equal(afterTerminal, 0, 'no event after a terminal one');
    assert.equal(count('SELECT COUNT(*) AS n FROM results'), 0, 'no result was made up');
    assert.equal(count("SELECT COUNT(*) AS n FROM tasks WHERE kind = 'job.run'"), 0, 'no job task left');
    assert.equal(store().get<{ r: number }>('SELECT reserved AS r FROM workspaces WHERE id = ?', s.workspaceId)?.r, 0, 'every reservation released');

    // The half-written upload: no row, no file (neither under media/ nor a temporary one).
    assert.equal(count('SELECT COUNT(*) AS n FROM media'), 2);
    assert.deepEqual(mediaFiles(), []);
    assert.deepEqual(tmpFiles(), [], 'the partial temporary file is removed at restart');
  });
});
