// Outside /v1 (decisions §12): liveness, readiness and Prometheus metrics. No key, no rate limit.
// /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>` and is 404 while
// METRICS_TOKEN is unset (issue 32, finding 2): its figures are this process's counters.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';
import { ApiError } from '../http/errors.ts';

export function registerHealthRoutes(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    let ok = false;
    try {
      ok = !services.lifecycle.closing && (await services.stores.backend.ping());
    } catch {
      ok = false;
    }
    return reply.code(ok ? 200 : 503).send(ok ? { status: 'ready' } : { error: { code: 'UNAVAILABLE', message: 'A backing store is unreachable or the service is shutting down.', requestId: _req.id } });
  });
  const token = services.config.metricsToken;
  app.get('/metrics', async (req, reply) => {
    if (token === null) throw new ApiError('NOT_FOUND', `No route ${req.method} /metrics.`);
    if (!bearerIs(req, token)) {
      throw new ApiError('UNAUTHENTICATED', '/metrics needs Authorization: Bearer <METRICS_TOKEN>.', { headers: { 'www-authenticate': 'Bearer' } });
    }
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(services.counters.render());
  });
}

/** Whether the request's bearer token is `token`, compared in constant time (of their digests). */
function bearerIs(req: FastifyRequest, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
  if (!m) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1] as string), digest(token));
}
