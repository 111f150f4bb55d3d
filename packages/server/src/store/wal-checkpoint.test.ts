// Issue 32, finding 1: the embedded store's commits never copy the write-ahead log back into the
// database file on the event loop (wal-checkpoint.ts). Before, the commit that took the log past
// 1,000 pages did it, writing its whole transaction a second time: 25-30 ms for one 4 MiB
// transcript. Now a worker thread does it shortly after, on a connection of its own.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDatabase } from './sqlite.ts';
import { CHECKPOINT_DELAY_MS } from './wal-checkpoint.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-wal-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Files under `dir` that this process (any of its threads) holds open: Linux's /proc, else none known. */
function heldOpen(under: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  const held: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(under)) held.push(target);
    } catch {
      // closed while listed
    }
  }
  return held;
}

describe('checkpoints of the embedded store', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lets go of the file before close resolves: its directory can be removed at once, and stays removed', async () => {
    // CI once failed removing a test's directory (ENOTEMPTY): the worker opened, checkpointed or
    // closed its connection to a file whose store had closed already, and wrote beside it. This
    // test comes first in its file, so its first open starts the worker.
    for (let round = 0; round < 12; round++) {
      const own = mkdtempSync(path.join(os.tmpdir(), 'rapport-wal-close-'));
      const db = await SqliteDatabase.open(path.join(own, 'store.db'));
      if (round > 0) {
        // Round 0 closes at once, while the worker (started by this open) has yet to open the file.
        await db.run('CREATE TABLE t (v TEXT)');
        await db.transaction((tx) => tx.run('INSERT INTO t (v) VALUES (?)', 'z'.repeat(4 * 1024 * 1024)));
        await sleep(CHECKPOINT_DELAY_MS + (round % 4) * 3); // the worker's checkpoint is running about now
      }
      await db.close();
      assert.deepEqual(heldOpen(own), [], `round ${round}: a connection still holds the store's files after close`);
      rmSync(own, { recursive: true }); // no retries: nothing may be writing there any more
      await sleep(20);
      assert.equal(existsSync(own), false, `round ${round}: something wrote into the directory after close`);
    }
  });

  it('leaves a large commit in the log, and the log is copied into the file soon after, off the event loop', async () => {
    const file = path.join(dir, 'big.db');
    const db = await SqliteDatabase.open(file);
    try {
      await db.run('CREATE TABLE big (v TEXT)');
      await sleep(500); // what the migrations and the table wrote is checkpointed by now
      const before = statSync(file).size;
      const bytes = 8 * 1024 * 1024; // 2,000 pages: past the 1,000 at which a commit used to checkpoint
      await db.transaction((tx) => tx.run('INSERT INTO big (v) VALUES (?)', 'x'.repeat(bytes)));
      // No timer has run since the commit: nothing but the commit itself can have written the file.
      const afterCommit = statSync(file).size;
      assert.ok(afterCommit - before < bytes / 8, `the commit copied the log into the file itself (${before} -> ${afterCommit} bytes)`);
      let size = afterCommit;
      for (let waited = 0; waited < 10_000 && size - before < bytes; waited += 50) {
        await sleep(50);
        size = statSync(file).size;
      }
      assert.ok(size - before >= bytes, `the log was not checkpointed into the file within 10 s (${before} -> ${size} bytes)`);
      assert.equal((await db.get<{ n: number }>('SELECT length(v) AS n FROM big'))?.n, bytes);
    } finally {
      await db.close();
    }
  });

  it('keeps a reopened file whole: what the worker had not copied yet is read from the log', async () => {
    const file = path.join(dir, 'reopen.db');
    const db = await SqliteDatabase.open(file);
    await db.run('CREATE TABLE t (v TEXT)');
    await db.transaction((tx) => tx.run('INSERT INTO t (v) VALUES (?)', 'y'.repeat(6 * 1024 * 1024)));
    await db.close(); // at once, before any checkpoint of the worker
    const again = await SqliteDatabase.open(file);
    try {
      assert.equal((await again.get<{ n: number }>('SELECT length(v) AS n FROM t'))?.n, 6 * 1024 * 1024);
    } finally {
      await again.close();
    }
  });

});
