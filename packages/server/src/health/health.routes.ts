// Outside /v1 (decisions §12): liveness, readiness and Prometheus metrics. No key, no limits.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { renderMetrics } from './metrics.ts';

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
  app.get('/metrics', async (_req, reply) => reply.type('text/plain; version=0.0.4; charset=utf-8').send(await renderMetrics(services.stores)));
}
