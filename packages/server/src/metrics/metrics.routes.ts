// HTTP routes of measurements (extension): thin handlers over MetricsService.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { IdParams } from '../http/schema-helpers.ts';
import { entityMetricsCsv, mediaMetricsCsv } from '@rapport/analysis/render';
import { EntityMetrics, MediaMetrics, MetricsQuery } from './metrics.schemas.ts';

const CSV = 'text/csv; charset=utf-8';

export function registerMetricsRoutes(app: FastifyInstance, services: Services): void {
  const metrics = services.metrics;

  app.get('/v1/files/:id/metrics', {
    schema: { params: IdParams, querystring: MetricsQuery },
    config: {
      rateClass: 'files',
      doc: { summary: 'Per-speaker measurements of a media (409 CONFLICT until analysis.status is ready); ?format=csv for CSV', tags: ['files'], responses: { 200: { description: 'Each speaker\'s measurements; with format csv, CSV with the units in the header', schema: MediaMetrics, alternatives: ['text/csv'] } } },
    },
  }, async (req, reply) => {
    const m = await metrics.ofMedia(requireAuth(req.auth), (req.params as IdParams).id);
    return (req.query as MetricsQuery).format === 'csv' ? reply.type(CSV).send(mediaMetricsCsv(m)) : m;
  });

  app.get('/v1/entities/:id/metrics', {
    schema: { params: IdParams, querystring: MetricsQuery },
    config: {
      rateClass: 'entities',
      doc: { summary: 'An entity\'s measurements: the profile over its analysed media and each appearance; ?format=csv for CSV', tags: ['entities'], responses: { 200: { description: 'The profile (null without speech) and each appearance\'s measurements; with format csv, CSV (the profile as media "all", then each appearance)', schema: EntityMetrics, alternatives: ['text/csv'] } } },
    },
  }, async (req, reply) => {
    const e = await metrics.ofEntity(requireAuth(req.auth), (req.params as IdParams).id);
    return (req.query as MetricsQuery).format === 'csv' ? reply.type(CSV).send(entityMetricsCsv(e)) : e;
  });
}
