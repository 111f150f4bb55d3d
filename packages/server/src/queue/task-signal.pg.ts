// The task signal on PostgreSQL (task-signal.ts), as graphile-worker wakes its workers: after a
// process commits a task it sends NOTIFY on the queue's channel, and every process that runs a
// worker LISTENs on a connection of its own and claims at once. The NOTIFY is sent after the
// commit, by a statement of its own, not inside the creation statement: a job creation's own
// transaction stays as it is, and under load one NOTIFY stands for many tasks (at most one per
// ANNOUNCE_MS per process; the first one of a quiet spell goes at once). A NOTIFY lost with its
// process, or sent while a LISTEN connection was down, delays a task by one poll; a LISTEN
// connection that comes back wakes its worker once, for what was announced meanwhile.
import type pg from 'pg';
import type { PgDb } from '../store/pg.ts';
import type { TaskSignal } from './task-signal.ts';

/** At most one NOTIFY per this long per process; announcements meanwhile ride on the next one. */
export const ANNOUNCE_MS = 10;
const RECONNECT_MS = 500;

/** The NOTIFY channel of queued tasks in this schema (as the job events' has its own). */
export const taskChannel = (schema: string): string => `rapport_tasks_${schema}`.slice(0, 63);

export class PgTaskSignal implements TaskSignal {
  private readonly db: PgDb;
  private readonly channel: string;
  private readonly log: (msg: string, extra?: Record<string, unknown>) => void;
  private window: NodeJS.Timeout | null = null;
  private pending = false;
  private onTask: (() => void) | null = null;
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(db: PgDb, log: (msg: string, extra?: Record<string, unknown>) => void = () => undefined) {
    this.db = db;
    this.channel = taskChannel(db.schema);
    this.log = log;
  }

  announce(): void {
    if (this.closed) return;
    if (this.window) {
      this.pending = true;
      return;
    }
    this.pending = false;
    this.window = setTimeout(() => {
      this.window = null;
      if (this.pending) this.announce();
    }, ANNOUNCE_MS);
    this.window.unref();
    // The payload names this process, whose own worker was woken directly.
    this.db.run('SELECT pg_notify($1, $2)', this.channel, this.db.origin).catch(() => undefined);
  }

  watch(onTask: () => void): void {
    if (this.onTask || this.closed) return;
    this.onTask = onTask;
    this.connect().catch(() => this.reconnect());
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.window) clearTimeout(this.window);
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = await this.db.dedicated();
    if (this.closed) {
      await client.end();
      return;
    }
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload !== this.db.origin) this.onTask?.();
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      this.reconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.query(`LISTEN "${this.channel}"`);
    } catch (err) {
      void client.end().catch(() => undefined);
      throw err;
    }
    // Closed while LISTEN was under way: close() found no connection to end, so it ends here
    // (left open, it kept the process from exiting).
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    // What was announced before LISTEN took effect reached nobody here.
    this.onTask?.();
  }

  private reconnect(): void {
    if (this.closed || this.retry) return;
    this.log('task signal: the LISTEN connection was lost; reconnecting');
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch(() => this.reconnect());
    }, RECONNECT_MS);
    this.retry.unref();
  }
}
