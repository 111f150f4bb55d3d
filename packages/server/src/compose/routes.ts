// Every route module of the API, in one list (the HTTP layer registers them in this order).
import type { RouteRegistrar } from '../http/app.ts';
import { registerHealthRoutes } from '../health/health.routes.ts';
import { registerResultJobRoutes } from '../jobs/result-jobs.routes.ts';
import { JOB_KINDS } from '../jobs/registered-kinds.ts';
import { registerJobRoutes } from '../jobs/jobs.routes.ts';
import { registerWebhookRoutes } from '../webhooks/webhooks.routes.ts';
import { registerFilesRoutes } from '../files/files.routes.ts';
import { registerEntityRoutes } from '../entities/entities.routes.ts';
import { registerCreditRoutes } from '../credits/credits.routes.ts';
import { registerFeedbackRoutes } from '../feedback/feedback.routes.ts';
import { registerWorkspaceRoutes } from '../workspace/workspace.routes.ts';
import { registerMetricsRoutes } from '../metrics/metrics.routes.ts';
import { registerDashboardRoutes } from '../dashboard/dashboard.routes.ts';

// Each result-job kind's routes come from the job-kind table, in this place of the list.
const resultJobRoutes = (kind: keyof typeof JOB_KINDS): RouteRegistrar => (app, services) => registerResultJobRoutes(app, services, JOB_KINDS[kind]);

export const ROUTES: RouteRegistrar[] = [registerHealthRoutes, resultJobRoutes('matching'), registerJobRoutes, resultJobRoutes('report'), registerWebhookRoutes, registerFilesRoutes, registerMetricsRoutes, registerEntityRoutes, registerCreditRoutes, registerFeedbackRoutes, registerWorkspaceRoutes, (app) => registerDashboardRoutes(app)];
