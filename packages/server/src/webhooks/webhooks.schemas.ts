// The delivery log resources of decisions §8 (extension): one definition validates the query,
// types the code and documents the routes in the OpenAPI document.
import { Type, type Static } from 'typebox';
import { ListQuery, Nullable, Strict } from '../http/schema-helpers.ts';

const Status = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]);

export const DeliveryAttempt = Strict({
  attempt: Type.Integer({ minimum: 1, description: 'The attempt number, as sent in service-delivery-attempt' }),
  at: Type.String({ description: 'When the attempt started' }),
  statusCode: Nullable(Type.Integer({ description: 'The HTTP status answered; null when none arrived' })),
  durationMs: Nullable(Type.Integer({ description: 'null while in flight or when interrupted' })),
  error: Nullable(Type.String({ description: 'Why the attempt failed; refusals start with "refused:"' })),
  outcome: Type.Union([
    Type.Literal('succeeded'),
    Type.Literal('failed'),
    Type.Literal('refused'),
    Type.Literal('gone'),
    Type.Literal('in_flight'),
    Type.Literal('interrupted'),
  ]),
});

export const WebhookDelivery = Strict({
  id: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  jobId: Type.String(),
  url: Type.String(),
  status: Status,
  attemptCount: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Nullable(Type.String({ description: 'When the next attempt is due; null unless pending' })),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  attempts: Type.Optional(Type.Array(DeliveryAttempt, { description: 'Every attempt, oldest first (single delivery only)' })),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const DeliveryListQuery = Strict({
  ...ListQuery.properties,
  jobId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  status: Type.Optional(Status),
});
export type DeliveryListQuery = Static<typeof DeliveryListQuery>;
