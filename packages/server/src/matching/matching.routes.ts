// HTTP routes of matching jobs and results: thin handlers over MatchingService.
import type { FastifyInstance } from 'fastify';
import { RESULT_HTML_CSP } from '@rapport/analysis';
import { resultHtml } from '../results/result-html.ts';
import { Type } from 'typebox';
import type { Services } from '../services.ts';
import { requireAuth } from '../http/context.ts';
import { idempotencyKeyOf } from '../http/idempotency-hooks.ts';
import { Strict } from '../http/schema-helpers.ts';
import { JobReceipt, MatchingJobRequest, MatchingPayload } from './matching.schemas.ts';

const JobIdParams = Strict({ jobId: Type.String({ minLength: 1, maxLength: 256 }) });
const MatchingIdParams = Strict({ matchingId: Type.String({ minLength: 1, maxLength: 256 }) });

export function registerMatchingRoutes(app: FastifyInstance, services: Services): void {
  app.post('/v1/matching/jobs', {
    schema: { body: MatchingJobRequest },
    config: { ownIdempotency: true, doc: { summary: 'Create a matching job', tags: ['matching'], responses: { 202: { description: 'Accepted; the job runs asynchronously', schema: JobReceipt } } } },
  }, async (req, reply) => {
    const created = await services.matching.create(requireAuth(req.auth), req.body as MatchingJobRequest, idempotencyKeyOf(req));
    reply.headers(created.headers);
    if (created.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(created.statusCode).send(created.receipt);
  });

  app.get('/v1/matching/by-job/:jobId', {
    schema: { params: JobIdParams },
    config: { doc: { summary: 'The matching result of a job (null until it succeeded)', tags: ['matching'], responses: { 200: { description: 'The payload, or null', schema: Type.Union([MatchingPayload, Type.Null()]) } } } },
  }, async (req, reply) => {
    const json = await services.matching.byJob(requireAuth(req.auth), (req.params as { jobId: string }).jobId);
    return reply.type('application/json; charset=utf-8').send(json);
  });

  app.get('/v1/matching/:matchingId', {
    schema: { params: MatchingIdParams },
    config: { doc: { summary: 'A matching result', tags: ['matching'], responses: { 200: { description: 'The matching payload', schema: MatchingPayload } } } },
  }, async (req, reply) => {
    const json = await services.matching.get(requireAuth(req.auth), (req.params as { matchingId: string }).matchingId);
    return reply.type('application/json; charset=utf-8').send(json);
  });

  app.get('/v1/matching/:matchingId/html', {
    schema: { params: MatchingIdParams },
    config: { doc: { summary: 'A matching result as one standalone HTML file (inline CSS and SVG figures, no script, nothing fetched)', tags: ['matching'], responses: { 200: { description: 'The HTML report', contentType: 'text/html' } } } },
  }, async (req, reply) => {
    const html = await resultHtml(services.stores.results, requireAuth(req.auth), (req.params as { matchingId: string }).matchingId, 'matching');
    return reply.type('text/html; charset=utf-8').header('content-security-policy', RESULT_HTML_CSP).send(html);
  });

  app.get('/v1/matching/:matchingId/evidence', {
    schema: { params: MatchingIdParams },
    config: { doc: { summary: 'The measurements behind a matching result', tags: ['matching'], responses: { 200: { description: 'Evidence: per-member metrics, per-pair component scores, inputs and confidence' } } } },
  }, async (req, reply) => {
    const json = await services.matching.evidence(requireAuth(req.auth), (req.params as { matchingId: string }).matchingId);
    return reply.type('application/json; charset=utf-8').send(json);
  });
}


