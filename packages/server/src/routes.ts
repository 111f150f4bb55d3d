// Every route module of the API, in one list (the HTTP layer registers them in this order).
import type { RouteRegistrar } from './http/app.ts';
import { registerHealthRoutes } from './health/health.routes.ts';
import { registerMatchingRoutes } from './matching/matching.routes.ts';
import { registerJobRoutes } from './jobs/jobs.routes.ts';
import { registerReportRoutes } from './reports/reports.routes.ts';
import { registerWebhookRoutes } from './webhooks/webhooks.routes.ts';
import { registerFilesRoutes } from './files/files.routes.ts';
import { registerEntityRoutes } from './entities/entities.routes.ts';
import { registerCreditRoutes } from './credits/credits.routes.ts';
import { registerFeedbackRoutes } from './feedback/feedback.routes.ts';
import { registerWorkspaceRoutes } from './workspace/workspace.routes.ts';
import { registerMetricsRoutes } from './metrics/metrics.routes.ts';
import { registerDashboardRoutes } from './dashboard/dashboard.routes.ts';

export const ROUTES: RouteRegistrar[] = [registerHealthRoutes, registerMatchingRoutes, registerJobRoutes, registerReportRoutes, registerWebhookRoutes, registerFilesRoutes, registerMetricsRoutes, registerEntityRoutes, registerCreditRoutes, registerFeedbackRoutes, registerWorkspaceRoutes, (app) => registerDashboardRoutes(app)];
