// The sweeps of orphaned upload files: stored files that no media row claims (a crash between an
// upload's commit and its row, or around the row's update when attached audio replaces a
// transcript's file), and temporary files of uploads whose process crashed (up to
// MAX_UPLOAD_BYTES each). Every process sweeps at start, before it listens (sweepAtStart,
// serve.ts); a process that runs for weeks, or a cluster where one process crashed while the
// others keep serving, would keep them until the next start. So the processes with the worker role
// (like the retention sweep) also sweep every ORPHAN_SWEEP_SEC, while uploads of this and other
// processes are in flight: only files older than `orphanSafeAgeMs` (stored) or `tempSafeAgeMs`
// (temporary) go, never a temporary file this process holds (FileBlobStore.createTemp), and one
// sweep at a time, in batches with a turn of the event loop between them (sweepOrphans). A sweep that fails is logged at warn and the next one runs as planned.
// Each sweep first gives the plain name `<id>` to the files that rows still name by a name beside
// (a crash between an attached audio's row and its plain name: files/plain-names.ts), which older
// versions' sweeps would remove. The file operations themselves are blob-store.ts's.
import { TRANSIENT_ATTEMPTS } from './sql.ts';
import { errorText, type BlobStore, type FilesWithRows, type SweepLog } from './blob-store.ts';

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
 * age alone: longer than any live upload of another process leaves its file untouched. The
 * start-up sweep also tells a crashed process's file by the pid in its name, which only holds
 * before this process accepts uploads (writerIsGone); the periodic sweep, beside live uploads of
 * this and other processes, has only the age. Why the age is enough:
 * - this process's own uploads hold their files from creation to commit or removal
 *   (FileBlobStore.createTemp), and its sweeps never remove a held file, whatever its age: a
 *   client may trickle fields after its file part for as long as it likes (read, never written;
 *   only each pause is bounded, by REQUEST_IDLE_TIMEOUT_SEC), and after the body the file waits
 *   for a few store questions and the format probe (before, a sweep meanwhile removed it: the
 *   upload failed with a 500);
 * - the writer touches a held file every TEMP_TOUCH_EVERY_MS (5 minutes, a twelfth of the least
 *   value here), besides each chunk it writes, so that the sweeps of other processes sharing
 *   MEDIA_DIR never see a live upload's file older than that (on a network file system a time is
 *   seen once the client flushes, seconds later);
 * - the rest is margin, as for orphanSafeAgeMs: clocks of hosts sharing MEDIA_DIR, stalled
 *   processes (a paused VM), and REQUEST_IDLE_TIMEOUT_SEC for a process of an earlier version that
 *   does not touch its files (a rolling upgrade), whose live uploads' times move only with their
 *   writes, each within the idle timeout of the last while the file part is received.
 * Only uploads have files in `tmp/`: audio attached to a transcript on its own is committed beside
 * the transcript's file, which stays in the media folder, its row's, until the row names the audio
 * (files.attach.ts; before, it was moved into `tmp/`, where the start-up sweep took it for a
 * crashed upload's file).
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
  /** Gives the files that rows name by a name beside their plain name, first (files/plain-names.ts). */
  plainNames?: PlainNames;
}

/**
 * Gives every stored file that a row names by a name beside (`<id>.<token>`) the plain name, the
 * row naming that, and answers how many; what concerns one file is told to `log` and left
 * (givePlainNames, files/plain-names.ts).
 */
export type PlainNames = (log: SweepLog) => Promise<number>;

export class OrphanSweeper {
  private readonly blobs: BlobStore;
  private readonly withRows: FilesWithRows;
  private readonly opts: OrphanSweeperOptions;
  private readonly stop = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweepCounts> | null = null;

