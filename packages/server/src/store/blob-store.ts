// Where uploaded files live: `media/` under MEDIA_DIR (default DATA_DIR), one file per media,
// named by its id (`<id>`, the plain name, which every version of the service takes for the file
// of a media that has a row). A file that replaces another of the media (audio attached to a
// transcript on its own) is committed beside it as `<id>.<token>`, so that the file its row names
// stays until the row names the new one, and then takes the plain name (placePlain,
// files/plain-names.ts); the row's storage_path says which name it names. Several processes may
// share the folder (a mounted volume), and `tmp/` beside it is on the same file system so that a
// rename completes an upload.
// Uploads are written to a temporary name and renamed into place only once complete, so a crash
// or an aborted upload never leaves a partial file under a media id.
// A temporary file is held from createTemp until its commit or removal: this process's sweeps never
// remove a held file, whatever its age, and the writer touches it every TEMP_TOUCH_EVERY_MS so that
// the age-based sweeps of other processes sharing the folder leave it alone too.
// The sweeps are housekeeping: a file they cannot inspect or remove is logged (at warn once per
// process: warnOncePerFile) and left for the next sweep, and a sweep that fails as a whole is
// logged too; neither stops the start, nor the periodic sweep (orphan-sweeper.ts).
import { mkdirSync, createWriteStream, type Stats, type WriteStream } from 'node:fs';
import { constants, copyFile, link, lstat, open, readdir, rename, rm, utimes } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import os from 'node:os';
import { randomToken } from '../ids.ts';

/** This host, in temporary file names: processes on several hosts may share MEDIA_DIR. */
const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);

/**
 * How many stored files the orphan sweep asks the store about in one question (one query):
 * asked one by one, a deployment with 100,000 media made 100,000 sequential round trips to
 * PostgreSQL at every start.
 */
export const ORPHAN_BATCH = 500;

/**
 * Files whose age is read at once. The reads run on libuv's thread pool (4 threads), which
 * uploads' writes and media reads share: 500 at once queued those behind a whole batch of reads
 * (on a network file system, milliseconds each) while the periodic sweep ran beside requests.
 */
const INSPECT_AT_ONCE = 32;

/**
 * How often the writer touches a temporary file it holds (FileBlobStore.createTemp). A file's own
 * writes are a poor sign of life: a client may send fields after its file part for as long as it
 * likes (read, never written; only each pause is bounded, by REQUEST_IDLE_TIMEOUT_SEC), and after
 * the body the file waits for store questions and the format probe; meanwhile the sweeps of other
 * processes sharing MEDIA_DIR see only its time. Five minutes is a twelfth of the least age at which they remove a
 * temporary file (tempSafeAgeMs, never under an hour: orphan-sweeper.ts), and a touch costs one
 * call per held file.
 */
export const TEMP_TOUCH_EVERY_MS = 5 * 60 * 1000;

/**
 * Which of these names of files in the media folder (at most ORPHAN_BATCH) some media row claims
 * (namedFiles): one question to the store.
 */
export type FilesWithRows = (names: readonly string[]) => Promise<ReadonlySet<string>>;

/**
 * The media id a file in the media folder is named by: its name up to a `.` (commit's `beside`);
 * a media id has none (ids.ts: a prefix, `_` and base62).
 */
export function mediaIdOfFile(name: string): string {
  const dot = name.indexOf('.');
  return dot === -1 ? name : name.slice(0, dot);
}

/**
 * Which of these file names a media row claims, given the storage path of each media's row by id
 * (mediaIdOfFile): the answer of FilesWithRows. A row claims the name its storage_path ends in (a
 * name beside, `<id>.<token>`, only while the row names it) and, whatever it names, its plain name
 * `<id>`, as every earlier version did: that name is only ever replaced whole, by a rename
 * (placePlain), and a sweep that asked while the row named a file beside and removed the plain
 * name after it took the audio would remove the row's file. By the name alone, not the whole
 * path: a MEDIA_DIR mounted elsewhere than where a row was written is not a folder of orphans.
 */
export function namedFiles(names: readonly string[], storagePaths: ReadonlyMap<string, string>): Set<string> {
  return new Set(names.filter((name) => {
    const id = mediaIdOfFile(name);
    const file = storagePaths.get(id);
    return file !== undefined && (name === id || path.basename(file) === name);
  }));
}

/**
 * The codes of a hard link that the file system does not make (FAT, some network and FUSE file
 * systems: EPERM; too many links: EMLINK): placePlain copies the file instead.
 */
const LINKS_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

