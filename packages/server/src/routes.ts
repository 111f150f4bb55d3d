// Every route module of the API, in one list (the HTTP layer registers them in this order).
import type { RouteRegistrar } from './http/app.ts';
import { registerHealthRoutes } from './health/health.routes.ts';
import { registerMatchingRoutes } from './matching/matching.routes.ts';
import { registerJobRoutes } from './jobs/jobs.routes.ts';
import { registerReportRoutes } from './reports/reports.routes.ts';

export const ROUTES: RouteRegistrar[] = [registerHealthRoutes, registerMatchingRoutes, registerJobRoutes, registerReportRoutes];
