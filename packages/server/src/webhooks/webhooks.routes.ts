// HTTP routes of the webhook delivery log (decisions §8, extension); rate class `default`.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../compose/services.ts';
import { requireAuth } from '../workspace/auth.ts';
import { IdParams, ListOf } from '../http/schema-helpers.ts';
import { DeliveryListQuery, WebhookDelivery } from './webhooks.schemas.ts';

export function registerWebhookRoutes(app: FastifyInstance, services: Services): void {
  app.get('/v1/webhooks/deliveries', {
    schema: { querystring: DeliveryListQuery },
    config: { doc: { summary: 'List webhook deliveries, newest first (?jobId=, ?status=)', tags: ['webhooks'], responses: { 200: { description: 'A page of deliveries', schema: ListOf(WebhookDelivery) } } } },
  }, async (req) => services.webhooks.list(requireAuth(req.auth), req.query as DeliveryListQuery));

  app.get('/v1/webhooks/deliveries/:id', {
    schema: { params: IdParams },
    config: { doc: { summary: 'A webhook delivery with every attempt: time, status code, duration, error', tags: ['webhooks'], responses: { 200: { description: 'The delivery and its attempts', schema: WebhookDelivery } } } },
  }, async (req) => services.webhooks.get(requireAuth(req.auth), (req.params as IdParams).id));

  app.post('/v1/webhooks/deliveries/:id/redeliver', {
    schema: { params: IdParams },
    config: {
      doc: {
        summary: 'Send the event again soon, whatever the delivery status (same event id, same body)',
        tags: ['webhooks'],
        responses: {
          202: {
            description:
              'Accepted: one more attempt is due now. A pending delivery keeps its retry schedule after it; a succeeded or failed one gets this single attempt, whose outcome is final. The delivery is returned.',
            schema: WebhookDelivery,
          },
        },
      },
    },
  }, async (req, reply) => reply.code(202).send(await services.webhooks.redeliver(requireAuth(req.auth), (req.params as IdParams).id)));
}
