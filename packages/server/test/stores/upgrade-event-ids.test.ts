// Upgrading a store written before issue 20's findings 9 and 13 (one suite, two backends): job
// events written with global ids keep them as their workspace's numbers (so a client resuming
// across the upgrade with the Last-Event-ID it holds misses nothing), each workspace numbers on
// from its own largest; media change numbers go on per workspace from the store's counter; and
// the stored media bytes of each workspace are counted from its rows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { PG_URL, postgresMissing } from '../store-backends.ts';
import { dropSchema, tempDir } from '../helpers.ts';
import { MIGRATIONS, migrationSql, PG_VERSIONS_BEFORE_34 } from '../../src/store/migrations.ts';
import { loadConfig } from '../../src/config.ts';
import { openStores } from '../../src/compose/open-stores.ts';
import type { Stores } from '../../src/compose/stores.ts';
import { openPgStores } from '../../src/compose/open-pg-stores.ts';
import { randomToken } from '../../src/ids.ts';

const pgSkip = await postgresMissing();

/** The rows an older store holds: two workspaces whose events interleave in one global numbering. */
const OLD_ROWS = [
  "INSERT INTO workspaces (id, name, signing_secret, balance, created_at, updated_at) VALUES ('ws_a', 'a', 'whsec_x', 10, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
  "INSERT INTO workspaces (id, name, signing_secret, balance, created_at, updated_at) VALUES ('ws_b', 'b', 'whsec_y', 10, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
  ...[[1, 'ws_a', 'job_a1', 1], [2, 'ws_a', 'job_a1', 2], [3, 'ws_b', 'job_b1', 1], [4, 'ws_a', 'job_a2', 1], [5, 'ws_b', 'job_b1', 2]].map(
    ([id, ws, job, seq]) => `INSERT INTO job_events (id, job_id, workspace_id, seq, event, data_json) VALUES (${id}, '${job}', '${ws}', ${seq}, 'job.updated', '{}')`,
  ),
  "INSERT INTO media (id, workspace_id, kind, filename, content_type, size_bytes, sha256, storage_path, analysis_status, created_at, seq) VALUES ('med_1', 'ws_a', 'transcript', 'a.vtt', 'text/vtt', 1000, 'x', '/x', 'ready', '2026-01-01T00:00:00.000Z', 1)",
  "INSERT INTO media (id, workspace_id, kind, filename, content_type, size_bytes, sha256, storage_path, analysis_status, created_at, seq) VALUES ('med_2', 'ws_a', 'transcript', 'b.vtt', 'text/vtt', 234, 'x', '/x', 'ready', '2026-01-01T00:00:00.000Z', 2)",
  "UPDATE media SET changed_seq = 6 WHERE id = 'med_1'",
  "UPDATE media SET changed_seq = 7 WHERE id = 'med_2'",
  "UPDATE counters SET value = 7 WHERE name = 'media_changes'",
];

async function checkUpgraded(s: Stores): Promise<void> {
  assert.deepEqual((await s.jobs.workspaceEventsAfter('ws_a', 0)).map((e) => e.id), [1, 2, 4], 'existing events keep their ids');
  assert.deepEqual((await s.jobs.workspaceEventsAfter('ws_b', 0)).map((e) => e.id), [3, 5]);
  assert.deepEqual((await s.jobs.workspaceEventsAfter('ws_a', 2)).map((e) => e.id), [4], 'a Last-Event-ID held across the upgrade resumes where it was');
  assert.equal(await s.jobs.latestWorkspaceEventId('ws_a'), 4);
  const a = await s.jobs.create({ workspaceId: 'ws_a', type: 'report', request: {}, cost: 1 });
  const b = await s.jobs.create({ workspaceId: 'ws_b', type: 'report', request: {}, cost: 1 });
  assert.equal((await s.jobs.eventsAfter(a.id, 0))[0]?.id, 5, 'each workspace numbers on from its own largest');
  assert.equal((await s.jobs.eventsAfter(b.id, 0))[0]?.id, 6);
  assert.equal((await s.workspaces.usage('ws_a')).mediaBytes, 1234, 'stored bytes counted from the rows');
  assert.equal((await s.workspaces.usage('ws_b')).mediaBytes, 0);
  // Media change numbers: each workspace's counter starts from the store's, so resuming misses nothing.
  assert.deepEqual((await s.media.changesAfter('ws_a', 6)).map((m) => m.id), ['med_2']);
  assert.equal(await s.media.latestChange('ws_b'), 7);
  const nm = await s.media.insert({ id: 'med_3', workspaceId: 'ws_b', kind: 'transcript', filename: 'c.vtt', contentType: 'text/vtt', sizeBytes: 1, sha256: 'x', durationSec: null, label: null, storagePath: '/x', transcript: null, analysisStatus: 'ready' });
  assert.equal(nm.changedSeq, 8);
  assert.deepEqual(await s.retention.sweepBatch(Date.now() - 24 * 3600 * 1000, 100), { deliveries: 0, events: 0, jobEvents: 0 }, 'events written before the upgrade count their age from it');
}

describe('upgrading a store to per-workspace event ids and counted media bytes (sqlite)', () => {
  it('keeps the ids of existing events and counts the media bytes', async () => {
    const dir = tempDir();
    try {
      const old = new DatabaseSync(path.join(dir, 'rapport.db'));
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      for (const m of MIGRATIONS.filter((x) => x.version <= 6)) {
        old.exec(migrationSql(m, 'sqlite'));
        old.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, 'then');
      }
      for (const sql of OLD_ROWS) old.exec(sql);
      old.close();
      const { stores } = await openStores(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), () => undefined);
      try {
        await checkUpgraded(stores);
      } finally {
        await stores.backend.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('upgrading a store to per-workspace event ids and counted media bytes (postgres)', { skip: pgSkip ?? false }, () => {
  it('keeps the ids of existing events and counts the media bytes', async () => {
    const schema = `u_${randomToken(12).toLowerCase()}`;
    const dir = tempDir();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      await admin.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
      // The schema PostgreSQL's own versions 1 to 3 made (the list's 1 to 6), numbered as they were then.
      for (const m of MIGRATIONS.filter((x) => x.version <= 6)) await admin.query(migrationSql(m, 'pg'));
      for (const [version, list] of Object.entries(PG_VERSIONS_BEFORE_34)) {
        if (list.every((v) => v <= 6)) await admin.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [Number(version), 'then']);
      }
      for (const sql of OLD_ROWS) await admin.query(sql);
      await admin.query("SELECT setval(pg_get_serial_sequence('job_events', 'id'), 5)");
      const { stores } = await openPgStores(PG_URL, dir, () => undefined, undefined, { schema, max: 3 });
      try {
        await checkUpgraded(stores);
      } finally {
        await stores.backend.close();
      }
    } finally {
      await admin.end();
      await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
