// The retention sweep (issue 20, finding 9): every RETENTION_SWEEP_MS, and once shortly after
// start, the rows older than RETENTION_DAYS that nothing needs any more are deleted
// (retention.store.ts says which) in batches of RETENTION_BATCH rows, with a turn of the event
// loop between batches, so that a large backlog (the first sweep after an upgrade) never holds
// the store or the event loop for long. Runs in processes with the worker role.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RetentionStore, SweptBatch } from './retention.store.ts';

export const RETENTION_BATCH = 500;
export const RETENTION_SWEEP_MS = 10 * 60 * 1000;
const FIRST_SWEEP_MS = 60 * 1000;
const DAY_MS = 24 * 3600 * 1000;

export class RetentionSweeper {
  private readonly store: RetentionStore;
  private readonly retentionMs: number;
  private readonly log: (msg: string, extra?: Record<string, unknown>) => void;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SweptBatch> | null = null;
  private closed = false;

  constructor(store: RetentionStore, opts: { retentionDays: number; log?: (msg: string, extra?: Record<string, unknown>) => void }) {
    this.store = store;
    this.retentionMs = opts.retentionDays * DAY_MS;
    this.log = opts.log ?? (() => undefined);
  }

  start(): void {
    const run = () => {
      void this.sweep().catch((err: unknown) => this.log('retention sweep failed; it runs again later', { err: (err as Error).message }));
    };
    this.timer = setTimeout(() => {
      run();
      this.timer = setInterval(run, RETENTION_SWEEP_MS);
      this.timer.unref();
    }, FIRST_SWEEP_MS);
    this.timer.unref();
  }

  /** One sweep to the end: batches until nothing older than the retention is left. `now` for tests. */
  sweep(now: number = Date.now()): Promise<SweptBatch> {
    this.running ??= this.sweepAll(now - this.retentionMs).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepAll(cutoffMs: number): Promise<SweptBatch> {
    const total: SweptBatch = { deliveries: 0, events: 0, jobEvents: 0 };
    while (!this.closed) {
      const batch = await this.store.sweepBatch(cutoffMs, RETENTION_BATCH);
      total.deliveries += batch.deliveries;
      total.events += batch.events;
      total.jobEvents += batch.jobEvents;
      if (batch.deliveries < RETENTION_BATCH && batch.events < RETENTION_BATCH && batch.jobEvents < RETENTION_BATCH) break;
      // Let requests, heartbeats and lease renewals run between batches.
      await nextTurn();
    }
    return total;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
