// PostgreSQL migrations under the advisory lock: processes that start together on a new schema
// create it and apply each migration once (CREATE SCHEMA IF NOT EXISTS alone fails in one of two
// sessions that run it at once). The embedded store's equivalent is sqlite-open.test.ts beside it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PG_URL, postgresMissing } from '../store-backends.ts';
import { PgDb } from '../../src/store/pg.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { dropSchema } from '../helpers.ts';
import { randomToken } from '../../src/ids.ts';

const pgSkip = await postgresMissing();

describe('PostgreSQL migrations (postgres)', { skip: pgSkip ?? false }, () => {
  it('six processes opening a new schema at once create it and migrate it once', async () => {
    const schema = `g_${randomToken(12).toLowerCase()}`;
    const dbs = await Promise.all(Array.from({ length: 6 }, () => PgDb.open(PG_URL, { schema, max: 1 })));
    try {
      const versions = await dbs[0]?.all<{ version: number; n: number }>('SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version ORDER BY version');
      assert.deepEqual(versions, MIGRATIONS.map((m) => ({ version: m.version, n: 1 })));
    } finally {
      for (const db of dbs) await db.close();
      await dropSchema(schema);
    }
  });

  it('leaves the job events with the indexes their reads use, not the unused (workspace_id, id) one', async () => {
    const schema = `g_${randomToken(12).toLowerCase()}`;
    const db = await PgDb.open(PG_URL, { schema, max: 1 });
    try {
      const names = (await db.all<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'job_events' ORDER BY 1", schema)).map((r) => r.indexname);
      assert.deepEqual(names, ['job_events_age', 'job_events_job_id_seq_key', 'job_events_pkey', 'job_events_ws_seq']);
    } finally {
      await db.close();
      await dropSchema(schema);
    }
  });
});
