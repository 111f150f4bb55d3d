// Every store opened on one database (sql.ts), whichever engine it is: what backends.ts (the
// embedded engine) and pg-stores.ts (PostgreSQL) share.
import { randomBytes } from 'node:crypto';
import type { SqlDatabase } from './sql.ts';
import { FileBlobStore } from './blob-store.ts';
import { SqlWorkspaceStore } from '../workspace/workspace.store.ts';
import { SqlJobStore, type JobStoreEngine } from '../jobs/jobs.store.ts';
import { SqlQueueStore } from '../queue/queue.store.ts';
import { SqlMediaStore } from '../files/media.store.ts';
import { SqlContentLinkStore } from '../files/content-links.store.ts';
import type { MediaChangeBus } from '../events/media-change-bus.ts';
import { SqlEntityStore } from '../entities/entities.store.ts';
import { SqlResultStore } from '../results/results.store.ts';
import { SqlCreditStore } from '../credits/credits.store.ts';
import { SqlFeedbackStore } from '../feedback/feedback.store.ts';
import { SqlWebhookStore } from '../webhooks/webhooks.store.ts';
import { SqlIdempotencyStore } from '../idempotency/idempotency.store.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import { SqlRetentionStore } from '../retention/retention.store.ts';
import { SqlReferenceStore } from '../jobs/references.store.ts';
import type { JobEventHook, StoreBackend, Stores } from './stores.ts';

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

