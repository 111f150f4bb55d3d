// Every HTTP route the SDK calls, in one table. Resources build their requests from it, and the
// drift test (test/openapi.test.ts) compares it with the server's OpenAPI document, so a path or
// method that changes on either side fails the tests instead of failing users.
import type { HttpMethod } from './core/http.ts';

export interface Endpoint {
  method: HttpMethod;
  /** OpenAPI-style template: `{name}` for each path parameter. */
  path: string;
  /** The success status the route answers. */
  status: number;
  /** The response's shape, a key of `responseFields` (fields.ts); `List:X` for a page of X. */
  response: string | null;
  /** A body the SDK answers as a string, not JSON (or besides the JSON, with a `format`): its media type, sent as Accept. */
  text?: string;
}

export const endpoints = {
  // 201 for new media; the same shape answers 200 for bytes the workspace already has (duplicate: true).
  'files.upload': { method: 'POST', path: '/v1/files', status: 201, response: 'UploadedMedia' },
  'files.list': { method: 'GET', path: '/v1/files', status: 200, response: 'List:Media' },
  'files.retrieve': { method: 'GET', path: '/v1/files/{id}', status: 200, response: 'Media' },
  'files.delete': { method: 'DELETE', path: '/v1/files/{id}', status: 204, response: null },
  'files.diarization': { method: 'GET', path: '/v1/files/{id}/diarization', status: 200, response: 'Diarization' },
  'files.reanalyze': { method: 'POST', path: '/v1/files/{id}/reanalyze', status: 202, response: 'Media' },
  'files.metrics': { method: 'GET', path: '/v1/files/{id}/metrics', status: 200, response: 'MediaMetrics', text: 'text/csv' },
  'files.content': { method: 'GET', path: '/v1/files/{id}/content', status: 200, response: null },
  'files.createContentLink': { method: 'POST', path: '/v1/files/{id}/content-links', status: 201, response: 'ContentLink' },
  'files.events': { method: 'GET', path: '/v1/files/{id}/events', status: 200, response: null },
  'files.stream': { method: 'GET', path: '/v1/files/events', status: 200, response: null },

  'matching.create': { method: 'POST', path: '/v1/matching/jobs', status: 202, response: 'JobReceipt' },
  'matching.retrieve': { method: 'GET', path: '/v1/matching/{id}', status: 200, response: 'MatchingPayload' },
  'matching.byJob': { method: 'GET', path: '/v1/matching/by-job/{jobId}', status: 200, response: 'MatchingPayload' },
  'matching.evidence': { method: 'GET', path: '/v1/matching/{id}/evidence', status: 200, response: 'Evidence' },
  'matching.html': { method: 'GET', path: '/v1/matching/{id}/html', status: 200, response: null, text: 'text/html' },

  'reports.create': { method: 'POST', path: '/v1/reports/jobs', status: 202, response: 'JobReceipt' },
  'reports.retrieve': { method: 'GET', path: '/v1/reports/{id}', status: 200, response: 'ReportPayload' },
  'reports.html': { method: 'GET', path: '/v1/reports/{id}/html', status: 200, response: null, text: 'text/html' },
  'reports.evidence': { method: 'GET', path: '/v1/reports/{id}/evidence', status: 200, response: 'Evidence' },
  'reports.byJob': { method: 'GET', path: '/v1/reports/by-job/{jobId}', status: 200, response: 'ReportPayload' },

  'jobs.list': { method: 'GET', path: '/v1/jobs', status: 200, response: 'List:Job' },
  'jobs.retrieve': { method: 'GET', path: '/v1/jobs/{id}', status: 200, response: 'Job' },
  'jobs.cancel': { method: 'POST', path: '/v1/jobs/{id}/cancel', status: 200, response: 'Job' },
  'jobs.events': { method: 'GET', path: '/v1/jobs/{id}/events', status: 200, response: null },
  'events.stream': { method: 'GET', path: '/v1/events', status: 200, response: null },

  'entities.list': { method: 'GET', path: '/v1/entities', status: 200, response: 'List:Entity' },
  'entities.retrieve': { method: 'GET', path: '/v1/entities/{id}', status: 200, response: 'Entity' },
  'entities.metrics': { method: 'GET', path: '/v1/entities/{id}/metrics', status: 200, response: 'EntityMetrics', text: 'text/csv' },
  'entities.update': { method: 'PATCH', path: '/v1/entities/{id}', status: 200, response: 'Entity' },
  'entities.tag': { method: 'POST', path: '/v1/entities/{id}/tags', status: 200, response: 'Entity' },
  'entities.untag': { method: 'DELETE', path: '/v1/entities/{id}/tags/{tag}', status: 200, response: 'Entity' },
  'entities.merge': { method: 'POST', path: '/v1/entities/merge', status: 200, response: 'Entity' },

  'credits.balance': { method: 'GET', path: '/v1/credits', status: 200, response: 'CreditBalance' },
  'credits.transactions': { method: 'GET', path: '/v1/credits/transactions', status: 200, response: 'List:CreditTransaction' },

  'feedback.create': { method: 'POST', path: '/v1/feedback', status: 201, response: 'Feedback' },
  'feedback.list': { method: 'GET', path: '/v1/feedback', status: 200, response: 'List:Feedback' },

  'webhooks.deliveries.list': { method: 'GET', path: '/v1/webhooks/deliveries', status: 200, response: 'List:WebhookDelivery' },
  'webhooks.deliveries.retrieve': { method: 'GET', path: '/v1/webhooks/deliveries/{id}', status: 200, response: 'WebhookDelivery' },
  'webhooks.deliveries.redeliver': { method: 'POST', path: '/v1/webhooks/deliveries/{id}/redeliver', status: 202, response: 'WebhookDelivery' },

  'workspace.retrieve': { method: 'GET', path: '/v1/workspace', status: 200, response: 'Workspace' },
  'workspace.keys.list': { method: 'GET', path: '/v1/workspace/keys', status: 200, response: 'List:ApiKey' },
  'workspace.keys.create': { method: 'POST', path: '/v1/workspace/keys', status: 201, response: 'CreatedApiKey' },
  'workspace.keys.revoke': { method: 'DELETE', path: '/v1/workspace/keys/{keyId}', status: 204, response: null },
  'workspace.signingSecret': { method: 'GET', path: '/v1/workspace/signing-secret', status: 200, response: 'SigningSecret' },
  'workspace.rotateSigningSecret': { method: 'POST', path: '/v1/workspace/signing-secret/rotate', status: 200, response: 'SigningSecret' },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;

/** Fills `{name}` placeholders, each value URL-encoded (ids are opaque; tags are free text). */
export function pathFor(name: EndpointName, params: Record<string, string> = {}): { method: HttpMethod; path: string } {
  const e: Endpoint = endpoints[name];
  const path = e.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === '') throw new TypeError(`${name}: missing path parameter ${key}`);
    return encodeURIComponent(value);
  });
  return { method: e.method, path };
}