  constructor(blobs: BlobStore, withRows: FilesWithRows, opts: OrphanSweeperOptions) {
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
      plainNames: this.opts.plainNames,
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

/** The files a sweep removed, temporary and orphaned; null for one that failed (logged). */
export interface SweepCounts {
  temp: number | null;
  orphans: number | null;
}

/** What the start-up sweeps remove, and where they tell what they could not do (compose.ts). */
export interface StartSweeps {
  /**
   * Temporary files not modified for longer than this go (tempSafeAgeMs), as at the periodic
   * sweep: the processes of other hosts sharing MEDIA_DIR may be receiving uploads into theirs
   * while this one starts, and only the age tells (1 h was less than REQUEST_IDLE_TIMEOUT_SEC may
   * be). Those of this host's crashed processes go whatever their age.
   */
  tempOlderThanMs: number;
  /**
   * Only orphaned media files older than this go (orphanSafeAgeMs, as the periodic sweep): in a
   * cluster the other processes sharing MEDIA_DIR are uploading while this one starts, and a file
   * whose row's insert is slow (a raised DATABASE_TIMEOUT_SEC) is no orphan yet. Younger orphans
   * are left to the periodic sweep or the next start.
   */
  orphansOlderThanMs: number;
  /**
   * How often this process sweeps again (ORPHAN_SWEEP_SEC, the processes with the worker role), or
   * null for one that sweeps only at its next start (an API-only process): told when a sweep fails.
   */
  againEveryMs: number | null;
  log: SweepLog;
  /** Gives the files that rows name by a name beside their plain name, first (files/plain-names.ts). */
  plainNames?: PlainNames;
}

/**
 * The start-up sweeps (serve.ts): temporary files, plain names, then orphaned media files. Housekeeping only,
 * so it never fails: a sweep that stops (a folder it cannot list, a store question that fails) is
 * logged, the other still runs, and the service starts with the files left for the periodic sweep
 * or the next start.
 */
export async function sweepAtStart(blobs: BlobStore, withRows: FilesWithRows, opts: StartSweeps): Promise<SweepCounts> {
  const next = opts.againEveryMs === null
    ? 'this API-only process sweeps again only at its next start (those with the worker role sweep every ORPHAN_SWEEP_SEC)'
    : `this process sweeps again every ${Math.round(opts.againEveryMs / 1000)} s (ORPHAN_SWEEP_SEC)`;
  return sweepUploads(blobs, withRows, {
    ...opts,
    atStart: true,
    failed: (what) => `start-up sweep of ${what} failed; the service starts anyway, and ${next}`,
  });
}

/**
 * One sweep of both kinds, the start-up one and each periodic one: temporary files, then the plain
 * names of files that rows name by a name beside (`plainNames`; not counted), then orphaned media
 * files (asked about only in batches of files per query: loading every row whole cost 11-16 ms
 * per hour of analysed audio, and a query per file a round trip each). A sweep that fails is told
 * to `log` with `failed(what)` and counts null; the others still run, unless `stop` was aborted
 * meanwhile.
 */
export async function sweepUploads(
  blobs: BlobStore,
  withRows: FilesWithRows,
  opts: { tempOlderThanMs: number; orphansOlderThanMs: number; log: SweepLog; plainNames?: PlainNames; atStart?: boolean; stop?: AbortSignal; failed: (what: string) => string },
): Promise<SweepCounts> {
  const attempt = async (what: string, sweep: () => Promise<number>): Promise<number | null> => {
    try {
      return await sweep();
    } catch (err) {
      opts.log(opts.failed(what), { err: errorText(err) });
      return null;
    }
  };
  const temp = await attempt('temporary upload files', () => blobs.sweepTemp(opts.tempOlderThanMs, opts.log, { atStart: opts.atStart === true }));
  if (opts.stop?.aborted) return { temp, orphans: null };
  const { plainNames } = opts;
  if (plainNames) await attempt('plain names of stored files', () => plainNames(opts.log));
  if (opts.stop?.aborted) return { temp, orphans: null };
  const orphans = await attempt('orphaned media files', () => blobs.sweepOrphans(withRows, opts.orphansOlderThanMs, opts.log, opts.stop));
  return { temp, orphans };
}
