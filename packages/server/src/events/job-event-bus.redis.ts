// The job event bus across processes through Redis pub/sub, used on PostgreSQL when REDIS_URL is
// set (docs/deploy.md). A Redis publish cannot be part of the SQL transaction: it is sent after the
// commit (the store's event hook), so a process that dies between its commit and its publish, or
// a subscriber connection that drops a message, loses a notification while the event is stored.
// The store stays the source of truth and every subscriber catches up by itself:
// - a subscriber that was told nothing for `catchUpMs` is told to read the store (`null`), so a
//   lost notification delays a stream by at most that long;
// - when the subscribing connection comes back, every subscriber reads the store at once;
// - when this process's publishing connection comes back, it tells every process to do so (what
//   it committed meanwhile was not announced).
// Messages have the LISTEN/NOTIFY bus's form (job-event-bus.pg.ts), and the same reading.
import { Redis } from 'ioredis';
import type { PgDb } from '../store/pg.ts';
import type { JobEvent } from '../jobs/jobs.store.ts';
import { announcedBy, announcement, deliverAnnouncement } from './job-event-bus.pg.ts';
import { MemoryJobEventBus, type JobEventBus, type JobEventListener } from './job-event-bus.ts';

/** A larger event is announced by its id; receivers read it from the store. */
const MAX_PAYLOAD = 64 * 1024;
const START_TIMEOUT_MS = 10_000;

export interface RedisBusOptions {
  url: string;
  /** A subscriber told nothing for this long reads the store (EVENT_CATCH_UP_SEC). */
  catchUpMs: number;
}

type Log = (msg: string, extra?: Record<string, unknown>) => void;

export class RedisJobEventBus implements JobEventBus {
  readonly crossProcess = true;
  private readonly local = new MemoryJobEventBus();
  private readonly db: PgDb;
  private readonly pub: Redis;
  private readonly sub: Redis;
  /** One channel per database and schema: deployments sharing a Redis do not wake each other. */
  readonly channel: string;
  private readonly catchUpMs: number;
  private readonly ownPrefix: string;
  private readonly log: Log;
  private pubConnected = false;

  private constructor(db: PgDb, options: RedisBusOptions, log: Log) {
    this.db = db;
    this.log = log;
    this.catchUpMs = options.catchUpMs;
    this.ownPrefix = announcedBy(db);
    const u = new URL(db.url);
    this.channel = `rapport:job-events:${u.host}${u.pathname}:${db.schema}`;
    // A publish while disconnected fails at once rather than queuing without bound: what it
    // would have announced is caught up from the store (see the top of the file).
    this.pub = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.sub = new Redis(options.url, { autoResubscribe: false });
    this.pub.on('error', () => undefined);
    this.sub.on('error', () => undefined);
    this.pub.on('ready', () => {
      if (this.pubConnected) this.send(`${this.ownPrefix}"w":"","all":1}`);
      this.pubConnected = true;
    });
    this.sub.on('message', (channel: string, payload: string) => {
      if (channel === this.channel) deliverAnnouncement(this.db, this.local, payload, this.ownPrefix);
    });
  }

  /** Connects and subscribes; rejects when Redis does not answer within 10 s. */
  static async start(db: PgDb, options: RedisBusOptions, log: Log = () => undefined): Promise<RedisJobEventBus> {
    const bus = new RedisJobEventBus(db, options, log);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.all([bus.subscribed(), new Promise((resolve) => (bus.pub.status === 'ready' ? resolve(null) : bus.pub.once('ready', resolve)))]),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`REDIS_URL is set but Redis did not answer within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      await bus.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    return bus;
  }

  /** Resolves at the first subscription; every later one (a reconnection) wakes every subscriber. */
  private subscribed(): Promise<void> {
    return new Promise((resolve) => {
      let first = true;
      const subscribe = () => {
        this.sub.subscribe(this.channel).then(
          () => {
            if (first) {
              first = false;
              resolve();
              return;
            }
            this.log('job event bus: Redis subscription restored; every stream reads the store');
            // Whatever was announced while the connection was down is in the store.
            this.local.wakeAll();
          },
          () => undefined,
        );
      };
      this.sub.on('ready', subscribe);
    });
  }

  publish(workspaceId: string, event: JobEvent): void {
    this.local.publish(workspaceId, event);
    const { before, after } = announcement(this.db, workspaceId, event, MAX_PAYLOAD);
    this.send(`${before}${event.id}${after}`);
  }

  /** Publishes; a failure is left to the subscribers' catch-up (the event is in the store). */
  protected send(message: string): void {
    this.pub.publish(this.channel, message).catch(() => undefined);
  }

  subscribeJob(jobId: string, fn: JobEventListener): () => void {
    return this.watched((f) => this.local.subscribeJob(jobId, f), fn);
  }

  subscribeWorkspace(workspaceId: string, fn: JobEventListener): () => void {
    return this.watched((f) => this.local.subscribeWorkspace(workspaceId, f), fn);
  }

  /** Subscribes `fn`, and tells it to read the store whenever it was told nothing for `catchUpMs`. */
  private watched(subscribe: (fn: JobEventListener) => () => void, fn: JobEventListener): () => void {
    const timer = setTimeout(() => {
      timer.refresh();
      fn(null);
    }, this.catchUpMs).unref();
    const off = subscribe((e) => {
      timer.refresh();
      fn(e);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }

  async close(): Promise<void> {
    this.sub.removeAllListeners('ready');
    await Promise.all([this.pub.quit().catch(() => this.pub.disconnect()), this.sub.quit().catch(() => this.sub.disconnect())]);
  }
}
