// The stores, whichever engine holds them: their interfaces in one set (Stores), what every
// engine answers besides (StoreBackend), and every store opened on one database (sql.ts).
// open-stores.ts opens the configured engine; open-pg-stores.ts adds PostgreSQL's mechanisms.
import { randomBytes } from 'node:crypto';
import type { SqlDatabase } from '../store/sql.ts';
import { FileBlobStore, type BlobStore } from '../store/blob-store.ts';
import { SqlWorkspaceStore, type WorkspaceStore } from '../workspace/workspace.store.ts';
import { SqlJobStore, type JobEvent, type JobStore, type JobStoreEngine } from '../jobs/jobs.store.ts';
import { SqlQueueStore, type QueueStore } from '../queue/queue.store.ts';
import { SqlMediaStore, type MediaStore } from '../files/media.store.ts';
import { SqlContentLinkStore, type ContentLinkStore } from '../files/content-links.store.ts';
import type { MediaChangeBus } from '../events/media-change-bus.ts';
import { SqlEntityStore, type EntityStore } from '../entities/entities.store.ts';
import { SqlResultStore, type ResultStore } from '../results/results.store.ts';
import { SqlCreditStore, type CreditStore } from '../credits/credits.store.ts';
import { SqlFeedbackStore, type FeedbackStore } from '../feedback/feedback.store.ts';
import { SqlWebhookStore, type WebhookStore } from '../webhooks/webhooks.store.ts';
import { SqlIdempotencyStore, type IdempotencyStore } from '../idempotency/idempotency.store.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import { SqlRetentionStore, type RetentionStore } from '../retention/retention.store.ts';
import { SqlReferenceStore, type ReferenceStore } from '../jobs/references.store.ts';
import type { TaskSignal } from '../queue/task-signal.ts';

/** What every backend answers besides its stores: readiness, the metrics' counts, closing. */
export interface StoreBackend {
  readonly kind: 'sqlite' | 'postgres';
  ping(): Promise<boolean>;
  /** Runs a read-only aggregate query without parameters, written in SQL both backends speak. */
  aggregate<T>(sql: string): Promise<T[]>;
  /** A random 32-byte key kept in the store under `name`, made by the first process that asks: the same for every process. */
  serviceKey(name: string): Promise<Buffer>;
  close(): Promise<void>;
}

export interface Stores {
  backend: StoreBackend;
  workspaces: WorkspaceStore;
  jobs: JobStore;
  queue: QueueStore;
  media: MediaStore;
  /** Short-lived links that stream one media's bytes without the key. */
  contentLinks: ContentLinkStore;
  entities: EntityStore;
  /** Whether the media and entities a job request names exist. */
  references: ReferenceStore;
  results: ResultStore;
  blobs: BlobStore;
  credits: CreditStore;
  feedback: FeedbackStore;
  webhooks: WebhookStore;
  idempotency: IdempotencyStore;
  /** What the retention sweep deletes. */
  retention: RetentionStore;
}

export interface OpenedStores {
  stores: Stores;
  /** The job event bus of this backend: in-process for the embedded store, LISTEN/NOTIFY on PostgreSQL, or Redis pub/sub there with REDIS_URL. */
  bus: JobEventBus;
  /**
   * Wakes the media event streams when a media changes in this process. In-process on both
   * backends: the media streams also read the store's change numbers every second, so changes
   * made by another process arrive by that poll.
   */
  mediaBus: MediaChangeBus;
  /** Tells other processes' workers of queued tasks: nothing on the embedded store, NOTIFY on PostgreSQL. */
  taskSignal: TaskSignal;
}

export type JobEventHook = (workspaceId: string, event: JobEvent) => void;

/** The stores with the database they run on, for tests and benches that look inside. */
export interface StoresWithDb extends Stores {
  db: SqlDatabase;
}

/** The database under the stores (for tests and benches that look inside). */
export function storeDb(stores: Stores): SqlDatabase {
  if (!('db' in stores)) throw new Error('these stores do not show their database');
  return (stores as StoresWithDb).db;
}

/** What every engine answers besides its stores; `closeFirst` closes the engine's own parts (bus, signal). */
export function backendOf(db: SqlDatabase, closeFirst: () => Promise<void> = async () => undefined): StoreBackend {
  return {
    kind: db.dialect.name,
    ping: () => db.ping(),
    aggregate: <T>(sql: string) => db.all<T>(sql),
    serviceKey: async (name: string) => {
      await db.run('INSERT INTO service_keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', name, randomBytes(32).toString('base64'));
      return Buffer.from((await db.get<{ value: string }>('SELECT value FROM service_keys WHERE name = ?', name))?.value ?? '', 'base64');
    },
    close: async () => {
      await closeFirst();
      await db.close();
    },
  };
}

/** Every store on one database. */
export function storesOn(
  db: SqlDatabase,
  parts: { backend: StoreBackend; mediaDir: string; bus: JobEventBus; mediaBus: MediaChangeBus; onJobEvent: JobEventHook; jobEngine?: JobStoreEngine },
): StoresWithDb {
  return {
    db,
    backend: parts.backend,
    workspaces: new SqlWorkspaceStore(db),
    jobs: new SqlJobStore(db, (ws, e) => {
      parts.bus.publish(ws, e);
      parts.onJobEvent(ws, e);
    }, parts.jobEngine),
    queue: new SqlQueueStore(db),
    media: new SqlMediaStore(db, (ws, id) => parts.mediaBus.publish(ws, id)),
    contentLinks: new SqlContentLinkStore(db),
    entities: new SqlEntityStore(db),
    references: new SqlReferenceStore(db),
    results: new SqlResultStore(db),
    blobs: new FileBlobStore(parts.mediaDir),
    credits: new SqlCreditStore(db),
    feedback: new SqlFeedbackStore(db),
    webhooks: new SqlWebhookStore(db),
    idempotency: new SqlIdempotencyStore(db),
    retention: new SqlRetentionStore(db),
  };
}

