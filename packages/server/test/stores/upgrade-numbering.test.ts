// One migration list, one numbering (issue 34): a store written by the release before it, at that
// release's last version on each engine (embedded 11, PostgreSQL 8 in its own numbering), opens
// in place with its rows kept, and both engines then stand at the list's last version, each
// migration recorded once. PostgreSQL's rows are renumbered as the list's once, keeping when they
// were applied.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { PG_URL, postgresMissing } from '../store-backends.ts';
import { dropSchema, tempDir } from '../helpers.ts';
import { MIGRATIONS, PG_VERSIONS_BEFORE_34 } from '../../src/store/migrations.ts';
import { loadConfig } from '../../src/config.ts';
import { openStores } from '../../src/compose/open-stores.ts';
import { storeDb, type Stores } from '../../src/compose/stores.ts';
import { openPgStores } from '../../src/compose/open-pg-stores.ts';
import { randomToken } from '../../src/ids.ts';

const pgSkip = await postgresMissing();
const LAST = Math.max(...MIGRATIONS.map((m) => m.version));

/** Writes a workspace, a media and a job; returns what to find again. */
async function write(s: Stores): Promise<{ ws: string; media: string; job: string }> {
  const { workspace } = await s.workspaces.createWorkspace({ name: 'before', apiKey: `rk_${randomToken(24)}`, signingSecret: `whsec_${randomToken(24)}`, initialCredits: 10 });
  const media = await s.media.insert({ id: `med_${randomToken(12)}`, workspaceId: workspace.id, kind: 'transcript', filename: 'a.vtt', contentType: 'text/vtt', sizeBytes: 10, sha256: 'x', durationSec: null, label: 'kept', storagePath: '/x', transcript: null, analysisStatus: 'ready' });
  const job = await s.jobs.create({ workspaceId: workspace.id, type: 'report', request: { a: 1 }, cost: 1 });
  return { ws: workspace.id, media: media.id, job: job.id };
}

async function kept(s: Stores, before: { ws: string; media: string; job: string }): Promise<void> {
  assert.equal((await s.workspaces.getWorkspace(before.ws))?.name, 'before');
  assert.equal((await s.media.get(before.ws, before.media))?.label, 'kept');
  assert.equal((await s.jobs.get(before.ws, before.job))?.status, 'queued');
  assert.equal((await s.workspaces.usage(before.ws)).mediaBytes, 10);
  // And the upgraded store takes new rows.
  await s.jobs.create({ workspaceId: before.ws, type: 'report', request: {}, cost: 1 });
}

describe('a store of the release before one numbering opens in place (sqlite)', () => {
  it('at embedded version 11: rows kept, every version of the list recorded once', async () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
    try {
      const first = await openStores(config, () => undefined);
      const before = await write(first.stores);
      await first.stores.backend.close();
      const { stores } = await openStores(config, () => undefined);
      try {
        await kept(stores, before);
        const rows = await storeDb(stores).all<{ version: number; n: number }>('SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version');
        assert.deepEqual(rows.map((r) => ({ ...r })), MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
        // The release before stood at 11; what came after it (12: webhook destinations, issue 41) ran once.
        assert.ok(LAST >= 11, 'the embedded store was at 11');
      } finally {
        await stores.backend.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a store of the release before one numbering opens in place (postgres)', { skip: pgSkip ?? false }, () => {
  it("at PostgreSQL's own version 8: rows kept, versions renumbered as the list's, once", async () => {
    const schema = `n_${randomToken(12).toLowerCase()}`;
    const dir = tempDir();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const first = await openPgStores(PG_URL, dir, () => undefined, undefined, { schema, max: 2 });
      const before = await write(first.stores);
      await first.stores.backend.close();
      // The same schema as the release before left it: its own numbers 1 to 8, no numbering comment.
      await admin.query(`SET search_path TO ${schema}`);
      await admin.query('DELETE FROM schema_migrations');
      for (const version of Object.keys(PG_VERSIONS_BEFORE_34)) await admin.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [Number(version), `then ${version}`]);
      await admin.query('COMMENT ON TABLE schema_migrations IS NULL');
      // Two processes of the new release start together.
      const opened = await Promise.all([0, 1].map(() => openPgStores(PG_URL, dir, () => undefined, undefined, { schema, max: 2 })));
      try {
        for (const { stores } of opened) await kept(stores, before);
        const rows = (await admin.query<{ version: number; applied_at: string }>('SELECT version, applied_at FROM schema_migrations ORDER BY version')).rows;
        assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version), 'each version of the list once');
        assert.equal(Math.max(...rows.map((r) => r.version)), LAST);
        assert.equal(rows.find((r) => r.version === 4)?.applied_at, 'then 3', "PostgreSQL's version 3 was the list's 4");
        assert.equal(rows.find((r) => r.version === 5)?.applied_at, 'then 1', "the list's 5 came with its first schema");
      } finally {
        for (const { stores } of opened) await stores.backend.close();
      }
    } finally {
      await admin.end();
      await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