/**
 * Where the sweeps say what they could not do (the service's logger, at warn, through
 * warnOncePerFile). What concerns one file carries its path as `extra.file`.
 */
export type SweepLog = (msg: string, extra?: Record<string, unknown>) => void;

/** How many files' troubles warnOncePerFile remembers (a path each, some 100 bytes). */
export const WARNED_FILES_MAX = 10_000;

/**
 * A sweep log that tells each file's trouble at warn once per process, and at debug after that: a
 * file the sweeps cannot remove (EPERM, a read-only share) stays, and was warned about again at
 * every periodic sweep, burying other warnings. What concerns no one file (a sweep that failed as
 * a whole) is always a warning. Bounded: past `max` files, the next ones are told at debug only,
 * after one warning that says so.
 */
export function warnOncePerFile(warn: SweepLog, debug: SweepLog, max = WARNED_FILES_MAX): SweepLog {
  const warned = new Set<string>();
  let full = false;
  return (msg, extra) => {
    const file = extra?.file;
    if (typeof file !== 'string') return warn(msg, extra);
    if (warned.has(file)) return debug(msg, extra);
    if (warned.size >= max) {
      if (!full) warn(`upload sweep: ${max} files could not be swept; this process tells further ones at debug only`);
      full = true;
      return debug(msg, extra);
    }
    warned.add(file);
    warn(`${msg} (told once; at debug from now on)`, extra);
  };
}

/** The file-system calls of the sweeps, and placePlain's link: tests replace one with a failing fake. */
export interface SweepFs {
  readdir(dir: string): Promise<string[]>;
  lstat(file: string): Promise<Stats>;
  rm(file: string, opts: { force: boolean }): Promise<void>;
  link(existing: string, name: string): Promise<void>;
}

const NODE_FS: SweepFs = { readdir: (dir) => readdir(dir), lstat: (file) => lstat(file), rm: (file, opts) => rm(file, opts), link: (existing, name) => link(existing, name) };

export interface BlobStore {
  /**
   * A new temporary file to stream an upload into, held until it is committed or removed (every
   * caller does one or the other): the sweeps leave a held file alone and its time is kept fresh.
   */
  createTemp(): { path: string; stream: WriteStream };
  /**
   * Moves a completed temporary file to its permanent name; answers the permanent path. With
   * `beside`, a name of `mediaId` that no file has yet (`<id>.<token>`) instead of `<id>`: the
   * media's current file stays as it is, its row's, until the row names the new one (a crash in
   * between leaves the new one an orphan, which sweepOrphans removes); then it takes the plain
   * name (placePlain).
   */
  commit(tempPath: string, mediaId: string, opts?: { beside?: boolean }): Promise<string>;
  /**
   * Gives `file`, a stored file of media `mediaId` under a name beside (commit's `beside`), the
   * plain name `<id>` in its folder too, and answers that path (`file` itself when it has it):
   * a hard link to it (a copy, written through, where the file system makes none) under a new
   * name beside, renamed over the plain name, so that whatever that name held (the transcript's
   * file that the audio replaces, the same file given it by another process) is replaced in one
   * step and the name always holds a whole file. `file` keeps its name (the row names it until
   * it is told otherwise) and is touched first: the staged name shares its time, and sweeps of
   * other processes remove names no row claims once an hour old. A crash leaves at worst the
   * staged name, which no row names (sweepOrphans).
   */
  placePlain(file: string, mediaId: string): Promise<string>;
  /** The names in the media folder that are not a media id alone: names beside, which a row may still name (givePlainNames). */
  namesBeside(): Promise<string[]>;
  remove(filePath: string): Promise<void>;
  /**
   * Removes temporary files left by a crash: any not modified for longer than `olderThanMs`
   * (tempSafeAgeMs) and, with `atStart`, those whose writing process is gone, which only holds
   * before this process accepts uploads (writerIsGone); never one this process holds (createTemp).
   * A file it cannot inspect or remove is told to `log` and left; the others are still swept.
   */
  sweepTemp(olderThanMs: number, log?: SweepLog, opts?: { atStart?: boolean }): Promise<number>;
  /**
   * Removes committed files that no media row claims (namedFiles: a crash between the rename and
   * the row's insert, or around the updates of a row whose file is replaced), once older than `olderThanMs`
   * so that an upload in flight elsewhere is left alone.
   * `withRows` is asked about ORPHAN_BATCH files at a time; a failed question stops the sweep
   * (the store is likely out of reach: no file of its batch is removed). A file it cannot inspect
   * or remove is told to `log` and left; the others are still swept. Once `stop` is aborted no
   * further batch is begun (a service closing does not wait for a whole large folder).
   */
  sweepOrphans(withRows: FilesWithRows, olderThanMs: number, log?: SweepLog, stop?: AbortSignal): Promise<number>;
}

