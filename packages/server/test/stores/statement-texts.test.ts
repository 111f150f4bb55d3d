// Issue 41, finding 6: the embedded store kept every distinct SQL text's prepared statement for
// ever, and the webhook dispatcher's `url NOT IN (?, …)` list of up to 2,560 saturated URLs made
// one text per length (780 MB of cached statements for 2,560). Queries over a list of values now
// have one text whatever the list's length (one JSON parameter), on both engines, and the
// embedded store keeps at most 500 prepared statements, as the PostgreSQL adapter does.
import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { storeDb } from '../../src/compose/stores.ts';
import { SqlWebhookStore } from '../../src/webhooks/webhooks.store.ts';
import { SqlEntityStore } from '../../src/entities/entities.store.ts';
import { SqliteDatabase } from '../../src/store/sqlite.ts';
import type { Sql } from '../../src/store/sql.ts';
import { tempDir } from '../helpers.ts';
import { newId, nowIso } from '../../src/ids.ts';

const pgSkip = await postgresMissing();

/** The SQL texts `db` was asked to run, through a view of it that records them. */
function recording(db: Sql): { sql: Sql; texts: Set<string> } {
  const texts = new Set<string>();
  return { sql: recordingInto(db, texts), texts };
}

function recordingInto(db: Sql, texts: Set<string>): Sql {
  return {
    dialect: db.dialect,
    all: (text, ...p) => (texts.add(text), db.all(text, ...p)),
    get: (text, ...p) => (texts.add(text), db.get(text, ...p)),
    run: (text, ...p) => (texts.add(text), db.run(text, ...p)),
    transaction: (fn) => db.transaction((tx) => fn(recordingInto(tx, texts))),
  };
}

for (const backend of BACKENDS) {
  describe(`statements over lists of values (${backend.name})`, { skip: (backend.name === 'postgres' && pgSkip) || false }, () => {
    let t: OpenedTestStores;
    let workspaceId: string;
    beforeEach(async () => {
      t = await backend.open();
      workspaceId = await newWorkspace(t.stores);
    });
    afterEach(() => t.close());

    it('reads due deliveries leaving out any number of destinations with one statement text', async () => {
      for (let i = 0; i < 6; i++) {
        const job = await t.stores.jobs.create({ workspaceId, type: 'report', request: {}, cost: 0 });
        await t.stores.jobs.fail(job.id, { code: 'canceled', message: 'x' }, { type: 'report.failed', data: { jobId: job.id, status: 'failed' }, webhook: { url: `http://r${i % 3}.test/hook` } });
      }
      const { sql, texts } = recording(storeDb(t.stores));
      const store = new SqlWebhookStore(sql);
      const now = Date.now() + 1000;
      const origins = (n: number) => Array.from({ length: n }, (_, i) => `http://r${i}.test`);
      const left = (destinations: string[]) => ({ destinations, workspaces: [] });
      assert.equal((await store.dueCandidates(now, left([]), 100, 100)).length, 6);
      assert.deepEqual((await store.dueCandidates(now, left(origins(1)), 100, 100)).map((c) => c.url).sort(), ['http://r1.test/hook', 'http://r1.test/hook', 'http://r2.test/hook', 'http://r2.test/hook']);
      assert.deepEqual((await store.dueCandidates(now, left(origins(2)), 100, 100)).map((c) => c.url), ['http://r2.test/hook', 'http://r2.test/hook']);
      assert.equal((await store.dueCandidates(now, left([...origins(3), ...Array.from({ length: 2557 }, (_, i) => `http://dead${i}.test`)]), 100, 100)).length, 0);
      assert.equal(texts.size, 1, [...texts].join('\n---\n'));
    });

    it('reads the labels of any number of entities with one statement text', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const id = newId('ent');
        await t.exec("INSERT INTO entities (id, workspace_id, label, tags_json, voiceprint_json, created_at, updated_at, seq) VALUES (?, ?, ?, '[]', NULL, ?, ?, nextval('rapport_seq'))", id, workspaceId, `P${i}`, nowIso(), nowIso());
        ids.push(id);
      }
      const { sql, texts } = recording(storeDb(t.stores));
      const entities = new SqlEntityStore(sql);
      for (let n = 1; n <= 5; n++) assert.equal(Object.keys(await entities.labels(workspaceId, ids.slice(0, n))).length, n);
      assert.equal((await entities.labels(workspaceId, ids))[ids[4] ?? '']?.label, 'P4');
      assert.equal(texts.size, 1, [...texts].join('\n---\n'));
    });
  });
}

describe('the embedded store\'s prepared statements', () => {
  const dir = tempDir('rapport-statements-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps at most 500, the most recently used', async () => {
    const db = await SqliteDatabase.open(path.join(dir, 'rapport.db'));
    try {
      for (let i = 0; i < 2000; i++) await db.get(`SELECT ${i} AS n`);
      assert.equal(db.cachedStatements, 500);
      assert.equal((await db.get<{ n: number }>('SELECT 1999 AS n'))?.n, 1999);
      assert.equal((await db.get<{ n: number }>('SELECT 3 AS n'))?.n, 3, 'a statement let go is prepared again');
      assert.equal(db.cachedStatements, 500);
    } finally {
      await db.close();
    }
  });
});
