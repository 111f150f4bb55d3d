// The job event bus across processes on PostgreSQL: every job event is announced with NOTIFY in
// the transaction that writes it (so it is delivered at commit, and never for a rolled-back
// change; with REDIS_URL the Redis bus announces them instead, and the statements send none), and every process that has event streams open LISTENs on one connection and hands
// what other processes announced to its own streams. The store stays the source of truth:
// streams read events from it when woken, and whenever LISTEN (re)starts (the first stream
// opened, the listening connection re-made after a loss) every stream is woken to read it, so
// an event announced while this process did not listen is caught up from the store (as a
// client does with Last-Event-ID).
import type pg from 'pg';
import type { PgDb } from '../store/pg.ts';
import { JOB_EVENT_COLUMNS, toJobEvent, type JobEventRow, type JobEvent } from '../jobs/job-events.store.ts';
import { MemoryJobEventBus, type JobEventBus, type JobEventListener } from './job-event-bus.ts';

/** NOTIFY payloads are limited to 8000 bytes; a larger event is sent by reference. */
const MAX_PAYLOAD = 7800;
const RECONNECT_MS = 500;

export interface Announcement {
  /** The announcing process (PgDb.origin). */
  o: string;
  w: string;
  /** The event itself, or only its id when it is too large for a notification. */
  e?: JobEvent;
  i?: number;
  /** Events of the announcing process may have gone unannounced: every subscriber reads the store (the Redis bus's). */
  all?: 1;
}

/** How every announcement of this process begins: its receivers drop their own by it, undecoded. */
export function announcedBy(db: PgDb): string {
  return `{"o":${JSON.stringify(db.origin)},`;
}

/**
 * The NOTIFY payload of a job event whose id the database is about to assign: the text before
 * and after the id, so that the statement that inserts the event also announces it (one round
 * trip). An event too large for a notification is announced by its id alone.
 */
export function announcement(db: PgDb, workspaceId: string, event: Omit<JobEvent, 'id'>, maxPayload = MAX_PAYLOAD): { before: string; after: string } {
  const head = `${announcedBy(db)}"w":${JSON.stringify(workspaceId)}`;
  const after = `,"jobId":${JSON.stringify(event.jobId)},"seq":${event.seq},"event":${JSON.stringify(event.event)},"job":${JSON.stringify(event.job)}}}`;
  // 20 bytes leave room for the id.
  if (Buffer.byteLength(head) + Buffer.byteLength(after) + 30 <= maxPayload) return { before: `${head},"e":{"id":`, after };
  return { before: `${head},"i":`, after: '}' };
}

/**
 * Hands an announcement of another process to this process's subscribers: the event it carries,
 * or the one it names, read from the store (an event too large to travel is sent by its id).
 * Shared with the Redis bus (job-event-bus.redis.ts), whose messages have the same form.
 * Every process receives every announcement, and most are for nobody here (this process's own,
 * published at commit, and all of them while no stream is open here): `ownPrefix`
 * (`announcedBy(db)`) drops those before decoding, which keeps the cost of each further API
 * process off the others.
 */
export function deliverAnnouncement(db: PgDb, local: MemoryJobEventBus, payload: string, ownPrefix: string): void {
  if (!local.listening || payload.startsWith(ownPrefix)) return;
  let a: Announcement;
  try {
    a = JSON.parse(payload) as Announcement;
  } catch {
    return;
  }
  if (a.all) {
    local.wakeAll();
    return;
  }
  if (a.e) {
    local.publish(a.w, a.e);
    return;
  }
  if (a.i === undefined) return;
  db.get<JobEventRow>(`SELECT ${JOB_EVENT_COLUMNS} FROM job_events WHERE workspace_id = $1 AND ws_seq = $2`, a.w, a.i)
    .then((r) => {
      if (r) local.publish(a.w, toJobEvent(r));
    })
    .catch(() => local.wakeAll());
}

/**
 * How long the bus keeps listening after its last subscriber left, so that a client reconnecting
 * its stream finds it listening still.
 */
const UNLISTEN_AFTER_MS = 10_000;

export interface PgJobEventBusOptions {
  /** Default UNLISTEN_AFTER_MS. */
  unlistenAfterMs?: number;
}

export class PgJobEventBus implements JobEventBus {
  readonly crossProcess = true;
  private readonly local = new MemoryJobEventBus();
  private readonly db: PgDb;
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly log: (msg: string, extra?: Record<string, unknown>) => void;
  private readonly unlistenAfterMs: number;

