// The service container: what route handlers and workers are given. Built once in
// `compose.ts` from the configuration; tests build it the same way on a temporary DATA_DIR.
import type { Config } from './config.ts';
import type { SqliteIdempotencyStore } from './idempotency/idempotency.store.ts';
import type { SqliteDb } from './store/sqlite.ts';
import type { WorkspaceService } from './workspace/workspace.service.ts';
import type { JobService } from './jobs/jobs.service.ts';
import type { JobStore } from './jobs/jobs.store.ts';
import type { QueueStore } from './queue/queue.store.ts';
import type { JobEventBus } from './events/job-event-bus.ts';
import type { StreamRegistry } from './events/stream-registry.ts';
import type { SqliteMediaStore } from './files/media.store.ts';
import type { SqliteContentLinkStore } from './files/content-links.store.ts';
import type { MediaChangeBus } from './events/media-change-bus.ts';
import type { SqliteEntityStore } from './entities/entities.store.ts';
import type { SqliteResultStore } from './results/results.store.ts';
import type { SqliteWorkspaceStore } from './workspace/workspace.store.ts';
import type { BlobStore } from './store/blob-store.ts';
import type { MatchingService } from './matching/matching.service.ts';
import type { ReportService } from './reports/reports.service.ts';
import type { FilesService } from './files/files.service.ts';
import type { EntitiesService } from './entities/entities.service.ts';
import type { SqliteCreditStore } from './credits/credits.store.ts';
import type { CreditsService } from './credits/credits.service.ts';
import type { SqliteFeedbackStore } from './feedback/feedback.store.ts';
import type { FeedbackService } from './feedback/feedback.service.ts';
import type { SqliteWebhookStore } from './webhooks/webhooks.store.ts';
import type { WebhookService } from './webhooks/webhooks.service.ts';

export interface Lifecycle {
  closing: boolean;
}

export interface Stores {
  db: SqliteDb;
  workspaces: SqliteWorkspaceStore;
  jobs: JobStore;
  queue: QueueStore;
  media: SqliteMediaStore;
  /** Short-lived links that stream one media's bytes without the key. */
  contentLinks: SqliteContentLinkStore;
  entities: SqliteEntityStore;
  results: SqliteResultStore;
  blobs: BlobStore;
  credits: SqliteCreditStore;
  feedback: SqliteFeedbackStore;
  webhooks: SqliteWebhookStore;
  idempotency: SqliteIdempotencyStore;
}

export interface Services {
  config: Config;
  lifecycle: Lifecycle;
  stores: Stores;
  bus: JobEventBus;
  /** Wakes the media event streams when a media changes in this process. */
  mediaBus: MediaChangeBus;
  workspace: WorkspaceService;
  jobs: JobService;
  matching: MatchingService;
  reports: ReportService;
  files: FilesService;
  entities: EntitiesService;
  credits: CreditsService;
  feedback: FeedbackService;
  /** The webhook delivery log and redelivery. */
  webhooks: WebhookService;
  /** Wakes the worker when new tasks were queued in this process. */
  wakeWorker: () => void;
  /** Open event streams, capped per key and workspace, ended when their key is revoked. */
  streams: StreamRegistry;
}
