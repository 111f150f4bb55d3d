// Composition root: builds stores, services, the worker and the HTTP app from one Config.
// Nothing else wires dependencies; tests call `composeService` with their own DATA_DIR.
import { RenderPool } from '../render/render-pool.ts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { openStores } from './open-stores.ts';
import { WorkspaceService } from '../workspace/workspace.service.ts';
import { StreamRegistry } from '../events/stream-registry.ts';
import { JobService } from '../jobs/jobs.service.ts';
import { ResultJobService } from '../jobs/result-jobs.service.ts';
import { FilesService } from '../files/files.service.ts';
import { MetricsService } from '../metrics/metrics.service.ts';
import { EntitiesService } from '../entities/entities.service.ts';
import { CreditsService } from '../credits/credits.service.ts';
import { FeedbackService } from '../feedback/feedback.service.ts';
import { MemoryRateLimitCounter } from '../http/rate-limit.ts';
import { RedisRateLimitCounter } from '../http/redis-rate-limit.ts';
import { buildApp } from '../http/app.ts';
import { ROUTES } from './routes.ts';
import { Worker } from '../queue/worker.ts';
import { JobRunner } from '../jobs/job.runner.ts';
import { MediaAnalysisRunner } from '../files/media-analysis.runner.ts';
import type { AnalysisEngine } from '../analysis/engine.ts';
import type { Services } from './services.ts';
import { WebhookService } from '../webhooks/webhooks.service.ts';
import { WebhookDispatcher } from '../webhooks/dispatcher.ts';
import { closeDeliveryAgents } from '../webhooks/deliver.ts';
import { RetentionSweeper } from '../retention/retention.ts';
import { OrphanSweeper, orphanSafeAgeMs, tempSafeAgeMs, type StartSweeps } from '../store/orphan-sweeper.ts';
import { warnOncePerFile } from '../store/blob-store.ts';
import { givePlainNames } from '../files/plain-names.ts';
import { useCursorKey } from '../store/cursor.ts';
import { ServiceMetrics } from '../health/metrics.ts';

export interface ComposedService {
  services: Services;
  app: FastifyInstance;
  worker: Worker | null;
  /** The webhook dispatcher (roles `all` and `worker`). */
  webhooks: WebhookDispatcher | null;
  /** The retention sweep (roles `all` and `worker`). */
  retention: RetentionSweeper | null;
  /** The periodic sweep of stored media files without a row and of crashed uploads' temporary files (roles `all` and `worker`). */
  orphans: OrphanSweeper | null;
  /** What the start-up sweeps remove (serve.ts runs them before listening), by the same bounds as the periodic sweep. */
  startSweeps: StartSweeps;
  close(): Promise<void>;
}

