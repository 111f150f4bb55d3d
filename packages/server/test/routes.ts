// The routes the app registers, read by building the app with a first registrar that records
// every route (tests use it to cover every id-taking route and to compare with OpenAPI).
import type { RouteOptions } from 'fastify';
import { buildApp } from '../src/http/app.ts';
import { MemoryRateLimitCounter } from '../src/http/rate-limit.ts';
import { ROUTES } from '../src/compose/routes.ts';
import type { Services } from '../src/compose/services.ts';

export interface RegisteredRoute {
  method: string;
  url: string;
  hasBody: boolean;
}

export async function registeredRoutes(services: Services): Promise<RegisteredRoute[]> {
  const routes: RegisteredRoute[] = [{ method: 'GET', url: '/v1/openapi.json', hasBody: false }];
  const collector = (app: Parameters<(typeof ROUTES)[number]>[0]) => {
    app.addHook('onRoute', (r: RouteOptions) => {
      for (const method of Array.isArray(r.method) ? r.method : [r.method]) {
        if (method === 'HEAD') continue;
        routes.push({ method, url: r.url, hasBody: Boolean((r.schema as { body?: unknown } | undefined)?.body) });
      }
    });
  };
  const app = await buildApp({ config: services.config, services, rateLimitCounter: new MemoryRateLimitCounter(), logger: false }, [collector, ...ROUTES]);
  await app.ready();
  await app.close();
  return routes;
}
