// HTTP routes of feedback (decisions §10): thin handlers over FeedbackService.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { ListOf } from '../http/schema-helpers.ts';
import { Feedback, FeedbackBody, FeedbackListQuery } from './feedback.schemas.ts';

export function registerFeedbackRoutes(app: FastifyInstance, services: Services): void {
  app.post('/v1/feedback', {
    schema: { body: FeedbackBody },
    config: { doc: { summary: 'Rate a matching or report result', tags: ['feedback'], responses: { 201: { description: 'The feedback recorded', schema: Feedback } } } },
  }, async (req, reply) => reply.code(201).send(await services.feedback.create(requireAuth(req.auth), req.body as FeedbackBody)));

  app.get('/v1/feedback', {
    schema: { querystring: FeedbackListQuery },
    config: { doc: { summary: 'Feedback given, newest first', tags: ['feedback'], responses: { 200: { description: 'A page of feedback', schema: ListOf(Feedback) } } } },
  }, async (req) => services.feedback.list(requireAuth(req.auth), req.query as FeedbackListQuery));
}
