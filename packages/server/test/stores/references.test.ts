// Reference checks of job creation (issue 21): whether the media and entities a request names
// exist in its workspace, on both backends; on PostgreSQL the checks asked for while one runs are
// answered together by the next statement, and a batch of creations is one statement, with no
// BEGIN and COMMIT around it (each was a round trip costing the server more than its work).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { newId, nowIso } from '../../src/ids.ts';
import type { Stores } from '../../src/compose/stores.ts';
import type { PgStores } from '../../src/compose/open-pg-stores.ts';
import type { Reference } from '../../src/jobs/references.store.ts';

const pgSkip = await postgresMissing();

async function addMedia(t: OpenedTestStores, workspaceId: string): Promise<string> {
  const id = newId('med');
  await t.stores.media.insert({
    id, workspaceId, kind: 'transcript', filename: 'talk.vtt', contentType: 'text/vtt', sizeBytes: 100, sha256: '0'.repeat(64),
    durationSec: 60, label: null, storagePath: path.join('/nonexistent', id), transcript: null, analysisStatus: 'pending',
  });
  return id;
}

let entitySeq = Date.now();

async function addEntity(t: OpenedTestStores, workspaceId: string): Promise<string> {
  const id = newId('ent');
  // (seq given: the embedded store's column has no default.)
  await t.exec('INSERT INTO entities (id, workspace_id, label, tags_json, created_at, updated_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)', id, workspaceId, 'Alex', '[]', nowIso(), nowIso(), ++entitySeq);
  return id;
}

for (const backend of BACKENDS) {
  describe(`reference checks (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    before(async () => {
      t = await backend.open();
    });
    after(() => t?.close());

    it("answers each reference in its own workspace, asked for together with other workspaces' and twice over", async () => {
      const a = await newWorkspace(t.stores);
      const b = await newWorkspace(t.stores);
      const [mediaA, entityA, mediaB] = [await addMedia(t, a), await addEntity(t, a), await addMedia(t, b)];
      const asked: [string, Reference[], boolean[]][] = [
        [a, [{ kind: 'media', id: mediaA }, { kind: 'entity', id: entityA }], [true, true]],
        // The other workspace's media, an entity id given as media and a media id given as entity.
        [a, [{ kind: 'media', id: mediaB }, { kind: 'media', id: entityA }, { kind: 'entity', id: mediaA }], [false, false, false]],
        [b, [{ kind: 'media', id: mediaB }, { kind: 'media', id: mediaA }, { kind: 'entity', id: 'ent_missing' }], [true, false, false]],
        [a, [{ kind: 'media', id: mediaA }, { kind: 'media', id: mediaA }], [true, true]],
        [a, [], []],
      ];
      const answers = await Promise.all(asked.map(([ws, refs]) => t.stores.references.exist(ws, refs)));
      assert.deepEqual(answers, asked.map(([, , expected]) => expected));
    });
  });
}

describe('reference checks and creations on PostgreSQL: round trips', { skip: pgSkip ?? false }, () => {
  let t: OpenedTestStores;
  let stores: PgStores;
  const statements: string[] = [];
  let transactions = 0;
  /** Creation statements to abort as PostgreSQL aborts a deadlock's victim (40P01), before they run. */
  let deadlocks = 0;
  before(async () => {
    t = await (BACKENDS.find((b) => b.name === 'postgres') as (typeof BACKENDS)[number]).open();
    stores = t.stores as PgStores;
    // Every statement the stores run on the pool goes through these (transactions hold their own Exec).
    const db = stores.db;
    for (const method of ['all', 'get', 'run'] as const) {
      const original = db[method].bind(db) as (sql: string, ...params: never[]) => Promise<unknown>;
      (db as unknown as Record<string, unknown>)[method] = (sql: string, ...params: never[]) => {
        statements.push(sql);
        if (deadlocks > 0 && sql.includes('INSERT INTO jobs')) {
          deadlocks--;
          return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
        }
        return original(sql, ...params);
      };
    }
    const transaction = db.transaction.bind(db);
    db.transaction = ((fn) => {
      transactions++;
      return transaction(fn);
    }) as typeof db.transaction;
  });
  after(() => t?.close());

  const counted = async <T>(fn: (s: Stores) => Promise<T>) => {
    statements.length = 0;
    transactions = 0;
    const out = await fn(stores);
    return { out, statements: statements.length, transactions };
  };

  it('twenty requests checking their references at once share one statement', async () => {
    const ws = await newWorkspace(stores);
    const media = await addMedia(t, ws);
    const entity = await addEntity(t, ws);
    const { out, statements: n } = await counted((s) => Promise.all(Array.from({ length: 20 }, (_, i) => s.references.exist(ws, [
      { kind: 'media', id: i % 2 ? media : `med_gone${i}` }, { kind: 'entity', id: entity },
    ]))));
    assert.deepEqual(out, Array.from({ length: 20 }, (_, i) => [i % 2 === 1, true]));
    assert.equal(n, 1);
  });

  it('a batch of creations is one statement, outside any transaction of the pool', async () => {
    const ws = await newWorkspace(stores, 100);
    const { out, statements: n, transactions: tx } = await counted((s) => Promise.all(Array.from({ length: 10 }, (_, i) => s.jobs.create({ workspaceId: ws, type: 'report', request: { i }, cost: 1 }))));
    assert.equal(out.length, 10);
    assert.equal(n, 1);
    assert.equal(tx, 0);
    assert.equal(await t.count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', ws), 10);
    assert.equal(await t.count('SELECT COUNT(*) AS n FROM tasks WHERE workspace_id = ?', ws), 10);
    assert.equal((await stores.credits.balance(ws))?.reserved, 10);
  });

  it('a creation aborted as a deadlock victim is written again (twice here), and exactly once', async () => {
    const ws = await newWorkspace(stores, 100);
    deadlocks = 2;
    const job = await stores.jobs.create({ workspaceId: ws, type: 'report', request: {}, cost: 1 });
    assert.equal(deadlocks, 0);
    assert.equal(await t.count('SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?', ws), 1);
    assert.equal(await t.count('SELECT COUNT(*) AS n FROM jobs WHERE id = ?', job.id), 1);
    assert.equal((await stores.credits.balance(ws))?.reserved, 1);
  });
});
