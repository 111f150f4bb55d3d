// Outside /v1 (decisions §12): liveness, readiness and Prometheus metrics. No key, no rate limit.
// /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>` and is 404 while
// METRICS_TOKEN is unset (issue 32, finding 2): its figures are this process's counters.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../compose/services.ts';
import { ApiError } from '../errors.ts';

export function registerHealthRoutes(app: FastifyInstance, services: Services): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (req, reply) => {
    if (services.lifecycle.closing) throw new ApiError('UNAVAILABLE', 'The service is shutting down.');
    const store = await services.stores.backend.ping().catch(() => false);
    // Redis where configured (decisions §12): without it the service still answers, but each
    // process counts rate limits alone, so the process is reported not ready.
    const redis = (await services.rateLimits?.reachable?.().catch(() => false)) ?? true;
    if (store && redis) return reply.send({ status: 'ready' });
    const down = [store ? null : 'the store', redis ? null : 'Redis (rate limits are counted by each process alone meanwhile)'].filter((x) => x !== null);
    throw new ApiError('UNAVAILABLE', `Not ready: ${down.join(' and ')} does not answer.`, { headers: { 'retry-after': '5' } });
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
