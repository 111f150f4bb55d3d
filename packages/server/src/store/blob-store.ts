// Where uploaded files live: `media/` under MEDIA_DIR (default DATA_DIR), one file per media id;
// several processes may share it (a mounted volume), and `tmp/` beside it is on the same file
// system so that a rename completes an upload. Uploads are
// written to a temporary name and renamed into place only once complete, so a crash or an
// aborted upload never leaves a partial file under a media id.
import { mkdirSync, createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm, readdir, lstat, utimes } from 'node:fs/promises';
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

/** Which of these media ids (at most ORPHAN_BATCH) some media row has: one question to the store. */
export type IdsWithRows = (mediaIds: readonly string[]) => Promise<ReadonlySet<string>>;

export interface BlobStore {
  /** A new temporary file to stream an upload into. */
  createTemp(): { path: string; stream: WriteStream };
  /** Moves a completed temporary file to its permanent name; answers the permanent path. */
  commit(tempPath: string, mediaId: string): Promise<string>;
  remove(filePath: string): Promise<void>;
  /**
   * Removes temporary files left by a crash: those whose writing process is gone, and any older
   * than `olderThanMs`. Call at start, before this process accepts uploads.
   */
  sweepTemp(olderThanMs: number): Promise<number>;
  /**
   * Removes committed files that no media row claims (a crash between the rename and the row
   * insert), once older than `olderThanMs` so that an upload in flight elsewhere is left alone.
   * `withRows` is asked about ORPHAN_BATCH files at a time.
   */
  sweepOrphans(withRows: IdsWithRows, olderThanMs: number): Promise<number>;
}

export class FileBlobStore implements BlobStore {
  private readonly mediaDir: string;
  private readonly tmpDir: string;

  constructor(dataDir: string) {
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
    return { path: p, stream: createWriteStream(p, { flags: 'wx', mode: 0o600 }) };
  }

  async commit(tempPath: string, mediaId: string): Promise<string> {
    const finalPath = path.join(this.mediaDir, mediaId);
    await rename(tempPath, finalPath);
    // The orphan sweep's age bound counts from here, not from the upload's last write: a file
    // inspected for longer than the bound before its commit would otherwise look like an old
    // orphan to another process starting up before the row is inserted.
    const now = new Date();
    await utimes(finalPath, now, now);
    return finalPath;
  }

  async remove(filePath: string): Promise<void> {
    await rm(filePath, { force: true });
  }

  async sweepOrphans(withRows: IdsWithRows, olderThanMs: number): Promise<number> {
    let removed = 0;
    const names = await readdir(this.mediaDir);
    for (let start = 0; start < names.length; start += ORPHAN_BATCH) {
      // A turn of the event loop between batches: a huge folder never holds it for long.
      if (start > 0) await nextTurn();
      const old = await this.olderThan(names.slice(start, start + ORPHAN_BATCH), olderThanMs);
      if (old.length === 0) continue;
      // Asked after the files' ages are read, as when each file was asked alone: a row committed
      // before the question keeps its file; a later one is an upload's in flight, which the age
      // bound keeps.
      const claimed = await withRows(old);
      for (const name of old) {
        if (claimed.has(name)) continue;
        await rm(path.join(this.mediaDir, name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** The names among these of files in the media folder older than `olderThanMs` (one gone meanwhile is not). */
  private async olderThan(names: string[], olderThanMs: number): Promise<string[]> {
    const aged = await Promise.all(names.map(async (name) => {
      const s = await lstat(path.join(this.mediaDir, name)).catch(() => null);
      // Only the service's own files: a folder or link someone left in the media folder is not
      // an orphaned upload (and removing it would fail, stopping every start).
      return s !== null && s.isFile() && Date.now() - s.mtimeMs > olderThanMs;
    }));
    return names.filter((_, i) => aged[i]);
  }

  async sweepTemp(olderThanMs: number): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.tmpDir)) {
      const p = path.join(this.tmpDir, name);
      const s = await lstat(p).catch(() => null);
      if (s?.isFile() && (Date.now() - s.mtimeMs > olderThanMs || writerIsGone(name))) {
        await rm(p, { force: true });
        removed++;
      }
    }
    return removed;
  }
}

/**
 * Whether the process that wrote this temporary file is gone: no process has its pid, or it is
 * this very process (an earlier process that had the same pid, e.g. pid 1 in a container; the
 * sweep runs at start, before this process accepts any upload). A file of another host is never
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
