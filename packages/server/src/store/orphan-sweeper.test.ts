// The periodic sweep of stored files without a media row: orphans were removed only when a
// process started, so a long-running process or a cluster whose crashed process left them kept
// them until the next start. While uploads are in flight it removes only files older than the
// safe age that no row claims; it runs on an unref'd timer that close() stops; a sweep that fails
// is logged and the next still runs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FileBlobStore, ORPHAN_BATCH, type SweepFs, type SweepLog } from './blob-store.ts';
import { ORPHAN_MIN_AGE_MS, OrphanSweeper, orphanSafeAgeMs } from './orphan-sweeper.ts';

const HOUR_MS = 3600 * 1000;

/** A fresh data folder for one test, removed after it whatever happens. */
async function inBlobDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-orphans-'));
  // The store makes it too; made first here so that files can be laid out before it exists.
  mkdirSync(path.join(dir, 'media'));
  try {
    await test(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A stored file written `ageMs` ago. */
function stored(dir: string, name: string, ageMs: number): void {
  const file = path.join(dir, 'media', name);
  writeFileSync(file, 'x');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(file, at, at);
}

function logged(): { log: SweepLog; lines: { msg: string; extra?: Record<string, unknown> }[] } {
  const lines: { msg: string; extra?: Record<string, unknown> }[] = [];
  return { lines, log: (msg, extra) => lines.push({ msg, ...(extra ? { extra } : {}) }) };
}

/** Waits until `done` holds, checking every few milliseconds; fails after `ms`. */
async function until(done: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) assert.fail('timed out waiting');
    await sleep(5);
  }
}

describe('the safe age of the periodic orphan sweep', () => {
  it('is an hour with the default store timeout, and grows with a longer one', () => {
    assert.equal(orphanSafeAgeMs(5), ORPHAN_MIN_AGE_MS);
    assert.equal(ORPHAN_MIN_AGE_MS, HOUR_MS);
    // 300 s per wait (DATABASE_TIMEOUT_SEC's largest): a row's transaction may take longer than an hour.
    assert.ok(orphanSafeAgeMs(300) > 300 * 1000 * 20, String(orphanSafeAgeMs(300)));
  });
});

describe('OrphanSweeper', () => {
  const age = orphanSafeAgeMs(5);

  it('removes an old orphan, keeps a young one and a file a row claims', () =>
    inBlobDir(async (dir) => {
      stored(dir, 'med_old', age + 60 * 1000);
      stored(dir, 'med_young', age - 60 * 1000);
      stored(dir, 'med_claimed', age + 60 * 1000);
      const asked: string[] = [];
      const sweeper = new OrphanSweeper(new FileBlobStore(dir), async (ids) => {
        asked.push(...ids);
        return new Set(ids.filter((id) => id === 'med_claimed'));
      }, { everyMs: HOUR_MS, olderThanMs: age, log: () => assert.fail('nothing to log') });
      assert.equal(await sweeper.sweep(), 1);
      assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), ['med_claimed', 'med_young']);
      assert.deepEqual(asked.sort(), ['med_claimed', 'med_old'], 'a young file is not even asked about');
      await sweeper.close();
    }));

  it('sweeps on its timer until closed, then never again', () =>
    inBlobDir(async (dir) => {
      let listings = 0;
      const fs: Partial<SweepFs> = { readdir: async (folder) => (listings++, readdir(folder)) };
      const sweeper = new OrphanSweeper(new FileBlobStore(dir, { fs }), async () => new Set(), { everyMs: 10, olderThanMs: age, log: () => undefined });
      assert.equal(listings, 0, 'no sweep before start');
      sweeper.start();
      sweeper.start(); // a second start adds no second timer
      await until(() => listings >= 3);
      await sweeper.close();
      const atClose = listings;
      await sleep(60);
      assert.equal(listings, atClose, 'no sweep after close');
      assert.equal(await sweeper.sweep(), null, 'closed: nothing swept');
      assert.equal(listings, atClose);
      sweeper.start();
      await sleep(30);
      assert.equal(listings, atClose, 'a closed sweeper does not start again');
      await sweeper.close(); // safe to call twice
    }));

  it('logs a sweep that fails at warn, and the next one still runs', () =>
    inBlobDir(async (dir) => {
      stored(dir, 'med_orphan', age + 60 * 1000);
      let listings = 0;
      const fs: Partial<SweepFs> = {
        readdir: async (folder) => {
          if (++listings === 1) throw Object.assign(new Error(`EIO: i/o error, scandir '${folder}'`), { code: 'EIO' });
          return readdir(folder);
        },
      };
      const { log, lines } = logged();
      const sweeper = new OrphanSweeper(new FileBlobStore(dir, { fs }), async () => new Set(), { everyMs: 10, olderThanMs: age, log });
      sweeper.start();
      await until(() => readdirSync(path.join(dir, 'media')).length === 0);
      await sweeper.close();
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.match(lines[0]?.msg ?? '', /periodic sweep of orphaned media files failed; it runs again/);
      assert.match(String(lines[0]?.extra?.err), /EIO/);
      assert.ok(listings >= 2);
    }));

  it('a store that does not answer is logged and nothing is removed', () =>
    inBlobDir(async (dir) => {
      stored(dir, 'med_orphan', age + 60 * 1000);
      const { log, lines } = logged();
      const sweeper = new OrphanSweeper(new FileBlobStore(dir), async () => Promise.reject(new Error('store gone')), { everyMs: HOUR_MS, olderThanMs: age, log });
      assert.equal(await sweeper.sweep(), null);
      assert.deepEqual(readdirSync(path.join(dir, 'media')), ['med_orphan']);
      assert.equal(lines[0]?.extra?.err, 'store gone');
      await sweeper.close();
    }));

  it('one sweep at a time: a sweep asked for while one runs is that one', () =>
    inBlobDir(async (dir) => {
      let listings = 0;
      const fs: Partial<SweepFs> = { readdir: async (folder) => (listings++, await sleep(20), readdir(folder)) };
      const sweeper = new OrphanSweeper(new FileBlobStore(dir, { fs }), async () => new Set(), { everyMs: HOUR_MS, olderThanMs: age, log: () => undefined });
      assert.deepEqual(await Promise.all([sweeper.sweep(), sweeper.sweep()]), [0, 0]);
      assert.equal(listings, 1);
      await sweeper.close();
    }));

  it('close stops a running sweep before its next batch and waits for it', () =>
    inBlobDir(async (dir) => {
      for (let i = 0; i < ORPHAN_BATCH + 5; i++) stored(dir, `med_${i}`, age + 60 * 1000);
      let questions = 0;
      let closing: Promise<void> | null = null;
      const sweeper = new OrphanSweeper(new FileBlobStore(dir), async (ids) => {
        questions++;
        // The service closes while the first batch is asked about.
        closing ??= sweeper.close();
        return new Set(ids);
      }, { everyMs: HOUR_MS, olderThanMs: age, log: () => undefined });
      assert.equal(await sweeper.sweep(), 0);
      await closing;
      assert.equal(questions, 1, 'no batch begun after close');
      assert.equal(readdirSync(path.join(dir, 'media')).length, ORPHAN_BATCH + 5);
    }));
});
