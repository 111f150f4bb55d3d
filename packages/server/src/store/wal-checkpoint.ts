// WAL checkpoints off the event loop (issue 32, finding 1). SQLite copies its write-ahead log back
// into the database file (a checkpoint) in the COMMIT that takes the log past wal_autocheckpoint
// pages (1,000 of 4 KiB): that commit, on the API's event loop, then writes the whole log again.
// A transaction holding one 4 MiB transcript crossed the mark every time and its COMMIT took
// 25-30 ms instead of 5. Here the store's connection never checkpoints (wal_autocheckpoint = 0):
// a worker thread of the process, with a connection of its own to each file, runs a PASSIVE
// checkpoint shortly after writes (PASSIVE waits for no reader or writer, and none waits for it).
// Should the worker fail, every connection that relied on it checkpoints on its own again.
import { Worker } from 'node:worker_threads';

const WORKER = new URL('./wal-checkpoint.worker.ts', import.meta.url);
/** How long after a write its checkpoint comes: the writes until then share it. */
export const CHECKPOINT_DELAY_MS = 50;

export type CheckpointMessage = { open: string } | { checkpoint: string } | { close: string };
/** From the worker: a file it cannot checkpoint, or one of its users let go (`closed`). */
export type CheckpointReply = { failed: string; message: string } | { closed: string };

/** How long a closing connection waits for the worker to let go of its file. */
const CLOSE_WAIT_MS = 2_000;

let shared: Worker | null = null;
const users = new Set<WalCheckpoints>();
/** Per file, the closes the worker has still to acknowledge, oldest first. */
const closing = new Map<string, Array<() => void>>();

function acknowledged(file: string): void {
  const waiting = closing.get(file);
  waiting?.shift()?.();
  if (waiting?.length === 0) closing.delete(file);
}

/** Resolved or given up: the worker keeps the process alive only while a close waits on it. */
function settled(): void {
  if (closing.size === 0) shared?.unref();
}

function worker(): Worker {
  if (shared) return shared;
  const w = new Worker(WORKER);
  const fail = () => {
    if (shared !== w) return;
    shared = null;
    for (const u of [...users]) u.fail();
    // A worker that is gone holds no file: every close waiting on it is done.
    const waiting = [...closing.values()].flat();
    closing.clear();
    for (const done of waiting) done();
  };
  w.on('error', fail);
  w.on('exit', fail);
  w.on('message', (m: CheckpointReply) => {
    if ('closed' in m) {
      acknowledged(m.closed);
      settled();
    } else for (const u of [...users]) if (u.file === m.failed) u.fail();
  });
  // The worker never keeps the process alive (unref'd after its listeners, which would ref it
  // again): a file not checkpointed at exit is read back, log included, by the next connection.
  w.unref();
  shared = w;
  return w;
}

/** The background checkpoints of one connection's database file. */
export class WalCheckpoints {
  readonly file: string;
  private readonly onFailure: () => void;
  private due = false;
  private active = true;

  /** `onFailure`: the worker cannot checkpoint this file (the connection must do it again). */
  constructor(file: string, onFailure: () => void) {
    this.file = file;
    this.onFailure = onFailure;
    users.add(this);
    worker().postMessage({ open: file } satisfies CheckpointMessage);
  }

  /** After a write: a checkpoint CHECKPOINT_DELAY_MS from now, one for every write until then. */
  soon(): void {
    if (this.due || !this.active) return;
    this.due = true;
    setTimeout(() => {
      this.due = false;
      if (this.active) shared?.postMessage({ checkpoint: this.file } satisfies CheckpointMessage);
    }, CHECKPOINT_DELAY_MS).unref();
  }

  fail(): void {
    if (!this.active) return;
    // The connection checkpoints on its own from now: nothing waits for the worker's answer.
    this.close().catch(() => undefined);
    this.onFailure();
  }

  /**
   * Resolves once the worker has let go of the file (a checkpoint it was running included), so
   * the caller may then delete it: before, a test's temporary directory was removed while the
   * worker still wrote the log beside it (ENOTEMPTY).
   */
  close(): Promise<void> {
    if (!this.active) return Promise.resolve();
    this.active = false;
    users.delete(this);
    const w = shared;
    if (!w) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiting = closing.get(this.file) ?? [];
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      // Bounded: a worker that neither answers nor exits must not hold a shutdown.
      const timer = setTimeout(() => {
        const at = waiting.indexOf(done);
        if (at >= 0) waiting.splice(at, 1);
        if (waiting.length === 0) closing.delete(this.file);
        settled();
        resolve();
      }, CLOSE_WAIT_MS);
      waiting.push(done);
      closing.set(this.file, waiting);
      // The answer must be able to arrive: a process whose last work is this close (a command
      // that ends with it) would otherwise exit with the close unsettled.
      w.ref();
      w.postMessage({ close: this.file } satisfies CheckpointMessage);
    });
  }
}
