// The HTTP layer: one fastify instance with the hooks every route shares (request ids,
// authentication, rate limits, the error body of decisions §2) and the domain routes. Route
// handlers stay thin; the services in `Services` do the work.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { apiKeyOf, CONTENT_LINK_AS_KEY_MESSAGE, CONTENT_LINK_ELSEWHERE_MESSAGE, isContentLinkToken, KEY_CONFLICT_MESSAGE } from './api-key.ts';
import { ApiError } from '../errors.ts';
import { errorBody } from './errors.ts';
import { validatorCompiler, ajvDetails } from './validation.ts';
import { OpenApiBuilder, OpenApiDocument } from './openapi.ts';
import { registerIdempotencyHooks } from './idempotency-hooks.ts';
import { clientErrorHandler } from './client-errors.ts';
import { registerJsonBodyParser, takesNoBody } from './json-body.ts';
import { checkRateLimit, type RateLimitCounter } from './rate-limit.ts';
import { newId } from '../ids.ts';
import { StoreUnavailableError } from '../store/sql.ts';
import type { Config } from '../config.ts';
import type { Services } from '../compose/services.ts';
import './context.ts';

export interface AppOptions {
  config: Config;
  services: Services;
  rateLimitCounter: RateLimitCounter;
  logger?: boolean;
}

export type RouteRegistrar = (app: FastifyInstance, services: Services) => void;

const JSON_BODY_LIMIT = 1024 * 1024;
/** What a 503 for a store out of reach asks clients to wait (decisions §2). */
const STORE_RETRY_AFTER_SEC = 5;

