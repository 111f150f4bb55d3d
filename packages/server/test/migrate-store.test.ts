// `rapport migrate-store`: an embedded store with every kind of row (workspaces and keys, media
// with an analysis and entities, jobs with events, results, a webhook delivery with its attempt,
// credits, feedback, idempotency keys, a queued task) is copied into an empty PostgreSQL schema
// by the command line; the service then reads the same things there, with the same ids, cursors
// and event ids, and what it writes next is numbered after what was copied. A second copy into
// the now non-empty schema is refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { PG_URL, newWorkspace, postgresMissing } from './store-backends.ts';
import { buildTestApp, call, dropSchema, insertEntity, insertMedia, matchingBody, tempDir, type TestApp } from './helpers.ts';
import { loadConfig } from '../src/config.ts';
import { openStores } from '../src/compose/open-stores.ts';
import type { Stores } from '../src/compose/stores.ts';
import { randomToken } from '../src/ids.ts';
import { TABLES } from '../src/store/migrate-store.ts';

const pgSkip = await postgresMissing();
const SCRIPT = path.join(import.meta.dirname, 'fixtures', 'admin-cli.ts');

function admin(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('rapport migrate-store', { skip: (process.env.TEST_STORE === 'postgres' ? 'copies from the embedded store' : false) || (pgSkip ?? false) }, () => {
  const schema = `m_${randomToken(12).toLowerCase()}`;
  let t: TestApp;
  let pgStores: Stores | null = null;
  const seen: Record<string, unknown> = {};
  before(async () => {
    t = await buildTestApp({ RATE_LIMIT_DEFAULT: '100000' });
    const ws = t.main.workspaceId;
    const media = await insertMedia(t.services, ws, { kind: 'transcript', label: 'm' });
    const entity = await insertEntity(t.services, ws, 'Ada');
    for (let i = 0; i < 3; i++) {
      const res = await call(t, t.main, { method: 'POST', url: '/v1/matching/jobs', payload: matchingBody(media.id, entity), headers: { 'idempotency-key': `k${i}` } });
      assert.equal(res.statusCode, 202);
    }
    const jobs = await t.services.stores.jobs.list(ws, { limit: 2 });
    const first = jobs.data[0];
    assert.ok(first);
    await t.services.stores.jobs.fail(first.id, { code: 'canceled', message: 'x' }, { type: 'matching.failed', data: { jobId: first.id }, webhook: { url: 'https://hooks.example.com/m' } });
    await newWorkspace(t.services.stores, 5);
    seen.jobs = await t.services.stores.jobs.list(ws, { limit: 2 });
    seen.nextPage = await t.services.stores.jobs.list(ws, { limit: 2, cursor: jobs.nextCursor ?? '' });
    seen.events = await t.services.stores.jobs.workspaceEventsAfter(ws, 0);
    seen.balance = await t.services.stores.credits.balance(ws);
    seen.deliveries = await t.services.stores.webhooks.list(ws, {});
    seen.media = await t.services.stores.media.get(ws, media.id);
    seen.entity = await t.services.stores.entities.get(ws, entity);
    await t.composed.close();
  });
  after(async () => {
    await pgStores?.backend.close();
    await dropSchema(schema);
    rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('copies every table, keeps ids, and verifies the counts', async () => {
    const r = await admin(['migrate-store', '--from', t.dataDir, '--to', PG_URL, '--schema', schema], {});
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { ok: boolean; tables: Record<string, { embedded: number; postgres: number }> };
    assert.equal(report.ok, true);
    assert.deepEqual(Object.keys(report.tables), [...TABLES]);
    for (const table of ['workspaces', 'api_keys', 'jobs', 'job_events', 'tasks', 'events', 'webhook_deliveries', 'credit_transactions', 'idempotency_keys', 'entities', 'media']) {
      assert.ok((report.tables[table]?.postgres ?? 0) > 0, `${table} had rows to copy`);
    }

    pgStores = (await openStores(loadConfig({ DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, DATA_DIR: tempDir(), LOG_LEVEL: 'silent' }), () => undefined)).stores;
    const s = pgStores;
    const ws = t.main.workspaceId;
    assert.equal((await s.workspaces.authenticate(t.main.apiKey))?.workspaceId, ws, 'the same key signs in');
    assert.deepEqual(await s.jobs.list(ws, { limit: 2 }), seen.jobs);
    const page = seen.jobs as { nextCursor: string };
    assert.deepEqual(await s.jobs.list(ws, { limit: 2, cursor: page.nextCursor }), seen.nextPage, 'cursors stay valid');
    assert.deepEqual(await s.jobs.workspaceEventsAfter(ws, 0), seen.events, 'event ids stay valid');
    assert.deepEqual(await s.credits.balance(ws), seen.balance);
    assert.deepEqual(await s.webhooks.list(ws, {}), seen.deliveries);
    assert.deepEqual(await s.media.get(ws, (seen.media as { id: string }).id), seen.media);
    assert.deepEqual(await s.entities.get(ws, (seen.entity as { id: string }).id), seen.entity);

    // What is written next comes after what was copied.
    const next = await s.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    assert.equal((await s.jobs.list(ws, { limit: 1 })).data[0]?.id, next.id, 'newest first');
    const events = await s.jobs.workspaceEventsAfter(ws, 0);
    assert.equal(events.at(-1)?.jobId, next.id, 'its event id follows the copied ones');
    assert.ok(await s.queue.claim('w', 1000, Date.now() + 1000), 'the copied and new tasks can be claimed');
  });

  it('refuses to copy into a store that is not empty', async () => {
    const r = await admin(['migrate-store', '--from', t.dataDir, '--to', PG_URL, '--schema', schema], {});
    assert.equal(r.code, 1);
    assert.match(r.stderr, /not empty/);
    const bad = await admin(['migrate-store', '--from', t.dataDir, '--to', 'mysql://x'], {});
    assert.equal(bad.code, 2);
  });
});

