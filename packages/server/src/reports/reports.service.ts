// Report jobs run on the same machinery as matching jobs.
import { ApiError } from '../http/errors.ts';
import type { AuthContext } from '../http/context.ts';
import { referenceErrors, ruleErrors, type ResultJobDeps } from '../matching/matching.service.ts';
import { webhookRuleErrors } from '../matching/matching.rules.ts';
import type { ReportJobRequest } from './reports.schemas.ts';

export class ReportService {
  private readonly deps: ResultJobDeps;
  constructor(deps: ResultJobDeps) {
    this.deps = deps;
  }

  async create(auth: AuthContext, body: ReportJobRequest, headerKey: string | undefined) {
    const members = [{ member: body.target, at: '/target' }];
    const rules = [...ruleErrors(members), ...webhookRuleErrors(body.webhook)];
    if (rules.length) throw new ApiError('VALIDATION_FAILED', 'The request is not valid; see details.', { details: rules });
    const refs = await referenceErrors(this.deps, auth.workspaceId, members);
    if (refs.length) throw new ApiError('REFERENCE_NOT_FOUND', 'The request references media or entities that do not exist in this workspace.', { details: refs });
    return this.deps.jobService.create(auth, { type: 'report', route: 'POST /v1/reports/jobs', body, label: body.label, bodyKey: body.idempotencyKey, headerKey });
  }

  async get(auth: AuthContext, id: string): Promise<string> {
    const r = await this.deps.results.get(auth.workspaceId, id, 'report');
    if (!r) throw new ApiError('NOT_FOUND', `No report ${id}.`);
    return r.payloadJson;
  }

  /** The measurements behind a report (as for matching results): what its figures are drawn from. */
  async evidence(auth: AuthContext, id: string): Promise<string> {
    const r = await this.deps.results.get(auth.workspaceId, id, 'report');
    if (!r || !r.evidenceJson) throw new ApiError('NOT_FOUND', `No report ${id}.`);
    return r.evidenceJson;
  }

  async byJob(auth: AuthContext, jobId: string): Promise<string> {
    const job = await this.deps.jobs.get(auth.workspaceId, jobId);
    if (!job || job.type !== 'report') throw new ApiError('NOT_FOUND', `No report job ${jobId}.`);
    if (job.status !== 'succeeded' || !job.resultId) return 'null';
    return this.get(auth, job.resultId);
  }
}
