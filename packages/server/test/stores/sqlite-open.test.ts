// Several processes may open one DATA_DIR at once (an admin command while the service starts, two
// admin commands): opening must wait for another process's lock, not fail with "database is
// locked", and the schema migrations must run once. The lock is held here by a raw connection
// while a child process opens the store.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SqliteDatabase } from '../../src/store/sqlite.ts';
import { tempDir } from '../helpers.ts';

const dir = tempDir('rapport-sqlite-open-');
const STORE = path.join(import.meta.dirname, '..', '..', 'src', 'store', 'sqlite.ts');

/** Opens the store in a child process; resolves with its exit code and stderr. */
function openInChild(file: string): Promise<{ code: number | null; stderr: string }> {
  const code = `import { SqliteDatabase } from ${JSON.stringify(STORE)}; await (await SqliteDatabase.open(${JSON.stringify(file)})).close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { env: { PATH: process.env.PATH ?? '' } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (c) => resolve({ code: c, stderr })));
}

describe('opening the embedded store from several processes', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('waits for a lock another process holds on a fresh file', async () => {
    const file = path.join(dir, 'fresh.db');
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN EXCLUSIVE; CREATE TABLE held (x INTEGER);');
    const opened = openInChild(file);
    await new Promise((r) => setTimeout(r, 400));
    holder.exec('COMMIT');
    holder.close();
    const r = await opened;
    assert.equal(r.code, 0, r.stderr);
  });

  it('applies each migration once when processes race to create the schema', async () => {
    const file = path.join(dir, 'race.db');
    const results = await Promise.all(Array.from({ length: 4 }, () => openInChild(file)));
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const db = await SqliteDatabase.open(file);
    const rows = await db.all<{ version: number; n: number }>('SELECT version, COUNT(*) AS n FROM schema_migrations GROUP BY version');
    await db.close();
    assert.ok(rows.length > 0);
    for (const row of rows) assert.equal(row.n, 1);
  });

  it('leaves the job events with the indexes their reads use, not the unused (workspace_id, id) one', async () => {
    const db = await SqliteDatabase.open(path.join(dir, 'indexes.db'));
    try {
      const names = (await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'job_events' AND sql IS NOT NULL ORDER BY 1")).map((r) => r.name);
      assert.deepEqual(names, ['job_events_age', 'job_events_ws_seq']);
    } finally {
      await db.close();
    }
  });
});
