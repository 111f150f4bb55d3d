// The PostgreSQL backend's stores, opened on one pool; loaded only when DATABASE_URL is set.
import { randomBytes } from 'node:crypto';
import { PgDb, type PgOptions } from './pg.ts';
import { FileBlobStore } from './blob-store.ts';
import type { JobEventHook, OpenedStores, StoreBackend, Stores } from './stores.ts';
import { PgWorkspaceStore } from '../workspace/workspace.store.pg.ts';
import { PgJobStore } from '../jobs/jobs.store.pg.ts';
import { PgQueueStore } from '../queue/queue.store.pg.ts';
import { PgMediaStore } from '../files/media.store.pg.ts';
import { PgContentLinkStore } from '../files/content-links.store.pg.ts';
import { MediaChangeBus } from '../events/media-change-bus.ts';
import { PgEntityStore } from '../entities/entities.store.pg.ts';
import { PgResultStore } from '../results/results.store.pg.ts';
import { PgCreditStore } from '../credits/credits.store.pg.ts';
import { PgFeedbackStore } from '../feedback/feedback.store.pg.ts';
import { PgWebhookStore } from '../webhooks/webhooks.store.pg.ts';
import { PgIdempotencyStore } from '../idempotency/idempotency.store.pg.ts';
import { PgJobEventBus } from '../events/job-event-bus.pg.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import type { RedisBusOptions } from '../events/job-event-bus.redis.ts';
import { PgRetentionStore } from '../retention/retention.store.pg.ts';
import { PgReferenceStore } from '../jobs/references.store.pg.ts';
import { PgTaskSignal } from '../queue/task-signal.pg.ts';
import type { TaskSignal } from '../queue/task-signal.ts';

/** The PostgreSQL stores, for tests that open them on their own schema. */
export interface PgStores extends Stores {
  pg: PgDb;
}

function pgBackend(db: PgDb, bus: JobEventBus | null, taskSignal: TaskSignal): StoreBackend {
  return {
    kind: 'postgres',
    ping: () => db.ping(),
    aggregate: <T>(sql: string) => db.all<T>(sql),
    serviceKey: async (name: string) => {
      await db.run('INSERT INTO service_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', name, randomBytes(32).toString('base64'));
      return Buffer.from((await db.get<{ value: string }>('SELECT value FROM service_keys WHERE name = $1', name))?.value ?? '', 'base64');
    },
    close: async () => {
      await bus?.close?.();
      await taskSignal.close();
      await db.close();
    },
  };
}

/**
 * Opens the stores on `url` (migrating under an advisory lock). `options.schema` keeps a test's
 * tables apart from every other test's in one database. With `redis`, job events travel between
 * processes by Redis pub/sub (job-event-bus.redis.ts) rather than LISTEN/NOTIFY.
 */
export async function openPgStores(
  url: string,
  mediaDir: string,
  onJobEvent: JobEventHook,
  log?: (msg: string, extra?: Record<string, unknown>) => void,
  options: PgOptions = {},
  redis?: RedisBusOptions,
): Promise<OpenedStores & { stores: PgStores }> {
  // With Redis carrying job events, nobody LISTENs to them: their statements send no NOTIFY.
  const db = await PgDb.open(url, { ...options, notifyJobEvents: redis === undefined });
  let bus: JobEventBus;
  try {
    bus = redis ? await (await import('../events/job-event-bus.redis.ts')).RedisJobEventBus.start(db, redis, log) : await PgJobEventBus.start(db, log);
  } catch (err) {
    await db.close();
    throw err;
  }
  const mediaBus = new MediaChangeBus();
  const taskSignal = new PgTaskSignal(db, log);
  const stores: PgStores = {
    pg: db,
    backend: pgBackend(db, bus, taskSignal),
    workspaces: new PgWorkspaceStore(db),
    jobs: new PgJobStore(db, (ws, e) => {
      bus.publish(ws, e);
      onJobEvent(ws, e);
    }),
    queue: new PgQueueStore(db),
    media: new PgMediaStore(db, (ws, id) => mediaBus.publish(ws, id)),
    contentLinks: new PgContentLinkStore(db),
    entities: new PgEntityStore(db),
    references: new PgReferenceStore(db),
    results: new PgResultStore(db),
    blobs: new FileBlobStore(mediaDir),
    credits: new PgCreditStore(db),
    feedback: new PgFeedbackStore(db),
    webhooks: new PgWebhookStore(db),
    idempotency: new PgIdempotencyStore(db),
    retention: new PgRetentionStore(db),
  };
  return { stores, bus, mediaBus, taskSignal };
}

export async function openPgAdminStores(url: string, schema: string) {
  const db = await PgDb.open(url, { max: 2, ...(schema === 'public' ? {} : { schema }) });
  return { workspaces: new PgWorkspaceStore(db), credits: new PgCreditStore(db), close: () => db.close() };
}
