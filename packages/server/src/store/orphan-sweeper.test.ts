// The periodic sweep of stored files without a media row: orphans were removed only when a
// process started, so a long-running process or a cluster whose crashed process left them kept
// them until the next start. While uploads are in flight it removes only files older than the
// safe age that no row claims; it runs on an unref'd timer that close() stops; a sweep that fails
// is logged and the next still runs. It sweeps temporary files of crashed uploads too, by their
// age alone (a crashed worker's partial uploads stayed until some process restarted): a file an
// upload is still writing is never old, whatever its name or its first write. A file it cannot
// remove is warned about once per process, then told at debug (it was warned at every sweep).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inBlobDir as inBlobFolder } from './blob-dir.testkit.ts';
import { FileBlobStore, ORPHAN_BATCH, TEMP_TOUCH_EVERY_MS, warnOncePerFile, type SweepFs, type SweepLog } from './blob-store.ts';
import { ORPHAN_MIN_AGE_MS, OrphanSweeper, orphanSafeAgeMs, tempSafeAgeMs } from './orphan-sweeper.ts';

const HOUR_MS = 3600 * 1000;

/** A fresh data folder with its media folder made, removed after the test whatever happens. */
const inBlobDir = (test: (dir: string) => Promise<void>): Promise<void> => inBlobFolder(test, { withMedia: true });


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
  const tempAge = tempSafeAgeMs(60, 5);

  it('removes an old orphan, keeps a young one and a file a row claims', () =>
    inBlobDir(async (dir) => {
      stored(dir, 'med_old', age + 60 * 1000);
      stored(dir, 'med_young', age - 60 * 1000);
      stored(dir, 'med_claimed', age + 60 * 1000);
      const asked: string[] = [];
      const sweeper = new OrphanSweeper(new FileBlobStore(dir), async (ids) => {
        asked.push(...ids);
        return new Set(ids.filter((id) => id === 'med_claimed'));
      }, { everyMs: HOUR_MS, olderThanMs: age, tempOlderThanMs: tempAge, log: () => assert.fail('nothing to log') });
      assert.deepEqual(await sweeper.sweep(), { temp: 0, orphans: 1 });
      assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), ['med_claimed', 'med_young']);
      assert.deepEqual(asked.sort(), ['med_claimed', 'med_old'], 'a young file is not even asked about');
      await sweeper.close();
    }));

  it('sweeps on its timer until closed, then never again', () =>
    inBlobDir(async (dir) => {
      let listings = 0;
      const fs: Partial<SweepFs> = { readdir: async (folder) => (path.basename(folder) === 'media' && listings++, readdir(folder)) };
      const sweeper = new OrphanSweeper(new FileBlobStore(dir, { fs }), async () => new Set(), { everyMs: 10, olderThanMs: age, tempOlderThanMs: tempAge, log: () => undefined });
      assert.equal(listings, 0, 'no sweep before start');
      sweeper.start();
      sweeper.start(); // a second start adds no second timer
      await until(() => listings >= 3);
      await sweeper.close();
      const atClose = listings;
      await sleep(60);
      assert.equal(listings, atClose, 'no sweep after close');
      assert.deepEqual(await sweeper.sweep(), { temp: null, orphans: null }, 'closed: nothing swept');
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
          if (path.basename(folder) === 'media' && ++listings === 1) throw Object.assign(new Error(`EIO: i/o error, scandir '${folder}'`), { code: 'EIO' });
          return readdir(folder);
        },
      };
      const { log, lines } = logged();
      const sweeper = new OrphanSweeper(new FileBlobStore(dir, { fs }), async () => new Set(), { everyMs: 10, olderThanMs: age, tempOlderThanMs: tempAge, log });
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
      const sweeper = new OrphanSweeper(new FileBlobStore(dir), async () => Promise.reject(new Error('store gone')), { everyMs: HOUR_MS, olderThanMs: age, tempOlderThanMs: tempAge, log });
      assert.deepEqual(await sweeper.sweep(), { temp: 0, orphans: null });
      assert.deepEqual(readdirSync(path.join(dir, 'media')), ['med_orphan']);
      assert.equal(lines[0]?.extra?.err, 'store gone');
      await sweeper.close();
    }));

  it('one sweep at a time: a sweep asked for while one runs is that one', () =>
    inBlobDir(async (dir) => {
      let listings = 0;
      const fs: Partial<SweepFs> = { readdir: async (folder) => (path.basename(folder) === 'media' && listings++, await sleep(20), readdir(folder)) };
      const sweeper = new OrphanSweeper(new FileBlobStore(dir, { fs }), async () => new Set(), { everyMs: HOUR_MS, olderThanMs: age, tempOlderThanMs: tempAge, log: () => undefined });
      const none = { temp: 0, orphans: 0 };
      assert.deepEqual(await Promise.all([sweeper.sweep(), sweeper.sweep()]), [none, none]);
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
      }, { everyMs: HOUR_MS, olderThanMs: age, tempOlderThanMs: tempAge, log: () => undefined });
      assert.deepEqual(await sweeper.sweep(), { temp: 0, orphans: 0 });
      await closing;
      assert.equal(questions, 1, 'no batch begun after close');
      assert.equal(readdirSync(path.join(dir, 'media')).length, ORPHAN_BATCH + 5);
    }));
});