export async function composeService(config: Config, opts: { engine: AnalysisEngine | null; logger?: boolean }): Promise<ComposedService> {
  let wake: () => void = () => undefined;
  // A job that ended in this process wakes the webhook dispatcher, so its event goes out at once.
  let wakeWebhooks: () => void = () => undefined;
  // Counters raised where things happen, so that /metrics reads no table (decisions §12).
  const counters = new ServiceMetrics();
  const { stores, bus, mediaBus, taskSignal } = await openStores(config, (_ws, e) => {
    counters.jobEvent(e.event);
    if (e.event !== 'job.updated') wakeWebhooks();
  });
  // List cursors are encrypted with a key every process of the service shares (store/cursor.ts).
  useCursorKey(await stores.backend.serviceKey('cursor'));
  const { workspaces, jobs } = stores;
  const workspaceService = new WorkspaceService(workspaces, config.initialCredits, config);
  const streams = new StreamRegistry((apiKey) => workspaceService.authenticate(apiKey), config.streamRecheckSec * 1000);
  workspaceService.onKeyRevoked((keyId) => streams.closeKey(keyId));
  // Each service is given what it uses, no more: nothing but this file sees the whole set.
  // A task queued here starts this process's worker at once, and other processes' workers (PostgreSQL).
  const wakeWorker = () => {
    wake();
    taskSignal.announce();
  };
  const memberStores = { media: stores.media, entities: stores.entities };
  const jobService = new JobService(jobs, stores.idempotency, wakeWorker, { workerConcurrency: config.workerConcurrency });
  // The diarization files and HTML reports are made in a worker thread (issue 41, finding 2).
  const render = new RenderPool();
  const services: Services = {
    config,
    streams,
    counters,
    rateLimits: null,
    lifecycle: { closing: false },
    stores,
    bus,
    mediaBus,
    workspace: workspaceService,
    jobs: jobService,
    webhooks: new WebhookService(stores.webhooks, () => wakeWebhooks()),
    wakeWorker,
    entities: new EntitiesService(stores.entities),
    credits: new CreditsService(stores.credits),
    feedback: new FeedbackService(stores.feedback, stores.results),
    files: new FilesService({
      media: stores.media, entities: stores.entities, blobs: stores.blobs, contentLinks: stores.contentLinks, maxMediaSec: config.maxMediaSec, wakeWorker, render,
      mediaDir: config.mediaDir, minFreeDiskBytes: config.minFreeDiskBytes,
      quotas: (workspaceId) => workspaceService.quotas(workspaceId), usage: (workspaceId) => workspaces.usage(workspaceId),
    }),
    metrics: new MetricsService(memberStores),
    resultJobs: new ResultJobService({
      references: stores.references, jobService, jobs, results: stores.results, media: stores.media, render,
      webhookRules: { allowPrivate: config.webhookAllowPrivate, requireHttps: config.webhookRequireHttps },
    }),
  };

  // With REDIS_URL, every API process shares the same rate-limit windows.
  // While Redis does not answer, each process counts alone, with a warning (redis-rate-limit.ts).
  const rateLimitCounter = config.redisUrl
    ? new RedisRateLimitCounter(config.redisUrl, undefined, (msg) => app.log.warn(msg))
    : new MemoryRateLimitCounter();
  services.rateLimits = rateLimitCounter;
  const app = await buildApp({ config, services, rateLimitCounter, ...(opts.logger !== undefined ? { logger: opts.logger } : {}) }, ROUTES);

  let worker: Worker | null = null;
  if (config.role !== 'api') {
    worker = new Worker(
      stores.queue,
      {
        'job.run': new JobRunner({ ...memberStores, jobs, engine: opts.engine, jobTimeoutSec: config.jobTimeoutSec }),
        'media.analyze': new MediaAnalysisRunner({ ...memberStores, engine: opts.engine, limits: config }),
      },
      { concurrency: config.workerConcurrency, leaseMs: config.jobLeaseSec * 1000, log: (msg, extra) => app.log.warn(extra ?? {}, msg) },
    );
    wake = worker.wake;
    taskSignal.watch(worker.wake);
  }

  let webhooks: WebhookDispatcher | null = null;
  if (config.role !== 'api') {
    webhooks = new WebhookDispatcher({
      store: stores.webhooks,
      secrets: async (workspaceId) => (await services.workspace.signingSecrets(workspaceId)).secrets,
      allowPrivate: config.webhookAllowPrivate,
      requireHttps: config.webhookRequireHttps,
      log: (msg, extra) => app.log.warn(extra ?? {}, msg),
      onAttempt: (claim, outcome, status) => counters.webhookAttempt(claim.firstAttemptLatencyMs, outcome, status),
    });
    wakeWebhooks = webhooks.wake;
    // Started here rather than in serve.ts: deliveries left by a previous run go out as soon as
    // the store is open, whether or not this process listens for HTTP.
    webhooks.start();
  }

  // Job events, webhook events, deliveries and attempts older than RETENTION_DAYS are deleted by
  // the processes that run jobs (docs/security.md).
  let retention: RetentionSweeper | null = null;
  if (config.role !== 'api') {
    retention = new RetentionSweeper(stores.retention, { retentionDays: config.retentionDays, log: (msg, extra) => app.log.warn(extra ?? {}, msg) });
    retention.start();
  }

  // Media files that no row claims (a crash mid-upload, in any process sharing MEDIA_DIR) are
  // removed at every start (serve.ts) and, by the processes that run jobs, every ORPHAN_SWEEP_SEC;
  // both while other processes upload, so both keep files younger than the same safe age.
  // Temporary files of crashed uploads too, by their age alone while the service runs.
  const sweepsPeriodically = config.role !== 'api';
  const startSweeps: StartSweeps = {
    tempOlderThanMs: tempSafeAgeMs(config.requestIdleTimeoutSec, config.databaseTimeoutSec),
    orphansOlderThanMs: orphanSafeAgeMs(config.databaseTimeoutSec),
    // What a failed start-up sweep says comes next: the periodic sweep, or only the next start.
    againEveryMs: sweepsPeriodically ? config.orphanSweepSec * 1000 : null,
    // One log for both, so that a file the sweeps cannot remove is warned about once per process.
    log: warnOncePerFile((msg, extra) => app.log.warn(extra ?? {}, msg), (msg, extra) => app.log.debug(extra ?? {}, msg)),
    // Rows left naming attached audio by a name beside (a crash mid-attach) name its plain name:
    // versions before names beside remove any other name of a row's file once an hour old.
    plainNames: (log) => givePlainNames({ media: stores.media, blobs: stores.blobs }, log),
  };
  let orphans: OrphanSweeper | null = null;
  if (sweepsPeriodically) {
    orphans = new OrphanSweeper(stores.blobs, (names) => stores.media.filesWithRows(names), {
      everyMs: config.orphanSweepSec * 1000,
      olderThanMs: startSweeps.orphansOlderThanMs,
      tempOlderThanMs: startSweeps.tempOlderThanMs,
      log: startSweeps.log,
      plainNames: startSweeps.plainNames,
    });
    orphans.start();
  }

  // Idempotency keys are kept 24 h (decisions §5); forget older ones now and then.
  const purge = setInterval(() => void stores.idempotency.purgeExpired().catch(() => undefined), 10 * 60 * 1000);
  purge.unref();
  let closed = false;
  return {
    services,
    app,
    worker,
    webhooks,
    retention,
    orphans,
    startSweeps,
    async close() {
      if (closed) return;
      closed = true;
      services.lifecycle.closing = true;
      clearInterval(purge);
      await retention?.close();
      await orphans?.close();
      await worker?.close();
      // After the worker: events of jobs that ended while it stopped are sent, or left pending.
      await webhooks?.close();
      await app.close();
      await render.close();
      closeDeliveryAgents();
      if (rateLimitCounter instanceof RedisRateLimitCounter) await rateLimitCounter.close();
      await stores.backend.close();
    },
  };
}
