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
export interface CheckpointFailure { failed: string; message: string }

let shared: Worker | null = null;
const users = new Set<WalCheckpoints>();

function worker(): Worker {
  if (shared) return shared;
  const w = new Worker(WORKER);
  const fail = () => {
    if (shared !== w) return;
    shared = null;
    for (const u of [...users]) u.fail();
  };
  w.on('error', fail);
  w.on('exit', fail);
  w.on('message', (m: CheckpointFailure) => {
    for (const u of [...users]) if (u.file === m.failed) u.fail();
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
    this.close();
    this.onFailure();
  }

  close(): void {
    if (!this.active) return;
    this.active = false;
    users.delete(this);
    shared?.postMessage({ close: this.file } satisfies CheckpointMessage);
  }
}
