// The service container: what the HTTP layer and its route handlers are given. Built once in
// `compose.ts` from the configuration; tests build it the same way on a temporary DATA_DIR.
// Services and runners never see it: each is given only what it uses, so no service imports
// this file (which imports them all).
import type { Config } from '../config.ts';
import type { WorkspaceService } from '../workspace/workspace.service.ts';
import type { JobService } from '../jobs/jobs.service.ts';
import type { JobEventBus } from '../events/job-event-bus.ts';
import type { StreamRegistry } from '../events/stream-registry.ts';
import type { MediaChangeBus } from '../events/media-change-bus.ts';
import type { ResultJobService } from '../jobs/result-jobs.service.ts';
import type { FilesService } from '../files/files.service.ts';
import type { MetricsService } from '../metrics/metrics.service.ts';
import type { EntitiesService } from '../entities/entities.service.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import type { FeedbackService } from '../feedback/feedback.service.ts';
import type { WebhookService } from '../webhooks/webhooks.service.ts';
import type { Stores } from './stores.ts';
import type { ServiceMetrics } from '../health/metrics.ts';
import type { RateLimitCounter } from '../http/rate-limit.ts';


export interface Lifecycle {
  closing: boolean;
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
  /** Matching and report jobs and their results, for every kind of the job-kind table. */
  resultJobs: ResultJobService;
  files: FilesService;
  /** Per-speaker measurements of a media or an entity. */
  metrics: MetricsService;
  entities: EntitiesService;
  credits: CreditsService;
  feedback: FeedbackService;
  /** The webhook delivery log and redelivery. */
  webhooks: WebhookService;
  /** Wakes the worker when new tasks were queued in this process. */
  wakeWorker: () => void;
  /** Open event streams, capped per key and workspace, ended when their key is revoked. */
  streams: StreamRegistry;
  /** This process's counters, shown by /metrics. */
  counters: ServiceMetrics;
  /** The rate-limit counter (shared through Redis with REDIS_URL), whose reachability /readyz reports. */
  rateLimits: RateLimitCounter | null;
}