  /** How this process's own announcements begin (see `announcement`). */
  private readonly ownPrefix: string;

  // LISTEN only while something here subscribes (an event stream): every commit that notifies
  // wakes each listening session and its process, which cost PostgreSQL more than the creation's
  // rows (issue 21); a process with no stream open (a worker, an API process nobody streams
  // from) has nothing to hand the events to.
  private subscribers = 0;
  /** Runs while the bus keeps listening after its last subscriber left. */
  private idle: NodeJS.Timeout | null = null;
  /** Whether LISTEN is in force on `client`. */
  private inForce = false;
  private syncing = false;
  private resync = false;

  private constructor(db: PgDb, log: (msg: string, extra?: Record<string, unknown>) => void, opts: PgJobEventBusOptions) {
    this.db = db;
    this.log = log;
    this.ownPrefix = announcedBy(db);
    this.unlistenAfterMs = opts.unlistenAfterMs ?? UNLISTEN_AFTER_MS;
  }

  /** Connects its own session (it LISTENs from the first subscription on). */
  static async start(db: PgDb, log: (msg: string, extra?: Record<string, unknown>) => void = () => undefined, opts: PgJobEventBusOptions = {}): Promise<PgJobEventBus> {
    const bus = new PgJobEventBus(db, log, opts);
    await bus.connect();
    return bus;
  }

  /** Whether other processes' events reach this one now (LISTEN in force). */
  get listens(): boolean {
    return this.inForce;
  }

  private async connect(): Promise<void> {
    const client = await this.db.dedicated();
    client.on('notification', (n) => {
      if (n.channel === this.db.channel && n.payload) deliverAnnouncement(this.db, this.local, n.payload, this.ownPrefix);
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      this.inForce = false;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      this.reconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.inForce = false;
    this.sync();
  }

  private reconnect(): void {
    if (this.closed || this.retry) return;
    this.log('job event bus: the LISTEN connection was lost; reconnecting');
    this.retry = setTimeout(() => {
      this.retry = null;
      // Once connected, LISTEN is put back (when something subscribes) and every subscriber is
      // woken to read the store, where whatever was announced meanwhile is.
      this.connect().catch(() => this.reconnect());
    }, RECONNECT_MS);
    this.retry.unref();
  }

  /** Brings LISTEN in line with the subscriptions, one statement at a time on the session. */
  private sync(): void {
    if (this.syncing) {
      this.resync = true;
      return;
    }
    this.syncing = true;
    this.resync = false;
    const done = () => {
      this.syncing = false;
      if (this.resync) this.sync();
    };
    // syncOnce handles the session's errors itself; a rejection here would be a bug, not a crash.
    this.syncOnce().then(done, done);
  }

  private async syncOnce(): Promise<void> {
    const client = this.client;
    const want = this.subscribers > 0 || this.idle !== null;
    if (!client || this.closed || want === this.inForce) return;
    try {
      await client.query(`${want ? 'LISTEN' : 'UNLISTEN'} "${this.db.channel}"`);
    } catch {
      return; // the session is lost: the next one syncs
    }
    if (client !== this.client) return;
    this.inForce = want;
    // Events committed before LISTEN took effect were announced to no session of this process:
    // every subscriber reads the store, where they are.
    if (want) this.local.wakeAll();
    this.resync = true;
  }

  /** Counts a subscription while it lasts; the first one starts LISTEN, the last one's end stops it after a while. */
  private counted(unsubscribe: () => void): () => void {
    this.subscribers++;
    if (this.idle) {
      clearTimeout(this.idle);
      this.idle = null;
    }
    this.sync();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      if (--this.subscribers > 0 || this.closed) return;
      this.idle = setTimeout(() => {
        this.idle = null;
        this.sync();
      }, this.unlistenAfterMs);
      this.idle.unref();
    };
  }

  publish(workspaceId: string, event: JobEvent): void {
    this.local.publish(workspaceId, event);
  }

  subscribeJob(jobId: string, fn: JobEventListener): () => void {
    return this.counted(this.local.subscribeJob(jobId, fn));
  }

  subscribeWorkspace(workspaceId: string, fn: JobEventListener): () => void {
    return this.counted(this.local.subscribeWorkspace(workspaceId, fn));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.idle) clearTimeout(this.idle);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}
