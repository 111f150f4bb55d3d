// The start-up sweep of temporary upload files when several hosts share the media folder: a
// partial upload of a crashed process of this host goes, one of another host is judged by its
// age only (its pid means nothing here), and anything old enough goes.
// The start-up sweep of stored files without a media row asks the store about a batch of files
// at a time (one query each), not one file at a time; it still removes only old files no row
// claims when their batch is asked, so that a row committed during the sweep keeps its file. A
// row names one file: a file committed beside its media's (audio replacing a transcript's) is an
// orphan until the row names it, and the media's other file is one after.
// The sweeps are housekeeping: a file they cannot inspect or remove is logged and the rest swept,
// and a sweep that fails as a whole is logged by sweepAtStart, which never stops the start.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { besideTranscript, inBlobDir } from './blob-dir.testkit.ts';
import { FileBlobStore, mediaIdOfFile, namedFiles, ORPHAN_BATCH, type BlobStore, type SweepLog } from './blob-store.ts';
import { sweepAtStart } from './orphan-sweeper.ts';

describe('FileBlobStore.sweepTemp', () => {
  it("removes this host's crashed uploads, keeps another host's until they are old", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
    try {
      const blobs = new FileBlobStore(dir);
      const mine = blobs.createTemp();
      mine.stream.end('x');
      await new Promise<void>((r) => mine.stream.once('close', () => r()));
      const ownHost = /^upload-h([0-9a-f]{8})-/.exec(path.basename(mine.path))?.[1];
      assert.ok(ownHost, 'the name carries the host');
      const deadPid = 2 ** 22 + 12345; // above Linux's pid_max: no such process
      const tmp = path.join(dir, 'tmp');
      const crashedHere = `upload-h${ownHost}-${deadPid}-1-aaaa`;
      // An earlier process with this very pid (pid 1 in a container) left this one.
      const samePid = `upload-h${ownHost}-${process.pid}-1-dddd`;
      const otherHost = `upload-h${ownHost === '00000000' ? '11111111' : '00000000'}-${deadPid}-1-bbbb`;
      const oldOther = `upload-h${ownHost === '00000000' ? '11111111' : '00000000'}-${deadPid}-1-cccc`;
      for (const f of [crashedHere, samePid, otherHost, oldOther]) writeFileSync(path.join(tmp, f), 'x');
      const old = (Date.now() - 2 * 3600 * 1000) / 1000;
      utimesSync(path.join(tmp, oldOther), old, old);
      // At start a file with this process's pid counts as an earlier process's, unless this
      // process holds it (an upload of its own, still to be committed or removed).
      assert.equal(await blobs.sweepTemp(3600 * 1000, undefined, { atStart: true }), 3);
      assert.deepEqual(readdirSync(tmp).sort(), [otherHost, path.basename(mine.path)].sort());
      await blobs.remove(mine.path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('FileBlobStore: a temporary file this process holds (createTemp until commit or remove)', () => {
  const closed = (stream: NodeJS.WritableStream) => new Promise<void>((r) => stream.once('close', () => r()));
  const backdate = (file: string, ageMs: number) => {
    const at = (Date.now() - ageMs) / 1000;
    utimesSync(file, at, at);
  };

  it('is never swept, by its age or at start, however long it went unwritten, until committed or removed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
    try {
      const blobs = new FileBlobStore(dir);
      const tmp = path.join(dir, 'tmp');
      // Received whole, then waiting (a slow client's last field, the probe, the store): unwritten for days.
      const held = blobs.createTemp();
      held.stream.end('the whole file');
      await closed(held.stream);
      backdate(held.path, 3 * 24 * 3600 * 1000);
      assert.equal(await blobs.sweepTemp(60 * 1000), 0);
      assert.equal(await blobs.sweepTemp(60 * 1000, undefined, { atStart: true }), 0);
      assert.deepEqual(readdirSync(tmp), [path.basename(held.path)]);
      await blobs.commit(held.path, 'med_held');
      assert.deepEqual(readdirSync(path.join(dir, 'media')), ['med_held']);
      assert.equal(await blobs.sweepOrphans(async () => new Set(['med_held']), 60 * 1000), 0);
      // One given up (removed) is gone; another process's of the same age is swept as before.
      const dropped = blobs.createTemp();
      dropped.stream.end('x');
      await closed(dropped.stream);
      await blobs.remove(dropped.path);
      writeFileSync(path.join(tmp, 'upload-elsewhere'), 'x');
      backdate(path.join(tmp, 'upload-elsewhere'), 2 * 3600 * 1000);
      assert.equal(await blobs.sweepTemp(60 * 1000), 1);
      assert.deepEqual(readdirSync(tmp), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is touched while held, so that the age-based sweep of another process sharing the folder keeps it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
    try {
      const blobs = new FileBlobStore(dir, { touchEveryMs: 20 });
      const otherProcess = new FileBlobStore(dir);
      const held = blobs.createTemp();
      await new Promise<void>((resolve, reject) => held.stream.write('first bytes, then a long pause', (err) => (err ? reject(err) : resolve())));
      backdate(held.path, 2 * 3600 * 1000);
      const deadline = Date.now() + 5000;
      while (Date.now() - statSync(held.path).mtimeMs > 60 * 1000) {
        assert.ok(Date.now() < deadline, 'touched within 5 s');
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(await otherProcess.sweepTemp(60 * 1000), 0);
      held.stream.end();
      await closed(held.stream);
      await blobs.commit(held.path, 'med_touched');
      assert.deepEqual(readdirSync(path.join(dir, 'tmp')), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('FileBlobStore.sweepOrphans', () => {
  /** A media folder with these files, written an hour ago unless `young`; answers the store and its folder. */
  function folder(old: string[], young: string[] = []): { blobs: FileBlobStore; media: string; dir: string } {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
    const blobs = new FileBlobStore(dir);
    const media = path.join(dir, 'media');
    const hourAgo = (Date.now() - 3600 * 1000) / 1000;
    for (const name of old) {
      writeFileSync(path.join(media, name), 'x');
      utimesSync(path.join(media, name), hourAgo, hourAgo);
    }
    for (const name of young) writeFileSync(path.join(media, name), 'x');
    return { blobs, media, dir };
  }

  const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `med_${prefix}${i}`);

  it('asks about more files than one batch holds a batch at a time, and removes the old ones no row claims', async () => {
    const all = ids(2 * ORPHAN_BATCH + 7, 'f');
    const rows = new Set(all.filter((_, i) => i % 3 === 0));
    const { blobs, media, dir } = folder(all);
    try {
      const asked: number[] = [];
      const seen = new Set<string>();
      const removed = await blobs.sweepOrphans(async (batch) => {
        asked.push(batch.length);
        for (const id of batch) seen.add(id);
        return new Set(batch.filter((id) => rows.has(id)));
      }, 60 * 1000);
      assert.deepEqual(asked, [ORPHAN_BATCH, ORPHAN_BATCH, 7], 'one question per batch');
      assert.equal(seen.size, all.length, 'every file asked about once');
      assert.equal(removed, all.length - rows.size);
      assert.deepEqual(readdirSync(media).sort(), [...rows].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps files younger than the age bound without asking about them', async () => {
    const { blobs, media, dir } = folder(['med_old1', 'med_old2'], ['med_young1', 'med_young2']);
    try {
      const asked: string[] = [];
      const removed = await blobs.sweepOrphans(async (batch) => {
        asked.push(...batch);
        return new Set(batch.filter((id) => id === 'med_old2'));
      }, 60 * 1000);
      assert.equal(removed, 1);
      assert.deepEqual(asked.sort(), ['med_old1', 'med_old2']);
      assert.deepEqual(readdirSync(media).sort(), ['med_old2', 'med_young1', 'med_young2']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the file of a row committed while an earlier batch was asked about', async () => {
    const all = ids(ORPHAN_BATCH + 1, 'r');
    const { blobs, media, dir } = folder(all);
    try {
      const rows = new Set<string>();
      let late: string | undefined;
      await blobs.sweepOrphans(async (batch) => {
        if (late === undefined) {
          // The upload's row of a file the sweep has not asked about yet (the folder's order is the file system's).
          late = all.find((id) => !batch.includes(id));
          assert.ok(late);
          rows.add(late);
        }
        return new Set(batch.filter((id) => rows.has(id)));
      }, 60 * 1000);
      assert.deepEqual(readdirSync(media), [late]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a failed question stops the sweep and removes nothing of its batch (sweepAtStart logs it and the start goes on)', async () => {
    const { blobs, media, dir } = folder(ids(3, 'e'));
    try {
      await assert.rejects(blobs.sweepOrphans(async () => Promise.reject(new Error('store gone')), 60 * 1000), /store gone/);
      assert.equal(readdirSync(media).length, 3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an empty folder asks nothing', async () => {
    const { blobs, dir } = folder([]);
    try {
      let asked = 0;
      assert.equal(await blobs.sweepOrphans(async () => (asked++, new Set()), 60 * 1000), 0);
      assert.equal(asked, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('FileBlobStore: what the start-up sweeps leave alone', () => {
  it('a folder or a link left in the media or temporary folder is neither removed nor stops the sweep', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
    try {
      const blobs = new FileBlobStore(dir);
      const media = path.join(dir, 'media');
      const tmp = path.join(dir, 'tmp');
      const hourAgo = (Date.now() - 3600 * 1000) / 1000;
      const target = path.join(dir, 'elsewhere');
      writeFileSync(target, 'x');
      for (const folder of [media, tmp]) {
        mkdirSync(path.join(folder, 'med_stray'));
        symlinkSync(target, path.join(folder, 'med_link'));
        writeFileSync(path.join(folder, 'med_orphan'), 'x');
        for (const name of ['med_stray', 'med_orphan']) utimesSync(path.join(folder, name), hourAgo, hourAgo);
      }
      assert.equal(await blobs.sweepOrphans(async () => new Set(), 60 * 1000), 1);
      assert.deepEqual(readdirSync(media).sort(), ['med_link', 'med_stray']);
      assert.equal(await blobs.sweepTemp(60 * 1000), 1);
      assert.deepEqual(readdirSync(tmp).sort(), ['med_link', 'med_stray']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a committed file's age starts at its commit, not at the upload's last write", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rapport-blobs-'));
    try {
      const blobs = new FileBlobStore(dir);
      const temp = blobs.createTemp();
      temp.stream.end('x');
      await new Promise<void>((r) => temp.stream.once('close', () => r()));
      // Written an hour ago, inspected since: committed now, it is young.
      const hourAgo = (Date.now() - 3600 * 1000) / 1000;
      utimesSync(temp.path, hourAgo, hourAgo);
      await blobs.commit(temp.path, 'med_slow');
      assert.equal(await blobs.sweepOrphans(async () => new Set(), 60 * 1000), 0);
      assert.deepEqual(readdirSync(path.join(dir, 'media')), ['med_slow']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a file committed beside its media's takes a new name of that media, leaves the other in place, and the one no row names is the orphan", async () => {
    await inBlobDir(async (dir) => {
      const blobs = new FileBlobStore(dir);
      const { own, beside } = await besideTranscript(blobs, dir);
      const name = path.basename(beside);
      assert.match(name, /^med_t\.[0-9A-Za-z]{12}$/);
      assert.equal(mediaIdOfFile(name), 'med_t');
      assert.equal(mediaIdOfFile('med_t'), 'med_t');
      assert.deepEqual([readFileSync(own, 'utf8'), readFileSync(beside, 'utf8')], ['transcript', 'audio']);
      // By the name a row's path ends in, wherever MEDIA_DIR was mounted when it was written.
      assert.deepEqual([...namedFiles(['med_t', name], new Map([['med_t', '/elsewhere/media/med_t']]))], ['med_t']);
      assert.deepEqual([...namedFiles(['med_t', name], new Map([['med_t', `/elsewhere/media/${name}`]]))].sort(), ['med_t', name].sort());
      assert.deepEqual(await blobs.namesBeside(), [name]);
      // The row names the new file, and still claims the plain name (which only placePlain replaces):
      // an orphan sweep removes neither (no age bound here).
      assert.equal(await blobs.sweepOrphans(async (names) => namedFiles(names, new Map([['med_t', beside]])), -1), 0);
      assert.deepEqual(readdirSync(path.join(dir, 'media')).sort(), ['med_t', name].sort());
      // Once no row names it, the name beside goes, and so does the plain name of a media without a row.
      assert.equal(await blobs.sweepOrphans(async (names) => namedFiles(names, new Map([['med_t', own]])), -1), 1);
      assert.deepEqual(readdirSync(path.join(dir, 'media')), ['med_t']);
      assert.equal(await blobs.sweepOrphans(async (names) => namedFiles(names, new Map()), -1), 1);
      assert.deepEqual(readdirSync(path.join(dir, 'media')), []);
    });
  });
});

describe('the start-up sweeps never stop the start', () => {
  /** What the sweeps told the log. */
  function logged(): { log: SweepLog; lines: { msg: string; extra?: Record<string, unknown> }[] } {
    const lines: { msg: string; extra?: Record<string, unknown> }[] = [];
    return { lines, log: (msg, extra) => lines.push({ msg, ...(extra ? { extra } : {}) }) };
  }
  const fsError = (code: string, file: string) => Object.assign(new Error(`${code}: refused, '${file}'`), { code });
  const hourAgo = () => (Date.now() - 3600 * 1000) / 1000;

  it('a media file that cannot be removed or inspected is logged and left; the other orphans go', () =>
    inBlobDir(async (dir) => {
    const media = path.join(dir, 'media');
    const blobs = new FileBlobStore(dir, {
      fs: {
        readdir: async (folder) => {
          const listed = await readdir(folder);
          // Removed by another process sharing the folder once listed, before its age is read.
          rmSync(path.join(folder, 'med_vanished'), { force: true });
          return listed;
        },
        lstat: async (file) => {
          if (path.basename(file) === 'med_unreadable') throw fsError('EACCES', file);
          return lstat(file);
        },
        rm: async (file, opts) => {
          if (path.basename(file) === 'med_stuck') throw fsError('EPERM', file);
          return rm(file, opts);
        },
      },
    });
    const names = ['med_a', 'med_stuck', 'med_b', 'med_unreadable', 'med_c', 'med_vanished'];
    for (const name of names) {
      writeFileSync(path.join(media, name), 'x');
      utimesSync(path.join(media, name), hourAgo(), hourAgo());
    }
    const { log, lines } = logged();
    const removed = await blobs.sweepOrphans(async (batch) => new Set(batch.filter((id) => id === 'med_b')), 60 * 1000, log);
    assert.equal(removed, 2);
    assert.deepEqual(readdirSync(media).sort(), ['med_b', 'med_stuck', 'med_unreadable']);
    assert.deepEqual(lines.map((l) => path.basename(String(l.extra?.file))).sort(), ['med_stuck', 'med_unreadable']);
    assert.ok(lines.every((l) => /left for the next sweep/.test(l.msg) && /EACCES|EPERM/.test(String(l.extra?.err))), JSON.stringify(lines));
    }));

  it('a temporary file that cannot be removed is logged and left; the others go', () =>
    inBlobDir(async (dir) => {
    const tmp = path.join(dir, 'tmp');
    const blobs = new FileBlobStore(dir, {
      fs: {
        rm: async (file, opts) => {
          if (path.basename(file) === 'upload-stuck') throw fsError('EBUSY', file);
          return rm(file, opts);
        },
      },
    });
    for (const name of ['upload-a', 'upload-stuck', 'upload-b']) {
      writeFileSync(path.join(tmp, name), 'x');
      utimesSync(path.join(tmp, name), hourAgo(), hourAgo());
    }
    const { log, lines } = logged();
    assert.equal(await blobs.sweepTemp(60 * 1000, log), 2);
    assert.deepEqual(readdirSync(tmp), ['upload-stuck']);
    assert.equal(lines.length, 1);
    assert.match(lines[0]?.msg ?? '', /cannot remove a temporary upload file/);
    }));

  it('sweepAtStart resolves when a sweep fails as a whole, logs why, and still runs the other', () =>
    inBlobDir(async (dir) => {
    const media = path.join(dir, 'media');
    const blobs = new FileBlobStore(dir, {
      fs: {
        readdir: async (folder) => {
          if (path.basename(folder) === 'tmp') throw fsError('EACCES', folder);
          return readdir(folder);
        },
      },
    });
    writeFileSync(path.join(media, 'med_orphan'), 'x');
    utimesSync(path.join(media, 'med_orphan'), hourAgo(), hourAgo());
    const { log, lines } = logged();
    assert.deepEqual(await sweepAtStart(blobs, async () => new Set(), { tempOlderThanMs: 60 * 1000, orphansOlderThanMs: 60 * 1000, againEveryMs: 3600 * 1000, log }), { temp: null, orphans: 1 });
    assert.deepEqual(readdirSync(media), [], 'the orphan sweep ran after the temporary one failed');
    assert.equal(lines.length, 1);
    assert.match(lines[0]?.msg ?? '', /sweep of temporary upload files failed; the service starts anyway/);
    // A process with the worker role says when it sweeps next; an API-only one (below) that it does not.
    assert.match(lines[0]?.msg ?? '', /this process sweeps again every 3600 s \(ORPHAN_SWEEP_SEC\)$/);
    assert.match(String(lines[0]?.extra?.err), /EACCES/);

    // A store that does not answer the orphan sweep's question: logged, nothing removed, no throw.
    writeFileSync(path.join(media, 'med_kept'), 'x');
    utimesSync(path.join(media, 'med_kept'), hourAgo(), hourAgo());
    const second = logged();
    assert.deepEqual(await sweepAtStart(blobs, async () => Promise.reject(new Error('store gone')), { tempOlderThanMs: 60 * 1000, orphansOlderThanMs: 60 * 1000, againEveryMs: null, log: second.log }), { temp: null, orphans: null });
    assert.deepEqual(readdirSync(media), ['med_kept']);
    assert.equal(second.lines.length, 2);
    assert.match(second.lines[1]?.msg ?? '', /sweep of orphaned media files failed/);
    assert.match(second.lines[1]?.msg ?? '', /this API-only process sweeps again only at its next start/);
    assert.equal(second.lines[1]?.extra?.err, 'store gone');
    }));

  it('sweepAtStart resolves whatever a store throws, a non-Error included', async () => {
    const { log, lines } = logged();
    const broken: BlobStore = {
      createTemp: () => assert.fail('not called'),
      commit: () => assert.fail('not called'),
      placePlain: () => assert.fail('not called'),
      namesBeside: () => assert.fail('not called'),
      remove: () => assert.fail('not called'),
      sweepTemp: () => Promise.reject(Object.assign(new Error("ENOENT: no such file or directory, scandir '/data/tmp'"), { code: 'ENOENT' })),
      // Not an Error: what a faulty fake or library might throw.
      sweepOrphans: async () => { throw 'odd'; },
    };
    assert.deepEqual(await sweepAtStart(broken, async () => new Set(), { tempOlderThanMs: 60 * 1000, orphansOlderThanMs: 60 * 1000, againEveryMs: 3600 * 1000, log }), { temp: null, orphans: null });
    assert.deepEqual(lines.map((l) => l.extra?.err), ["ENOENT: no such file or directory, scandir '/data/tmp'", 'odd']);
  });
});
