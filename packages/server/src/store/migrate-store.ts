// `rapport migrate-store --from DATA_DIR --to DATABASE_URL`: copies every table of the embedded
// store into an empty PostgreSQL store, keeping every id and ordering number (so API ids, list
// cursors and Last-Event-ID values stay valid), in one PostgreSQL transaction, then moves the
// PostgreSQL sequences past the copied numbers and checks that every table holds as many rows as
// the embedded one. Uploaded files are not moved: their rows keep their paths, so MEDIA_DIR must
// keep pointing at the same folder (docs/deploy.md).
import path from 'node:path';
import { existsSync } from 'node:fs';
import { SqliteDatabase } from './sqlite.ts';
import { PgDb, type PgExec, type PgValue } from './pg.ts';

/** Every table, parents first; schema_migrations stays each store's own, counters are carried over below. */
export const TABLES = [
  'workspaces', 'job_event_counters', 'api_keys', 'signing_secret_history', 'media', 'content_links', 'entities', 'appearances', 'jobs', 'job_events', 'results',
  'tasks', 'queue_turns', 'idempotency_keys', 'credit_transactions', 'feedback', 'events', 'webhook_deliveries', 'delivery_attempts',
  'service_keys',
] as const;

/** PostgreSQL allows 65,535 parameters per statement. */
const MAX_PARAMS = 60_000;

export interface MigrateReport {
  tables: Record<string, { embedded: number; postgres: number }>;
  ok: boolean;
}

export class MigrateStoreError extends Error {}

async function copyTable(sqlite: SqliteDatabase, tx: PgExec, table: string): Promise<void> {
  const columns = (await tx.all<{ column_name: string }>('SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position', table)).map((c) => c.column_name);
  const embeddedColumns = (await sqlite.all<{ name: string }>(`PRAGMA table_info(${table})`)).map((c) => c.name);
  const missing = embeddedColumns.filter((c) => !columns.includes(c));
  if (missing.length > 0) throw new MigrateStoreError(`${table}: the PostgreSQL store has no column ${missing.join(', ')}`);
  const cols = embeddedColumns;
  const perBatch = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  const rows = await sqlite.all<Record<string, PgValue>>(`SELECT ${cols.join(', ')} FROM ${table}`);
  for (let i = 0; i < rows.length; i += perBatch) {
    const batch = rows.slice(i, i + perBatch);
    const params: PgValue[] = [];
    const values = batch.map((row) => `(${cols.map((c) => {
      params.push(row[c] ?? null);
      return `$${params.length}`;
    }).join(', ')})`);
    await tx.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values.join(', ')}`, ...params);
  }
}

/** Copies the embedded store of `dataDir` into the (empty) PostgreSQL store of `url`. */
export async function migrateStore(dataDir: string, url: string, schema = 'public'): Promise<MigrateReport> {
  const file = path.join(dataDir, 'rapport.db');
  if (!existsSync(file)) throw new MigrateStoreError(`no embedded store at ${file}`);
  const sqlite = await SqliteDatabase.open(file);
  // A bulk copy: statements may take longer than a request's (DATABASE_TIMEOUT_SEC).
  const pg = await PgDb.open(url, schema === 'public' ? { max: 2, timeoutMs: 120_000 } : { schema, max: 2, timeoutMs: 120_000 });
  try {
    const report = await pg.transaction(async (tx) => {
      // A service that opened the new store made its own keys; the embedded store's are kept, so
      // that the cursors it handed out stay valid.
      await tx.run('DELETE FROM service_keys');
      for (const table of TABLES) {
        if (((await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0) > 0) {
          throw new MigrateStoreError(`the PostgreSQL store is not empty (${table} has rows): migrate into a new database or schema`);
        }
      }
      for (const table of TABLES) await copyTable(sqlite, tx, table);
      // New rows number on from the copied ones.
      const seqTables = ['media', 'entities', 'jobs', 'credit_transactions', 'feedback', 'webhook_deliveries'];
      const maxSeq = Math.max(0, ...(await Promise.all(seqTables.map(async (t) => (await tx.get<{ m: number | null }>(`SELECT MAX(seq) AS m FROM ${t}`))?.m ?? 0))),
        (await tx.get<{ m: number | null }>('SELECT MAX(last_claim) AS m FROM queue_turns'))?.m ?? 0);
      if (maxSeq > 0) await tx.run("SELECT setval('rapport_seq', $1)", maxSeq);
      // The media change counter (its row exists in both stores): media event ids go on from it.
      for (const c of await sqlite.all<{ name: string; value: number }>('SELECT name, value FROM counters')) {
        await tx.run('INSERT INTO counters (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value', c.name, c.value);
      }
      for (const t of ['job_events', 'tasks']) {
        await tx.run(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM ${t}), 1))`);
      }
      const tables: MigrateReport['tables'] = {};
      for (const table of TABLES) {
        tables[table] = {
          embedded: (await sqlite.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0,
          postgres: (await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))?.n ?? 0,
        };
      }
      const ok = Object.values(tables).every((c) => c.embedded === c.postgres);
      // Counts that differ undo the whole copy.
      if (!ok) throw new MigrateStoreError(`row counts differ after the copy: ${JSON.stringify(tables)}`);
      return { tables, ok };
    });
    return report;
  } finally {
    await sqlite.close();
    await pg.close();
  }
}
