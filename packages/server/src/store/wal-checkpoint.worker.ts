// Runs in a worker thread (wal-checkpoint.ts): one connection per database file the process has
// open (counted, since a process may open a file more than once), a PASSIVE checkpoint of a file
// when asked, and the connection closed with the last user. Any failure is reported, and that
// file's connections go back to checkpointing on their own.
import { parentPort } from 'node:worker_threads';
import { DatabaseSync } from 'node:sqlite';
import type { CheckpointMessage, CheckpointReply } from './wal-checkpoint.ts';

const open = new Map<string, { db: DatabaseSync; users: number }>();

function failed(file: string, err: unknown): void {
  parentPort?.postMessage({ failed: file, message: String(err) } satisfies CheckpointReply);
}

parentPort?.on('message', (m: CheckpointMessage) => {
  if ('open' in m) {
    const held = open.get(m.open);
    if (held) {
      held.users++;
      return;
    }
    try {
      // open: the file and its WAL mode were made by the connection that asks.
      open.set(m.open, { db: new DatabaseSync(m.open), users: 1 });
    } catch (err) {
      failed(m.open, err);
    }
  } else if ('checkpoint' in m) {
    const held = open.get(m.checkpoint);
    try {
      held?.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch (err) {
      failed(m.checkpoint, err);
    }
  } else {
    const held = open.get(m.close);
    if (held && --held.users === 0) {
      open.delete(m.close);
      try {
        held.db.close();
      } catch {
        // Its file may be gone already: nothing to keep.
      }
    }
    parentPort?.postMessage({ closed: m.close } satisfies CheckpointReply);
  }
});