export async function buildApp(opts: AppOptions, registrars: RouteRegistrar[]): Promise<FastifyInstance> {
  const { config, services } = opts;
  const app = Fastify({
    logger: opts.logger === false || config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      // A content link's token is a credential while it lives: request logs show it redacted.
      serializers: {
        req: (req: FastifyRequest) => ({ method: req.method, url: redactTokens(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
      },
    },
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: requestId,
    // Bodies are refused with 400 on unknown fields; never silently stripped.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    return503OnClosing: false,
    clientErrorHandler,
    forceCloseConnections: true,
    // A request or upload that stalls holds a socket (and a temp file) only this long: the
    // connection is closed after REQUEST_IDLE_TIMEOUT_SEC with no byte either way (event
    // streams send a heartbeat every 15 s), and headers must come within HEADERS_TIMEOUT_SEC.
    connectionTimeout: config.requestIdleTimeoutSec * 1000,
    // Ids may be 256 characters (interface-spec): the router must not refuse them before the
    // schema sees them (its default is 100, answered with a bare 414).
    routerOptions: { maxParamLength: 1024 },
    // An absolute-form request line (`GET http://host/v1/files`, RFC 9112 §3.2.2) is routed by
    // its path: rewritten to origin-form before routing, so that every hook sees `/v1/...` and
    // authentication and rate limits apply as for any other request.
    rewriteUrl: (req) => originForm(req.url ?? '/'),
    // Errors raised by the router before any hook (a malformed URL escape, an over-long path
    // parameter) get the error body of decisions §2 too, never fastify's own shape.
    frameworkErrors: (err, req, reply) => {
      const apiError = new ApiError('VALIDATION_FAILED', 'The request path is not valid.', { details: [{ path: '/path', message: err.message }] });
      const r = reply as unknown as FastifyReply;
      r.header('x-request-id', req.id);
      r.code(apiError.status).type('application/json; charset=utf-8').send(errorBody(apiError, req.id));
    },
  });
  app.server.headersTimeout = config.headersTimeoutSec * 1000;
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON (or multipart for uploads): fastify's default text/plain parser would hand a
  // string to the schema (a 400); the wrong content type is a 415 (decisions §2).
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app, JSON_BODY_LIMIT);
  app.decorateRequest('auth', null);

  const openapi = new OpenApiBuilder();
  const routePatterns: { re: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (route) => {
    openapi.collect(route);
    // The router takes a path exactly (no trailing slash): `/v1/workspace/keys/` is no route, so
    // it is 404 like any unknown path, not a 405 naming the methods of the path without the slash.
    const re = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const existing = routePatterns.find((p) => p.re.source === re.source);
    if (existing) methods.forEach((m) => existing.methods.add(m));
    else routePatterns.push({ re, methods: new Set(methods) });
  });

  await app.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: 2, fields: 10, fieldSize: 4096, parts: 20 } });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    if (services.lifecycle.closing) throw new ApiError('UNAVAILABLE', 'The service is shutting down; retry shortly.', { headers: { 'retry-after': '5' } });
    // `req.routeOptions` builds a new object on every read: read it once (a hot path).
    const route = req.routeOptions;
    // Whether the request is under /v1 is decided on the route the router matched, which it
    // found after decoding the path: `/%761/files` is `/v1/files` and is authenticated and
    // limited as such (issue 32, finding 9: the raw path let it through to the handler).
    // Unknown paths (no route) go by their raw path.
    const path = req.url.split('?', 1)[0] ?? '';
    const routeUrl = route.url;
    if (!(routeUrl !== undefined ? routeUrl === '/v1' || routeUrl.startsWith('/v1/') : path === '/v1' || path.startsWith('/v1/'))) return;
    // The router lets a last parameter be empty (`DELETE /v1/workspace/keys/` reaches `…/keys/:id`
    // with id ''): that is a trailing slash on a collection, no route (issue 41, finding 10).
    if (routeUrl !== undefined && Object.values((req.params ?? {}) as Record<string, unknown>).some((v) => v === '')) {
      throw new ApiError('NOT_FOUND', `No route ${req.method} ${path}.`);
    }
    // Answers under /v1 may show secrets (a new key, the signing secret) and always show one
    // workspace's data: no cache keeps them (issue 32, finding 10). Streams and content set their own.
    reply.header('cache-control', 'no-store');
    const routeConfig = route.config;
    const isPublic = routeConfig?.doc?.public === true;
    const sent = apiKeyOf(req.headers);
    let refused: string | undefined;
    const query = req.query as Record<string, unknown> | undefined;
    if (sent.key !== null) {
      req.auth = await services.workspace.authenticate(sent.key);
      if (!req.auth && isContentLinkToken(sent.key)) refused = CONTENT_LINK_AS_KEY_MESSAGE;
    } else if (sent.conflict) {
      refused = KEY_CONFLICT_MESSAGE;
    } else if (routeConfig?.doc?.contentLink) {
      // A content link's token stands in for the key on the route it was made for, and only there.
      const token = query?.token;
      const id = (req.params as Record<string, unknown> | undefined)?.id;
      if (typeof token === 'string' && token.length < 512 && typeof id === 'string') {
        const link = await services.files.authenticateLink(token, id);
        if ('auth' in link) req.auth = link.auth;
        else refused = link.refused;
      }
    } else if (query?.token !== undefined) {
      // A content link taken to another route (its media's resource, the diarization, …).
      refused = CONTENT_LINK_ELSEWHERE_MESSAGE;
    }
    const subject = req.auth ? `key:${req.auth.keyId}` : `ip:${req.ip}`;
    const rateClass = routeConfig?.rateClass ?? 'default';
    // A workspace's own limits (set by an operator) replace the configuration's, class by class;
    // another process's change shows within the authentication cache's second.
    const limits = req.auth?.rateLimits ? { ...config.rateLimits, ...req.auth.rateLimits } : config.rateLimits;
    // A key's requests count for its workspace too (its live keys times the limit), so that
    // replacing keys does not give fresh windows (issue 41, finding 3).
    const workspace = req.auth?.liveKeys !== undefined ? { id: req.auth.workspaceId, liveKeys: req.auth.liveKeys } : undefined;
    const decision = await checkRateLimit(opts.rateLimitCounter, limits, rateClass, subject, Date.now(), workspace);
    reply.headers(decision.headers);
    // The limit is checked before the key: requests without a valid key are counted per client
    // address (decisions §4), so guessing keys is throttled like any other traffic.
    if (!decision.allowed) {
      const what = decision.refusedBy === 'workspace'
        ? `Rate limit of this workspace's keys together (${decision.refusedLimit} requests per minute: ${limits[rateClass]} per live key) exceeded`
        : `Rate limit of ${limits[rateClass]} requests per minute exceeded`;
      throw new ApiError('RATE_LIMITED', `${what}; retry after ${decision.retryAfterSec} s.`, {
        retryAfter: decision.retryAfterSec,
        headers: { 'retry-after': String(decision.retryAfterSec) },
      });
    }
    if (!req.auth && !isPublic && route.url !== undefined) throw new ApiError('UNAUTHENTICATED', refused);
    if (routeConfig?.admin && req.auth?.scope !== 'admin') throw new ApiError('FORBIDDEN', 'Workspace administration needs an admin API key.');
  });

  app.addHook('onResponse', async (_req, reply) => services.counters.httpResponse(reply.statusCode));

  // A multipart body sent to a JSON route (or JSON to the upload route) is the wrong content type.
  app.addHook('preValidation', async (req) => {
    if (req.method === 'GET' || req.method === 'DELETE') return;
    const ct = String(req.headers['content-type'] ?? '');
    const wantsMultipart = req.routeOptions.config?.doc?.multipart !== undefined;
    if (wantsMultipart && !ct.startsWith('multipart/form-data')) {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Uploads must be sent as multipart/form-data with a `file` part.');
    }
    if (!wantsMultipart && ct.startsWith('multipart/')) {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'This route takes a JSON body (application/json).');
    }
    // No body at all (and so no content type) on a route that needs one is the empty body that
    // docs/api.md answers INVALID_JSON, as it is with `Content-Type: application/json`; the
    // schema would otherwise say `must be object` at `/`. On a route whose body is optional
    // (`doc.bodyOptional`: every field is), no body means `{}`, as it would at Stripe.
    if (!wantsMultipart && req.body === undefined) {
      if (!takesNoBody(req)) throw new ApiError('INVALID_JSON', 'The request body is empty; send a JSON object.');
      if (req.routeOptions.schema?.body !== undefined) req.body = {};
    }
  });

  app.setErrorHandler((err: FastifyError | ApiError, req: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(err);
    if (apiError.status >= 500 && apiError.code === 'INTERNAL') req.log.error({ err }, 'unhandled error');
    reply.headers(apiError.headers);
    return reply.code(apiError.status).type('application/json; charset=utf-8').send(errorBody(apiError, req.id));
  });

  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?', 1)[0] ?? '';
    const match = routePatterns.find((p) => p.re.test(path));
    const err = match
      ? new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}; allowed: ${[...match.methods].join(', ')}.`, { headers: { allow: [...match.methods].join(', ') } })
      : new ApiError('NOT_FOUND', `No route ${req.method} ${path}.`);
    reply.headers(err.headers);
    return reply.code(err.status).type('application/json; charset=utf-8').send(errorBody(err, req.id));
  });

  app.get('/v1/openapi.json', { config: { doc: { summary: 'This OpenAPI document', tags: ['meta'], public: true, responses: { 200: { description: 'OpenAPI 3.1', schema: OpenApiDocument } } } } }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(openapi.json()),
  );

  registerIdempotencyHooks(app, services.stores.idempotency);
  for (const register of registrars) register(app, services);
  return app;
}

/** A URL with the value of any `token` query parameter replaced (content links). */
export function redactTokens(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/g, '$1[redacted]');
}

/** The path and query of an absolute-form request target; other targets unchanged. */
export function originForm(url: string): string {
  if (url.startsWith('/') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** Request ids (`req_` + 24 base62 characters, like every id), from newId's pool of random bytes. */
function requestId(): string {
  return newId('req');
}

function toApiError(err: FastifyError | ApiError | Error): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof StoreUnavailableError) {
    return new ApiError('UNAVAILABLE', 'The store does not answer; retry shortly.', { headers: { 'retry-after': String(STORE_RETRY_AFTER_SEC) } });
  }
  const fe = err as FastifyError & { validationContext?: string };
  if (fe.validation) {
    return new ApiError('VALIDATION_FAILED', 'The request is not valid; see details.', {
      details: ajvDetails(fe.validation as Parameters<typeof ajvDetails>[0], fe.validationContext ?? 'body'),
    });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_JSON', fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The request body is empty; send a JSON object.' : 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'JSON bodies are limited to 1 MiB.');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', 'The file is over the upload size limit.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'This content type is not supported here; send application/json.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ApiError('VALIDATION_FAILED', fe.message, { details: [{ path: '/file', message: fe.message }] });
  }
  if (err instanceof SyntaxError || (fe.statusCode === 400 && /JSON/i.test(fe.message))) return new ApiError('INVALID_JSON');
  if (fe.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE');
  if (fe.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ApiError('VALIDATION_FAILED', fe.message, { details: [{ path: '/', message: fe.message }] });
  }
  return new ApiError('INTERNAL');
}
