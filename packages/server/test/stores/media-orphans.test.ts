// The store suite (one suite, two backends): the start-up sweep of stored files without a media
// row (serve.ts). It asked the store about one file at a time, a round trip each: 100,000 of them
// on PostgreSQL at each start of a deployment with 100,000 media. The store now answers which of
// a batch of files rows name in one query; the statements are counted through the store's database.
// A row claims the file it names and its media's plain name (which only a rename replaces, whole):
// its media's other files (a failed attach's audio, a name beside once the row names another) are
// orphans. And the row's compare-and-set onto another name of its file (files/plain-names.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BACKENDS, newWorkspace, postgresMissing, type OpenedTestStores } from '../store-backends.ts';
import { newId } from '../../src/ids.ts';
import { storeDb } from '../../src/compose/stores.ts';
import { SqlMediaStore } from '../../src/files/media.store.ts';
import { FileBlobStore, ORPHAN_BATCH } from '../../src/store/blob-store.ts';
import { countedSql } from '../counted-sql.ts';
import { tempDir } from '../helpers.ts';

const pgSkip = await postgresMissing();


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

    async function row(workspaceId = ws, id = newId('med'), file = id): Promise<string> {
      await t.stores.media.insert({
        id, workspaceId, kind: 'transcript', filename: 'a.vtt', contentType: 'text/vtt', sizeBytes: 1, sha256: '0'.repeat(64),
        durationSec: 1, label: null, storagePath: `/tmp/${file}`, transcript: null, analysisStatus: 'ready',
      });
      return id;
    }

    it('answers which of the ids have rows, of any workspace, in one query', async () => {
      const mine = await row();
      const theirs = await row(other);
      const { db, statements } = countedSql(storeDb(t.stores));
      const media = new SqlMediaStore(db);
      const found = await media.filesWithRows([newId('med'), mine, newId('med'), theirs, "med_'; --"]);
      assert.deepEqual([...found].sort(), [mine, theirs].sort());
      assert.equal(statements(), 1);
      assert.deepEqual([...(await media.filesWithRows([]))], []);
      assert.equal(statements(), 1, 'no ids, no query');
    });

    it("answers the file a row names and its media's plain name, not its media's other files", async () => {
      const id = newId('med');
      await row(ws, id, `${id}.audio1`);
      const { db, statements } = countedSql(storeDb(t.stores));
      const found = await new SqlMediaStore(db).filesWithRows([id, `${id}.audio1`, `${id}.audio2`, `${newId('med')}.audio1`]);
      assert.deepEqual([...found].sort(), [id, `${id}.audio1`].sort());
      assert.equal(statements(), 1);
    });

    it("names another name of a row's file only while the row still names the one it is told (a compare-and-set)", async () => {
      const id = await row(ws, newId('med'), 'x.beside');
      const { media } = t.stores;
      assert.deepEqual(await media.storagePaths([id, newId('med')]), new Map([[id, '/tmp/x.beside']]));
      assert.equal(await media.renameFile(id, '/tmp/x.other', `/tmp/${id}`), false);
      assert.equal(await media.renameFile(id, '/tmp/x.beside', `/tmp/${id}`), true);
      assert.equal(await media.renameFile(id, '/tmp/x.beside', `/tmp/${id}`), false, 'once');
      assert.equal(await media.renameFile(newId('med'), '/tmp/x.beside', '/tmp/y'), false, 'no row');
      assert.deepEqual(await media.storagePaths([id]), new Map([[id, `/tmp/${id}`]]));
      assert.deepEqual(await media.storagePaths([]), new Map());
    });

    it('sweeps more files than a batch holds with one query per batch, keeps rows and young files, and the file of a row committed meanwhile', async () => {
      const dir = tempDir();
      try {
        const blobs = new FileBlobStore(dir);
        const folder = path.join(dir, 'media');
        const claimed = [await row(), await row(other), await row()];
        const files = [...claimed, ...Array.from({ length: 2 * ORPHAN_BATCH + 3 - claimed.length }, () => newId('med'))];
        const hourAgo = (Date.now() - 3600 * 1000) / 1000;
        for (const id of files) {
          writeFileSync(path.join(folder, id), 'x');
          utimesSync(path.join(folder, id), hourAgo, hourAgo);
        }
        const young = newId('med');
        writeFileSync(path.join(folder, young), 'x');
        const { db, statements } = countedSql(storeDb(t.stores));
        const media = new SqlMediaStore(db);
        let late: string | undefined;
        let batches = 0;
        const removed = await blobs.sweepOrphans(async (ids) => {
          batches++;
          if (late === undefined) {
            // An upload's row committed while the first batch is asked about, for a file of a later batch.
            late = files.find((id) => !ids.includes(id) && !claimed.includes(id));
            assert.ok(late);
            await row(ws, late);
          }
          return media.filesWithRows(ids);
        }, 60 * 1000);
        assert.equal(batches, 3);
        assert.equal(statements(), 3, 'one query per batch');
        assert.equal(removed, files.length - claimed.length - 1);
        assert.deepEqual(readdirSync(folder).sort(), [...claimed, late, young].sort());
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
