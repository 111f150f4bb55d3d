// How the workers of other processes learn that a task was queued. A worker claims at once when
// its own process queued the task (Worker.wake) and otherwise at its next poll (every 250 ms);
// on PostgreSQL the process that queued a task also tells every other process's worker
// (task-signal.pg.ts), so a job created through one API process starts on a worker elsewhere
// without waiting for that poll. Polling stays either way: a lost signal costs one poll.
export interface TaskSignal {
  /** A task of this process's was committed: tell the workers of the other processes. */
  announce(): void;
  /** Calls `onTask` when another process announces a task (from now until close). */
  watch(onTask: () => void): void;
  close(): Promise<void>;
}

/**
 * The embedded store's: one process runs the API and the worker (a separate worker on the same
 * DATA_DIR polls), so there is nobody to tell.
 */
export const localTaskSignal: TaskSignal = {
  announce: () => undefined,
  watch: () => undefined,
  close: async () => undefined,
};
