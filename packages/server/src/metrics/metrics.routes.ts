// HTTP routes of measurements (extension): thin handlers over MetricsService.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { requireAuth } from '../http/context.ts';
import { IdParams } from '../http/schema-helpers.ts';
import { EntityMetrics, MediaMetrics } from './metrics.schemas.ts';

export function registerMetricsRoutes(app: FastifyInstance, services: Services): void {
  const metrics = services.metrics;

  app.get('/v1/files/:id/metrics', {
    schema: { params: IdParams },
    config: {
      rateClass: 'files',
      doc: { summary: 'Per-speaker measurements of a media (409 CONFLICT until analysis.status is ready)', tags: ['files'], responses: { 200: { description: 'Each speaker\'s measurements', schema: MediaMetrics } } },
    },
  }, async (req) => metrics.ofMedia(requireAuth(req.auth), (req.params as IdParams).id));

  app.get('/v1/entities/:id/metrics', {
    schema: { params: IdParams },
    config: {
      rateClass: 'entities',
      doc: { summary: 'An entity\'s measurements: the profile over its analysed media and each appearance', tags: ['entities'], responses: { 200: { description: 'The profile (null without speech) and each appearance\'s measurements', schema: EntityMetrics } } },
    },
  }, async (req) => metrics.ofEntity(requireAuth(req.auth), (req.params as IdParams).id));
}
