// HTTP routes of the job resource and its progress streams.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { IdParams, ListOf } from '../http/schema-helpers.ts';
import { Job, JobListQuery } from './jobs.schemas.ts';
import { streamJob, streamWorkspace } from './job-stream.ts';
import { registerStream } from '../events/stream-registry.ts';
import { EventStream } from '../events/sse.ts';

export function registerJobRoutes(app: FastifyInstance, services: Services): void {
  app.get('/v1/jobs', {
    schema: { querystring: JobListQuery },
    config: { doc: { summary: 'List jobs, newest first', tags: ['jobs'], responses: { 200: { description: 'A page of jobs', schema: ListOf(Job) } } } },
  }, async (req) => services.jobs.list(requireAuth(req.auth), req.query as JobListQuery));

  app.get('/v1/jobs/:id', {
    schema: { params: IdParams },
    config: { rateClass: 'jobStatus', doc: { summary: 'A job: status, stage, progress, result id, error', tags: ['jobs'], responses: { 200: { description: 'The job', schema: Job } } } },
  }, async (req) => services.jobs.get(requireAuth(req.auth), (req.params as IdParams).id));

  app.post('/v1/jobs/:id/cancel', {
    schema: { params: IdParams },
    config: { doc: { summary: 'Cancel a queued or running job', tags: ['jobs'], responses: { 200: { description: 'The job, failed with code canceled', schema: Job } } } },
  }, async (req) => services.jobs.cancel(requireAuth(req.auth), (req.params as IdParams).id));

  app.get('/v1/jobs/:id/events', {
    schema: { params: IdParams },
    config: { rateClass: 'jobStatus', doc: { summary: 'Progress of one job as server-sent events', tags: ['jobs'], responses: { 200: { description: 'text/event-stream of job.updated, job.succeeded, job.failed', schema: EventStream, contentType: 'text/event-stream' } } } },
  }, async (req, reply) => {
    const job = await services.jobs.get(requireAuth(req.auth), (req.params as IdParams).id);
    registerStream(services.streams, req, reply);
    await streamJob(req, reply, services.stores.jobs, services.bus, job);
  });

  app.get('/v1/events', {
    config: {
      doc: {
        summary: 'Progress of every job of the workspace as server-sent events',
        tags: ['jobs'],
        responses: {
          200: { description: 'text/event-stream; each event\'s `id:` is its number within the workspace', schema: EventStream, contentType: 'text/event-stream' },
          410: { description: 'GONE: events after the Last-Event-ID sent were removed by retention (RETENTION_DAYS); reconnect without it' },
        },
      },
    },
  }, async (req, reply) => {
    registerStream(services.streams, req, reply);
    await streamWorkspace(req, reply, services.stores.jobs, services.bus, requireAuth(req.auth).workspaceId);
  });
}
