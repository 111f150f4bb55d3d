// What both store backends provide (backends.ts opens the one configured): their stores behind
// one set of interfaces, the job event bus, and readiness, counts and closing. Types only, so
// that each backend's module depends on this file, not on the selector that loads it.
import type { BlobStore } from './blob-store.ts';
import type { WorkspaceStore } from '../workspace/workspace.store.ts';
import type { JobEvent, JobStore } from '../jobs/jobs.store.ts';
import type { QueueStore } from '../queue/queue.store.ts';
import type { MediaStore } from '../files/media.store.ts';
import type { ContentLinkStore } from '../files/content-links.store.ts';
import type { MediaChangeBus } from '../events/media-change-bus.ts';
import type { EntityStore } from '../entities/entities.store.ts';
import type { ResultStore } from '../results/results.store.ts';
import type { CreditStore } from '../credits/credits.store.ts';
import type { FeedbackStore } from '../feedback/feedback.store.ts';
import type { WebhookStore } from '../webhooks/webhooks.store.ts';
import type { IdempotencyStore } from '../idempotency/idempotency.store.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import type { RetentionStore } from '../retention/retention.store.ts';
import type { ReferenceStore } from '../jobs/references.store.ts';
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
