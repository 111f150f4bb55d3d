// The periodic sweep of orphaned upload files: stored files that no media row claims (a crash
// between an upload's commit and its row), and temporary files of uploads whose process crashed
// (up to MAX_UPLOAD_BYTES each). The start-up sweep (blob-store.ts, serve.ts) removes them when a
// process starts; a process that runs for weeks, or a cluster where one process crashed while the
// others keep serving, would keep them until the next start. So the processes with the worker role
// (like the retention sweep) also sweep every ORPHAN_SWEEP_SEC, while uploads of this and other
// processes are in flight: only files older than `orphanSafeAgeMs` (stored) or `tempSafeAgeMs`
// (temporary) go, and one sweep at a time, in batches with a turn of the event loop between them
// (sweepOrphans). A sweep that fails is logged at warn and the next one runs as planned.
import { TRANSIENT_ATTEMPTS } from './sql.ts';
import { sweepUploads, type BlobStore, type IdsWithRows, type SweepCounts, type SweepLog } from './blob-store.ts';

/** The least age of a file the orphan sweeps remove. */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
/** A row's transaction, counted in waits that DATABASE_TIMEOUT_SEC bounds (below). */
const WAITS_PER_ROW = 20;

/**
 * How old a stored file without a row must be before a sweep removes it, periodic or at start (in
 * a cluster, one process starts while others upload): older than any upload still in flight can
 * leave it. A file appears in the media folder at its upload's
 * commit, timed then (FileBlobStore.commit), so the upload's own length never counts (a slow
 * client's body, REQUEST_IDLE_TIMEOUT_SEC between its bytes, has no bound as a whole, and lies in
 * `tmp/` meanwhile); what counts is what follows the commit: the row's transaction
 * (FilesService.upload). On PostgreSQL that is a wait for a connection and some fifteen statements
 * (the workspace's lock, credits, the change number, the row, its task), each waiting at most
 * DATABASE_TIMEOUT_SEC, the whole tried up to TRANSIENT_ATTEMPTS times on a conflict:
 * WAITS_PER_ROW × TRANSIENT_ATTEMPTS (100) timeouts cover it. The embedded store waits 5 s at
 * most per statement (busy_timeout), the default timeout. And never under an hour: the file's time
 * comes from the clock of the host that committed it and is compared with this host's (a MEDIA_DIR
 * shared by several hosts), a process may stall (a paused VM, swapping), and an orphan kept an hour
 * longer costs only its disk space. With the defaults this is the hour.
 */
export function orphanSafeAgeMs(databaseTimeoutSec: number): number {
  return Math.max(ORPHAN_MIN_AGE_MS, WAITS_PER_ROW * TRANSIENT_ATTEMPTS * databaseTimeoutSec * 1000);
}

/**
 * How long a temporary upload file must have been left unmodified before a sweep removes it by its
 * age alone: longer than any live upload leaves its file unwritten. The start-up sweep also tells
 * a crashed process's file by the pid in its name, which only holds before this process accepts
 * uploads (writerIsGone); the periodic sweep, beside live uploads of this and other processes,
 * has only the age. Why the age is enough:
 * - an upload writes its file as its bytes arrive (upload-stream.ts pipes the part into a
 *   WriteStream, which writes each chunk at once), so its mtime advances with every chunk; on a
 *   network file system it is set when the client flushes, seconds later;
 * - a client that sends nothing for REQUEST_IDLE_TIMEOUT_SEC has its connection closed (fastify's
 *   connectionTimeout, app.ts; test/stalled-requests.test.ts), which ends its upload and removes
 *   its file; a paused but live client is no exception;
 * - bytes read but not written (past the quota or the free-space floor, a second file part) end in
 *   a refusal or a duplicate: that file is then only removed, never read, so removing it early
 *   costs nothing;
 * - after the body the file waits for a few store questions (each bounded by DATABASE_TIMEOUT_SEC)
 *   and the format probe (30 s at most) before its commit moves it out of `tmp/`, fewer waits than
 *   the row's transaction that orphanSafeAgeMs covers, with the same margin for clocks of hosts
 *   sharing MEDIA_DIR and stalled processes;
 * - a media's transcript moved aside into `tmp/` while audio is attached to it is touched as it
 *   moves (FilesService.attachAudio), so its age counts from then.
 * A client could outlast it by trickling, within the idle timeout, bytes that are never written
 * (fields after the file part): that fails only its own upload, whose commit then finds no file.
 */
export function tempSafeAgeMs(requestIdleTimeoutSec: number, databaseTimeoutSec: number): number {
  return requestIdleTimeoutSec * 1000 + orphanSafeAgeMs(databaseTimeoutSec);
}

export interface OrphanSweeperOptions {
  /** How often a sweep starts (ORPHAN_SWEEP_SEC). */
  everyMs: number;
  /** Only stored files older than this are removed (orphanSafeAgeMs). */
  olderThanMs: number;
  /** Only temporary files left unmodified for longer than this are removed (tempSafeAgeMs). */
  tempOlderThanMs: number;
  /** Where failures are told (the service's logger, at warn once per file: warnOncePerFile). */
  log: SweepLog;
}

export class OrphanSweeper {
  private readonly blobs: BlobStore;
  private readonly withRows: IdsWithRows;
  private readonly opts: OrphanSweeperOptions;
  private readonly stop = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepCounts> | null = null;

  constructor(blobs: BlobStore, withRows: IdsWithRows, opts: OrphanSweeperOptions) {
    this.blobs = blobs;
    this.withRows = withRows;
    this.opts = opts;
  }

  /** Sweeps every `everyMs`, the first after one interval (the start-up sweep has just run). */
  start(): void {
    if (this.timer || this.stop.signal.aborted) return;
    this.timer = setInterval(() => {
      // A failure is logged by the sweep itself, which never rejects.
      this.sweep().catch(() => undefined);
    }, this.opts.everyMs);
    // Housekeeping never keeps the process alive.
    this.timer.unref();
  }

  /**
   * One sweep: the temporary files, then the orphaned stored files removed, each null when it
   * failed (logged; the other still runs). A sweep still running when the next is due is that
   * one: two would ask the store about the same files.
   */
  sweep(): Promise<SweepCounts> {
    if (this.stop.signal.aborted) return Promise.resolve({ temp: null, orphans: null });
    this.running ??= this.sweepOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private sweepOnce(): Promise<SweepCounts> {
    return sweepUploads(this.blobs, this.withRows, {
      tempOlderThanMs: this.opts.tempOlderThanMs,
      orphansOlderThanMs: this.opts.olderThanMs,
      log: this.opts.log,
      stop: this.stop.signal,
      failed: (what) => `periodic sweep of ${what} failed; it runs again in ${Math.round(this.opts.everyMs / 1000)} s`,
    });
  }

  /** Stops the timer, lets a running sweep end after its current batch, and waits for it. Safe to call twice. */
  async close(): Promise<void> {
    this.stop.abort();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
