// Issue 32, finding 1: the embedded store's commits never copy the write-ahead log back into the
// database file on the event loop (wal-checkpoint.ts). Before, the commit that took the log past
// 1,000 pages did it, writing its whole transaction a second time: 25-30 ms for one 4 MiB
// transcript. Now a worker thread does it shortly after, on a connection of its own.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDatabase } from './sqlite.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-wal-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('checkpoints of the embedded store', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

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