export class FileBlobStore implements BlobStore {
  private readonly mediaDir: string;
  private readonly tmpDir: string;
  private readonly fs: SweepFs;
  private readonly touchEveryMs: number;
  /**
   * The temporary files this process holds (createTemp until commit or remove), each with the
   * timer that touches it: an upload whose client trickles fields after its file part, or whose
   * file waits for its probe and the store, may leave it unwritten for longer than the sweeps' age
   * bound, and removing it under the upload failed the upload with a 500.
   */
  private readonly held = new Map<string, NodeJS.Timeout>();

  /** `opts.fs` replaces some of the sweeps' file-system calls, `opts.touchEveryMs` TEMP_TOUCH_EVERY_MS (tests). */
  constructor(dataDir: string, opts: { fs?: Partial<SweepFs>; touchEveryMs?: number } = {}) {
    this.fs = { ...NODE_FS, ...opts.fs };
    this.touchEveryMs = opts.touchEveryMs ?? TEMP_TOUCH_EVERY_MS;
    this.mediaDir = path.join(dataDir, 'media');
    this.tmpDir = path.join(dataDir, 'tmp');
    // Uploads are the workspaces' private data: only the service's user may read them.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    mkdirSync(this.mediaDir, { recursive: true, mode: 0o700 });
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  createTemp(): { path: string; stream: WriteStream } {
    // The writer's host and pid are in the name, so that a restart can tell a crashed process's
    // partial upload from one that another live process (sharing the folder) is still receiving.
    const p = path.join(this.tmpDir, `upload-h${HOST}-${process.pid}-${Date.now()}-${randomToken(12)}`);
    const stream = createWriteStream(p, { flags: 'wx', mode: 0o600 });
    // Touched by its path: a file already renamed or removed just fails (ENOENT), and is let be.
    // Unref'd: a held file never keeps the process alive.
    const touch = setInterval(() => {
      const now = new Date();
      utimes(p, now, now).catch(() => undefined);
    }, this.touchEveryMs);
    touch.unref();
    this.held.set(p, touch);
    return { path: p, stream };
  }

  /** The temporary file is no longer this process's: the sweeps may judge it by its age again. */
  private release(tempPath: string): void {
    clearInterval(this.held.get(tempPath));
    this.held.delete(tempPath);
  }

  async commit(tempPath: string, mediaId: string, opts: { beside?: boolean } = {}): Promise<string> {
    // Beside: a new name, since a rename replaces a file already there.
    const finalPath = path.join(this.mediaDir, opts.beside === true ? `${mediaId}.${randomToken(12)}` : mediaId);
    // The orphan sweep's age bound counts from here, not from the upload's last write: a file
    // inspected for longer than the bound before its commit would otherwise look like an old
    // orphan to another process's sweep before the row is inserted. Touched before the rename
    // (which keeps the time), so that the file never shows in the media folder with its old time,
    // not even between the two calls, while a sweep of another process lists the folder.
    const now = new Date();
    await utimes(tempPath, now, now);
    await rename(tempPath, finalPath);
    // Only once moved: a commit that failed leaves the file in `tmp/`, still held until the
    // caller removes it.
    this.release(tempPath);
    return finalPath;
  }

  async placePlain(file: string, mediaId: string): Promise<string> {
    const dir = path.dirname(file);
    const plain = path.join(dir, mediaId);
    if (file === plain) return plain;
    const now = new Date();
    await utimes(file, now, now);
    const staged = path.join(dir, `${mediaId}.${randomToken(12)}`);
    try {
      try {
        await this.fs.link(file, staged);
      } catch (err) {
        if (!LINKS_UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
        await copyFile(file, staged, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
        // On the disk before the row names it and `file` goes.
        const copy = await open(staged, 'r+');
        try {
          await copy.sync();
        } finally {
          await copy.close();
        }
      }
      await rename(staged, plain);
    } finally {
      // Gone with the rename, unless both names were one file already (a rename then does nothing).
      await rm(staged, { force: true });
    }
    return plain;
  }

  async namesBeside(): Promise<string[]> {
    return (await this.fs.readdir(this.mediaDir)).filter((name) => mediaIdOfFile(name) !== name);
  }

  async remove(filePath: string): Promise<void> {
    try {
      await rm(filePath, { force: true });
    } finally {
      // Given up on either way: one that could not be removed is left to the sweeps' age bound.
      this.release(filePath);
    }
  }

  async sweepOrphans(withRows: FilesWithRows, olderThanMs: number, log: SweepLog = noLog, stop?: AbortSignal): Promise<number> {
    let removed = 0;
    // One listing of the whole folder: making the array of 100,000 names held the event loop
    // 5-20 ms on the 2-core test host (a 1 ms timer's longest gap); the batches yield between them.
    const names = await this.fs.readdir(this.mediaDir);
    for (let start = 0; start < names.length; start += ORPHAN_BATCH) {
      // A turn of the event loop between batches: a huge folder never holds it for long.
      if (start > 0) await nextTurn();
      if (stop?.aborted) break;
      const old = await this.olderThan(names.slice(start, start + ORPHAN_BATCH), olderThanMs, log);
      if (old.length === 0) continue;
      // Asked after the files' ages are read, as when each file was asked alone: a row committed
      // before the question keeps its file; a later one is an upload's in flight, which the age
      // bound keeps.
      const claimed = await withRows(old);
      for (const name of old) {
        if (claimed.has(name)) continue;
        if (await this.removeSwept(path.join(this.mediaDir, name), 'an orphaned media file', log)) removed++;
      }
    }
    return removed;
  }

  /** The names among these of files in the media folder older than `olderThanMs` (one gone meanwhile is not). */
  private async olderThan(names: string[], olderThanMs: number, log: SweepLog): Promise<string[]> {
    const aged: boolean[] = [];
    for (let start = 0; start < names.length; start += INSPECT_AT_ONCE) {
      aged.push(...await Promise.all(names.slice(start, start + INSPECT_AT_ONCE).map(async (name) => {
        const s = await this.inspect(path.join(this.mediaDir, name), log);
        // Only the service's own files: a folder or link someone left in the media folder is not
        // an orphaned upload (removing it would fail, and be logged at every sweep).
        return s !== null && s.isFile() && Date.now() - s.mtimeMs > olderThanMs;
      })));
    }
    return names.filter((_, i) => aged[i]);
  }

  async sweepTemp(olderThanMs: number, log: SweepLog = noLog, opts: { atStart?: boolean } = {}): Promise<number> {
    let removed = 0;
    for (const name of await this.fs.readdir(this.tmpDir)) {
      const p = path.join(this.tmpDir, name);
      // An upload of this process is still receiving or checking it: its age says nothing (a
      // client trickling fields after its file part), nor its pid at start. A name is held only from its creation,
      // so one not held when asked is never held later.
      if (this.held.has(p)) continue;
      const s = await this.inspect(p, log);
      if (s?.isFile() && (Date.now() - s.mtimeMs > olderThanMs || (opts.atStart === true && writerIsGone(name)))) {
        if (await this.removeSwept(p, 'a temporary upload file', log)) removed++;
      }
    }
    return removed;
  }

  /**
   * The file's lstat, or null when it cannot be read: gone since the folder was listed (another
   * process sharing the folder removed it; nothing to say), or refused (logged, left alone).
   */
  private async inspect(file: string, log: SweepLog): Promise<Stats | null> {
    try {
      return await this.fs.lstat(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log('upload sweep: cannot inspect a file; left for the next sweep', { file, err: errorText(err) });
      return null;
    }
  }

  /** Removes a swept file; one that cannot be removed is logged and left, and the sweep goes on. */
  private async removeSwept(file: string, what: string, log: SweepLog): Promise<boolean> {
    try {
      await this.fs.rm(file, { force: true });
      return true;
    } catch (err) {
      log(`upload sweep: cannot remove ${what}; left for the next sweep`, { file, err: errorText(err) });
      return false;
    }
  }
}

const noLog: SweepLog = () => undefined;

/** An error's message for the sweeps' log lines (what was thrown, when not an Error). */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Whether the process that wrote this temporary file is gone: no process has its pid, or it is
 * this very process (an earlier process that had the same pid, e.g. pid 1 in a container; asked
 * only at start, before this process accepts any upload: sweepTemp's `atStart`). A file of another host is never
 * judged by pid (that pid means nothing here): only its age removes it.
 */
function writerIsGone(name: string): boolean {
  const m = /^upload-(?:h([0-9a-f]{8})-)?(\d+)-\d+-/.exec(name);
  if (!m) return false;
  if (m[1] !== undefined && m[1] !== HOST) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
