// A cluster on one PostgreSQL, with real processes (test/fixtures/crash-server.ts: runService
// with the delayed-failure TEST DOUBLE engine): two API processes (ROLE=api) and a worker
// (ROLE=worker) started at once on an empty schema (they migrate once, under the advisory lock,
// and join one workspace). A job created through API A is run by the worker, and an SSE stream
// held on API B shows its progress and its end: with REDIS_URL set the events travel by Redis
// pub/sub (test/stores/event-bus.test.ts covers LISTEN/NOTIFY, the bus without it). Both API
// processes answer the same state, and they share one rate-limit window (decisions §4).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { PG_URL, postgresMissing } from './store-backends.ts';
import { msLeftInMinute, sleep, tempDir, testKey, testSecret } from './helpers.ts';
import { fileUpload, wavFile } from '../src/files/files.fixtures.testkit.ts';
import { randomToken } from '../src/ids.ts';
import { MIGRATIONS } from '../src/store/migrations.ts';

const pgSkip = await postgresMissing();
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'crash-server.ts');

interface Proc {
  child: ChildProcess;
  url: string;
}

describe('two API processes and a worker on one PostgreSQL', { skip: pgSkip ?? false }, () => {
  const schema = `c_${randomToken(12).toLowerCase()}`;
  const dataDir = tempDir('rapport-cluster-');
  const apiKey = testKey();
  const procs: Proc[] = [];
  const env = {
    PATH: process.env.PATH ?? '',
    DATA_DIR: dataDir,
    DATABASE_URL: PG_URL,
    DATABASE_SCHEMA: schema,
    PORT: '0',
    HOST: '127.0.0.1',
    SERVICE_API_KEY: apiKey,
    SIGNING_SECRET: testSecret(),
    RATE_LIMIT_DEFAULT: '100000',
    RATE_LIMIT_UPLOAD: '100000',
    LOG_LEVEL: 'silent',
    TEST_ENGINE_DELAY_MS: '600',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    RATE_LIMIT_ENTITIES: '4',
  };

  async function start(role: string): Promise<Proc> {
    const child = spawn(process.execPath, [FIXTURE], { env: { ...env, ROLE: role }, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const [line] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => { throw new Error(`the ${role} process exited before it was ready`); })])) as [string];
    const proc = { child, url: (JSON.parse(line) as { url: string }).url };
    procs.push(proc);
    return proc;
  }

  let apiA: Proc;
  let apiB: Proc;
  before(async () => {
    [apiA, apiB] = await Promise.all([start('api'), start('api'), start('worker')]);
  });
  after(async () => {
    await Promise.all(procs.map(async (p) => {
      const exited = once(p.child, 'exit');
      p.child.kill('SIGTERM');
      await exited;
    }));
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (p: Proc, route: string, init: RequestInit = {}) => fetch(`${p.url}${route}`, { ...init, headers: { 'service-api-key': apiKey, ...(init.headers as Record<string, string> | undefined) } });

  it('migrated once and joined one workspace', async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const versions = await admin.query(`SELECT version FROM ${schema}.schema_migrations`);
      assert.deepEqual(versions.rows.map((r: { version: number }) => r.version).sort((a: number, b: number) => a - b), MIGRATIONS.map((m) => m.version), 'each migration once');
      assert.equal((await admin.query(`SELECT COUNT(*)::int AS n FROM ${schema}.workspaces`)).rows[0].n, 1);
    } finally {
      await admin.end();
    }
  });

  it("API B's event stream shows the worker's progress on a job created through API A, then its end", async () => {
    const upload = fileUpload(wavFile(2), 'a.wav', {}, 'audio/wav');
    const uploaded = await api(apiA, '/v1/files', { method: 'POST', body: new Uint8Array(upload.payload), headers: upload.headers });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const mediaId = ((await uploaded.json()) as { id: string }).id;
    const created = await api(apiA, '/v1/matching/jobs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ context: 'behavioral_compatibility', target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } }, group: [{ type: 'media_target', mediaId, selector: { strategy: 'speaker_index', speaker_index: 1 } }] }),
    });
    assert.equal(created.status, 202);
    const jobId = ((await created.json()) as { jobId: string }).jobId;

    const stream = await api(apiB, `/v1/jobs/${jobId}/events`, { headers: { accept: 'text/event-stream' } });
    assert.equal(stream.status, 200);
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes('event: job.failed') || text.includes('event: job.succeeded')) break;
    }
    const frames = text.split('\n\n').filter((f) => f.startsWith('id:')).map((f) => ({
      id: Number(/^id: (\d+)/.exec(f)?.[1]),
      event: /event: (\S+)/.exec(f)?.[1],
      job: JSON.parse(/data: (.*)/.exec(f)?.[1] ?? '{}') as { status: string; stage: string },
    }));
    assert.ok(frames.some((f) => f.event === 'job.updated' && f.job.status === 'running'), 'the worker started it, seen on API B');
    assert.equal(frames.at(-1)?.event, 'job.failed', 'the test engine fails every media, and the job with it');
    assert.deepEqual(frames.map((f) => f.id), [...frames.map((f) => f.id)].sort((a, b) => a - b), 'in order');
    assert.equal(frames.filter((f) => f.event !== 'job.updated').length, 1, 'one end');

    const [fromA, fromB] = await Promise.all([api(apiA, `/v1/jobs/${jobId}`), api(apiB, `/v1/jobs/${jobId}`)]);
    assert.deepEqual(await fromA.json(), await fromB.json());
  });

  it('a list cursor handed out by API A reads the next page on API B (one key for the cluster)', async () => {
    const media = (await (await api(apiA, '/v1/files?limit=1')).json()) as { data: { id: string }[] };
    const mediaId = media.data[0]?.id ?? '';
    for (let i = 0; i < 2; i++) {
      const created = await api(apiA, '/v1/reports/jobs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ target: { type: 'media_target', mediaId, selector: { strategy: 'dominant' } } }),
      });
      assert.equal(created.status, 202, await created.clone().text());
    }
    const first = (await (await api(apiA, '/v1/jobs?limit=1')).json()) as { data: { id: string }[]; nextCursor: string | null };
    assert.ok(first.nextCursor);
    const onB = await api(apiB, `/v1/jobs?limit=1&cursor=${first.nextCursor}`);
    assert.equal(onB.status, 200, await onB.clone().text());
    const second = (await onB.json()) as { data: { id: string }[] };
    assert.equal(second.data.length, 1);
    assert.notEqual(second.data[0]?.id, first.data[0]?.id);
  });

  it('with REDIS_URL the two API processes count one rate-limit window', async () => {
    if (msLeftInMinute() < 3000) await sleep(msLeftInMinute() + 50);
    const statuses: number[] = [];
    const resets = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await api(i % 2 ? apiB : apiA, '/v1/entities');
      statuses.push(res.status);
      resets.add(res.headers.get('x-ratelimit-reset') ?? '');
      await res.arrayBuffer();
    }
    if (resets.size > 1) return; // the minute rolled over mid-way: the windows legitimately reset
    assert.deepEqual(statuses, [200, 200, 200, 200, 429], 'the fifth request, on either process, is over the shared limit of 4');
  });
});
