// The store suite (one suite, two backends): the start-up sweep of stored files without a media
// row (serve.ts). It asked the store about one file at a time, a round trip each: 100,000 of them
// on PostgreSQL at each start of a deployment with 100,000 media. The store now answers which of
// a batch of ids have rows in one query; the statements are counted through the store's database.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { newId } from '../../src/ids.ts';
import { storeDb } from '../../src/compose/stores.ts';
import { SqlMediaStore } from '../../src/files/media.store.ts';
import type { Sql } from '../../src/store/sql.ts';

const pgSkip = await postgresMissing();

/** The database, its statements counted (transactions are the store's writes: not counted). */
function counted(db: Sql): { db: Sql; statements: () => number } {
  let n = 0;
  return {
    statements: () => n,
    db: {
      dialect: db.dialect,
      get: (sql, ...p) => (n++, db.get(sql, ...p)),
      all: (sql, ...p) => (n++, db.all(sql, ...p)),
      run: (sql, ...p) => (n++, db.run(sql, ...p)),
      transaction: (fn) => db.transaction(fn),
    },
  };
}

for (const backend of BACKENDS) {
  describe(`the start-up sweep of files without a media row (${backend.name})`, { skip: backend.name === 'postgres' && pgSkip ? pgSkip : false }, () => {
    let t: OpenedTestStores;
    let ws = '';
    let other = '';
    before(async () => {
      t = await backend.open();
      ws = await newWorkspace(t.stores);
      other = await newWorkspace(t.stores);
    });
    after(() => t?.close());

    async function row(workspaceId = ws, id = newId('med')): Promise<string> {
      await t.stores.media.insert({
        id, workspaceId, kind: 'transcript', filename: 'a.vtt', contentType: 'text/vtt', sizeBytes: 1, sha256: '0'.repeat(64),
        durationSec: 1, label: null, storagePath: `/tmp/${id}`, transcript: null, analysisStatus: 'ready',
      });
      return id;
    }

    it('answers which of the ids have rows, of any workspace, in one query', async () => {
      const mine = await row();
      const theirs = await row(other);
      const { db, statements } = counted(storeDb(t.stores));
      const media = new SqlMediaStore(db);
      const found = await media.idsWithRows([newId('med'), mine, newId('med'), theirs, "med_'; --"]);
      assert.deepEqual([...found].sort(), [mine, theirs].sort());
      assert.equal(statements(), 1);
      assert.deepEqual([...(await media.idsWithRows([]))], []);
      assert.equal(statements(), 1, 'no ids, no query');
    });
  });
}