describe('the periodic sweep of temporary upload files', () => {
  const tempAge = tempSafeAgeMs(60, 5);
  const sweeperOf = (blobs: FileBlobStore, log: SweepLog = () => assert.fail('nothing to log')) =>
    new OrphanSweeper(blobs, async () => new Set(), { everyMs: HOUR_MS, olderThanMs: orphanSafeAgeMs(5), tempOlderThanMs: tempAge, log });
  const backdate = (file: string, ageMs: number) => {
    const at = (Date.now() - ageMs) / 1000;
    utimesSync(file, at, at);
  };
  const written = (stream: NodeJS.WritableStream, chunk: string) => new Promise<void>((resolve, reject) => stream.write(chunk, (err) => (err ? reject(err) : resolve())));

  it('is longer than the idle timeout and the orphans\' safe age', () => {
    assert.equal(tempSafeAgeMs(60, 5), 60 * 1000 + HOUR_MS);
    assert.equal(tempSafeAgeMs(3600, 300), 3600 * 1000 + orphanSafeAgeMs(300));
    // A live upload's file is touched many times within the least of it, on every configuration.
    assert.ok(12 * TEMP_TOUCH_EVERY_MS <= tempSafeAgeMs(1, 1));
  });

  it('removes a crashed upload\'s old file, keeps a fresh one of this very process and one being written', () =>
    inBlobDir(async (dir) => {
      const blobs = new FileBlobStore(dir);
      const tmp = path.join(dir, 'tmp');
      // A worker that crashed long ago, on this host or another: its name is no reason to keep it.
      const crashed = path.join(tmp, 'upload-h00000000-4194305-1-aaaa');
      writeFileSync(crashed, 'x');
      backdate(crashed, tempAge + 60 * 1000);
      // Named with this process's pid: the start-up sweep would take it for an earlier process's.
      const fresh = blobs.createTemp();
      fresh.stream.end('x');
      await new Promise<void>((r) => fresh.stream.once('close', () => r()));
      // An upload that began long ago and is still receiving: each chunk written moves its time.
      const live = blobs.createTemp();
      await written(live.stream, 'first bytes');
      backdate(live.path, tempAge + 60 * 1000);
      await written(live.stream, 'more bytes');
      const sweeper = sweeperOf(blobs);
      assert.deepEqual(await sweeper.sweep(), { temp: 1, orphans: 0 });
      assert.deepEqual(readdirSync(tmp).sort(), [path.basename(fresh.path), path.basename(live.path)].sort());
      live.stream.end();
      await new Promise<void>((r) => live.stream.once('close', () => r()));
      await sweeper.close();
    }));

  it('a temporary folder it cannot list is logged, and the orphans are still swept', () =>
    inBlobDir(async (dir) => {
      stored(dir, 'med_orphan', orphanSafeAgeMs(5) + 60 * 1000);
      const fs: Partial<SweepFs> = {
        readdir: async (folder) => {
          if (path.basename(folder) === 'tmp') throw Object.assign(new Error(`EACCES: permission denied, scandir '${folder}'`), { code: 'EACCES' });
          return readdir(folder);
        },
      };
      const { log, lines } = logged();
      const sweeper = sweeperOf(new FileBlobStore(dir, { fs }), log);
      assert.deepEqual(await sweeper.sweep(), { temp: null, orphans: 1 });
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.match(lines[0]?.msg ?? '', /periodic sweep of temporary upload files failed; it runs again in 3600 s/);
      await sweeper.close();
    }));
});

describe('a file the sweeps cannot remove is warned about once per process', () => {
  it('at warn at the first periodic sweep, at debug at the next; a failed sweep is always a warning', () =>
    inBlobDir(async (dir) => {
      const age = orphanSafeAgeMs(5);
      stored(dir, 'med_stuck', age + 60 * 1000);
      const fs: Partial<SweepFs> = {
        rm: async (file) => {
          throw Object.assign(new Error(`EPERM: operation not permitted, unlink '${file}'`), { code: 'EPERM' });
        },
      };
      const warned = logged();
      const debugged = logged();
      let questions = 0;
      const sweeper = new OrphanSweeper(new FileBlobStore(dir, { fs }), async () => {
        if (++questions === 3) throw new Error('store gone');
        return new Set();
      }, { everyMs: HOUR_MS, olderThanMs: age, tempOlderThanMs: tempSafeAgeMs(60, 5), log: warnOncePerFile(warned.log, debugged.log) });
      for (let i = 0; i < 4; i++) await sweeper.sweep();
      await sweeper.close();
      assert.deepEqual(warned.lines.map((l) => l.msg), [
        'upload sweep: cannot remove an orphaned media file; left for the next sweep (told once; at debug from now on)',
        'periodic sweep of orphaned media files failed; it runs again in 3600 s',
      ]);
      assert.equal(warned.lines[0]?.extra?.file, path.join(dir, 'media', 'med_stuck'));
      assert.deepEqual(debugged.lines.map((l) => [l.msg, l.extra?.file]), Array.from({ length: 2 }, () => [
        'upload sweep: cannot remove an orphaned media file; left for the next sweep',
        path.join(dir, 'media', 'med_stuck'),
      ]));
      assert.deepEqual(readdirSync(path.join(dir, 'media')), ['med_stuck']);
    }));

  it('remembers at most `max` files: the next ones are told at debug, after one warning that says so', () => {
    const warned = logged();
    const debugged = logged();
    const log = warnOncePerFile(warned.log, debugged.log, 2);
    for (const file of ['a', 'b', 'c', 'a', 'd', 'c']) log('cannot remove', { file });
    assert.deepEqual(warned.lines.map((l) => [l.msg, l.extra?.file]), [
      ['cannot remove (told once; at debug from now on)', 'a'],
      ['cannot remove (told once; at debug from now on)', 'b'],
      ['upload sweep: 2 files could not be swept; this process tells further ones at debug only', undefined],
    ]);
    assert.deepEqual(debugged.lines.map((l) => l.extra?.file), ['c', 'a', 'd', 'c']);
  });
});
