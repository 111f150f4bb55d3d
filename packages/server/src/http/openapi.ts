// Builds the OpenAPI 3.1 document from the routes as registered: the same TypeBox schemas that
// validate requests describe them here, so the document cannot drift from the code.
import type { RouteOptions } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { ERRORS } from '../errors.ts';

interface CollectedRoute {
  method: string;
  url: string;
  schema: { body?: TSchema; querystring?: TSchema; params?: TSchema } | undefined;
  config: RouteOptions['config'];
}

const ErrorBodySchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'requestId'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: Object.keys(ERRORS) },
        message: { type: 'string' },
        requestId: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'message'],
            additionalProperties: false,
            properties: { path: { type: 'string', description: 'JSON Pointer into the request' }, message: { type: 'string' } },
          },
        },
        retryAfter: { type: 'number', description: 'seconds; equals the Retry-After header' },
      },
    },
  },
};

/** What GET /v1/openapi.json answers, in the document itself: its outline, not the OAS meta-schema. */
export const OpenApiDocument = Type.Object({
  openapi: Type.String({ pattern: '^3\\.1\\.' }),
  info: Type.Object({ title: Type.String(), version: Type.String() }),
  paths: Type.Record(Type.String(), Type.Object({}), { description: 'every /v1 route, by path and method' }),
  components: Type.Object({}),
}, { description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0)' });

export class OpenApiBuilder {
  private readonly routes: CollectedRoute[] = [];
  private cached: string | null = null;

  collect(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || !route.config?.doc) continue;
      this.routes.push({ method: method.toLowerCase(), url: route.url, schema: route.schema as CollectedRoute['schema'], config: route.config });
    }
    this.cached = null;
  }

  /** The document as JSON text, built once (routes do not change after start). */
  json(): string {
    this.cached ??= JSON.stringify(this.build());
    return this.cached;
  }

  build(): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const doc = r.config?.doc;
      if (!doc) continue;
      const path = r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const parameters: unknown[] = [];
      for (const [where, schema] of [['path', r.schema?.params], ['query', r.schema?.querystring]] as const) {
        const props = (schema as { properties?: Record<string, TSchema>; required?: string[] } | undefined)?.properties ?? {};
        const required = new Set((schema as { required?: string[] } | undefined)?.required ?? []);
        for (const [name, s] of Object.entries(props)) {
          parameters.push({ name, in: where, required: where === 'path' || required.has(name), schema: s });
        }
      }
      const responses: Record<string, unknown> = {};
      for (const [status, res] of Object.entries(doc.responses)) {
        // Alternatives: the same resource as text in other media types (the diarization's files).
        const alternatives = Object.fromEntries((res.alternatives ?? []).map((t) => [t, { schema: { type: 'string' } }]));
        const headers = res.headers ? { headers: Object.fromEntries(Object.entries(res.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }])) } : {};
        responses[status] = res.binary
          ? { description: res.description, ...headers, content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }
          : res.schema
            ? { description: res.description, ...headers, content: { [res.contentType ?? 'application/json']: { schema: res.schema }, ...alternatives } }
            : { description: res.description, ...headers };
      }
      responses.default = { description: 'Error (decisions §2)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
      const op: Record<string, unknown> = {
        operationId: `${r.method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        summary: doc.summary,
        tags: doc.tags,
        responses,
      };
      if (parameters.length) op.parameters = parameters;
      if (doc.public) op.security = [];
      if (doc.contentLink) op.security = [{ apiKey: [] }, { bearer: [] }, { contentLink: [] }];
      if (doc.multipart) {
        op.requestBody = { required: true, content: { 'multipart/form-data': { schema: doc.multipart } } };
      } else if (r.schema?.body) {
        op.requestBody = { required: !doc.bodyOptional, content: { 'application/json': { schema: r.schema.body } } };
      }
      (paths[path] ??= {})[r.method] = op;
    }
    return {
      openapi: '3.1.0',
      info: { title: 'Rapport API', version: '1.0.0', description: 'Behavioral matching service. See docs/api.md.' },
      servers: [{ url: '/' }],
      security: [{ apiKey: [] }, { bearer: [] }],
      paths,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'Service-Api-Key' },
          bearer: { type: 'http', scheme: 'bearer', description: 'the same API key as `Authorization: Bearer rk_…` (decisions §3); both headers with different keys: 401' },
          contentLink: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description: 'A content link\'s token (POST /v1/files/{id}/content-links): streams that one media for a few minutes, for players that cannot send headers. Never the API key.',
          },
        },
        schemas: { Error: ErrorBodySchema },
      },
    };
  }
}
