// HTTP routes of one result-job kind (registered-kinds.ts): create a job, its result by job id, the
// result, its standalone HTML and its evidence. Thin handlers over ResultJobService; the paths,
// schemas and documentation come from the kind.
import type { FastifyInstance } from 'fastify';
import { RESULT_HTML_CSP } from '@rapport/analysis';
import { Type } from 'typebox';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { idempotencyKeyOf } from '../http/idempotency-hooks.ts';
import { Strict } from '../http/schema-helpers.ts';
import { JobReceipt } from './job-request.schemas.ts';
import { ResultEvidence, ResultHtml } from '../results/results.schemas.ts';
import type { JobKind, JobRequest } from './result-kind.ts';

const JobIdParams = Strict({ jobId: Type.String({ minLength: 1, maxLength: 256 }) });

export function registerResultJobRoutes(app: FastifyInstance, services: Services, kind: JobKind): void {
  const jobs = services.resultJobs;
  const { base, doc } = kind;
  const ResultIdParams = Strict({ [kind.resultParam]: Type.String({ minLength: 1, maxLength: 256 }) });
  const resultId = (params: unknown) => (params as Record<string, string>)[kind.resultParam] as string;
  const json = 'application/json; charset=utf-8';

  app.post(`${base}/jobs`, {
    schema: { body: kind.request },
    config: {
      ...(kind.createRateClass ? { rateClass: kind.createRateClass } : {}),
      ownIdempotency: true,
      doc: { summary: doc.create, tags: [doc.tag], responses: { 202: { description: doc.accepted, schema: JobReceipt, headers: { Location: 'the job: /v1/jobs/{jobId}' } } } },
    },
  }, async (req, reply) => {
    const created = await jobs.create(kind, requireAuth(req.auth), req.body as JobRequest, idempotencyKeyOf(req));
    reply.headers(created.headers);
    if (created.replayed) reply.header('idempotent-replayed', 'true');
    return reply.code(created.statusCode).send(created.receipt);
  });

  app.get(`${base}/by-job/:jobId`, {
    schema: { params: JobIdParams },
    config: { doc: { summary: doc.byJob, tags: [doc.tag], responses: { 200: { description: 'The payload, or null', schema: Type.Union([kind.payload, Type.Null()]) } } } },
  }, async (req, reply) => reply.type(json).send(await jobs.byJob(kind, requireAuth(req.auth), (req.params as { jobId: string }).jobId)));

  app.get(`${base}/:${kind.resultParam}`, {
    schema: { params: ResultIdParams },
    config: { doc: { summary: doc.result, tags: [doc.tag], responses: { 200: { description: doc.resultDescription, schema: kind.payload } } } },
  }, async (req, reply) => reply.type(json).send(await jobs.get(kind, requireAuth(req.auth), resultId(req.params))));

  app.get(`${base}/:${kind.resultParam}/html`, {
    schema: { params: ResultIdParams },
    config: { doc: { summary: doc.html, tags: [doc.tag], responses: { 200: { description: 'The HTML report', schema: ResultHtml, contentType: 'text/html' } } } },
  }, async (req, reply) => {
    const html = await jobs.html(kind, requireAuth(req.auth), resultId(req.params));
    return reply.type('text/html; charset=utf-8').header('content-security-policy', RESULT_HTML_CSP).send(html);
  });

  app.get(`${base}/:${kind.resultParam}/evidence`, {
    schema: { params: ResultIdParams },
    config: { doc: { summary: doc.evidence, tags: [doc.tag], responses: { 200: { description: doc.evidenceDescription, schema: ResultEvidence } } } },
  }, async (req, reply) => reply.type(json).send(await jobs.evidence(kind, requireAuth(req.auth), resultId(req.params))));
}
