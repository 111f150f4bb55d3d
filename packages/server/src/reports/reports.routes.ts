// HTTP routes of report jobs and reports.
import type { FastifyInstance } from 'fastify';
import { RESULT_HTML_CSP } from '@rapport/analysis';
import { resultHtml } from '../results/result-html.ts';
import { Type } from 'typebox';
import type { Services } from '../services.ts';
import { requireAuth } from '../http/context.ts';
import { Strict } from '../http/schema-helpers.ts';
import { JobReceipt } from '../matching/matching.schemas.ts';
import { idempotencyKeyOf } from '../http/idempotency-hooks.ts';
import { ReportJobRequest, ReportPayload } from './reports.schemas.ts';

const JobIdParams = Strict({ jobId: Type.String({ minLength: 1, maxLength: 256 }) });
const ReportIdParams = Strict({ reportId: Type.String({ minLength: 1, maxLength: 256 }) });

export function registerReportRoutes(app: FastifyInstance, services: Services): void {
  app.post('/v1/reports/jobs', {
    schema: { body: ReportJobRequest },
    config: { rateClass: 'reportCreation', ownIdempotency: true, doc: { summary: 'Create a report job', tags: ['reports'], responses: { 202: { description: 'Accepted', schema: JobReceipt } } } },
  }, async (req, reply) => {
    const created = await services.reports.create(requireAuth(req.auth), req.body as ReportJobRequest, idempotencyKeyOf(req));
    reply.headers(created.headers);
    if (created.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(created.statusCode).send(created.receipt);
  });

  app.get('/v1/reports/by-job/:jobId', {
    schema: { params: JobIdParams },
    config: { doc: { summary: 'The report of a job (null until it succeeded)', tags: ['reports'], responses: { 200: { description: 'The payload, or null', schema: Type.Union([ReportPayload, Type.Null()]) } } } },
  }, async (req, reply) => reply.type('application/json; charset=utf-8').send(await services.reports.byJob(requireAuth(req.auth), (req.params as { jobId: string }).jobId)));

  app.get('/v1/reports/:reportId', {
    schema: { params: ReportIdParams },
    config: { doc: { summary: 'A report', tags: ['reports'], responses: { 200: { description: 'The report payload', schema: ReportPayload } } } },
  }, async (req, reply) => reply.type('application/json; charset=utf-8').send(await services.reports.get(requireAuth(req.auth), (req.params as { reportId: string }).reportId)));

  app.get('/v1/reports/:reportId/html', {
    schema: { params: ReportIdParams },
    config: { doc: { summary: 'A report as one standalone HTML file (inline CSS and SVG figures, no script, nothing fetched)', tags: ['reports'], responses: { 200: { description: 'The HTML report', contentType: 'text/html' } } } },
  }, async (req, reply) => {
    const html = await resultHtml(services.stores.results, requireAuth(req.auth), (req.params as { reportId: string }).reportId, 'report');
    return reply.type('text/html; charset=utf-8').header('content-security-policy', RESULT_HTML_CSP).send(html);
  });

  app.get('/v1/reports/:reportId/evidence', {
    schema: { params: ReportIdParams },
    config: { doc: { summary: 'The measurements behind a report (extension, as for matching results)', tags: ['reports'], responses: { 200: { description: 'Evidence: the target\'s metrics, the method\'s constants' } } } },
  }, async (req, reply) => {
    const json = await services.reports.evidence(requireAuth(req.auth), (req.params as { reportId: string }).reportId);
    return reply.type('application/json; charset=utf-8').send(json);
  });
}
