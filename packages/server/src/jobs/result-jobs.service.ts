// Result jobs of every kind (job-kinds.ts): validate what the schema cannot, check references in
// the caller's workspace, create the job (with credits and idempotency, jobs.service.ts), and
// read its result, evidence and standalone HTML.
import { ApiError, type ErrorDetail } from '../http/errors.ts';
import type { AuthContext } from '../http/context.ts';
import type { Member } from './job-request.schemas.ts';
import { memberRuleErrors, webhookRuleErrors } from './job-request.rules.ts';
import type { ResultStore } from '../results/results.store.ts';
import { resultHtml } from '../results/result-html.ts';
import type { JobService } from './jobs.service.ts';
import type { JobStore } from './jobs.store.ts';
import type { MemberStores } from './member-resolver.ts';
import type { JobKind, JobRequest } from './job-kind.ts';

/** What ResultJobService uses: job creation, the job and result stores, and the stores references are checked in. */
export interface ResultJobDeps extends MemberStores {
  jobService: JobService;
  jobs: JobStore;
  results: ResultStore;
}

type Located = { member: Member; at: string };

/** Every `mediaId`, `entityId` and selector `entity_id` must exist in the workspace (§5). */
async function referenceErrors(stores: MemberStores, workspaceId: string, members: Located[]): Promise<ErrorDetail[]> {
  const errors: ErrorDetail[] = [];
  for (const { member, at } of members) {
    if (member.type === 'entity_id') {
      if (!(await stores.entities.exists(workspaceId, member.entityId))) {
        errors.push({ path: `${at}/entityId`, message: `entity ${member.entityId} does not exist in this workspace` });
      }
      continue;
    }
    if (!(await stores.media.exists(workspaceId, member.mediaId))) {
      errors.push({ path: `${at}/mediaId`, message: `media ${member.mediaId} does not exist in this workspace` });
    }
    const eid = member.selector.entity_id;
    if (member.selector.strategy === 'entity_id' && typeof eid === 'string' && !(await stores.entities.exists(workspaceId, eid))) {
      errors.push({ path: `${at}/selector/entity_id`, message: `entity ${eid} does not exist in this workspace` });
    }
  }
  return errors;
}

export class ResultJobService {
  private readonly deps: ResultJobDeps;
  constructor(deps: ResultJobDeps) {
    this.deps = deps;
  }

  async create(kind: JobKind, auth: AuthContext, body: JobRequest, headerKey: string | undefined) {
    const { target, group } = kind.members(body);
    const members: Located[] = [{ member: target, at: '/target' }, ...group.map((member, i) => ({ member, at: `/group/${i}` }))];
    const rules = [...kind.ruleErrors(body), ...members.flatMap(({ member, at }) => memberRuleErrors(member, at)), ...webhookRuleErrors(body.webhook)];
    if (rules.length) throw new ApiError('VALIDATION_FAILED', 'The request is not valid; see details.', { details: rules });
    const refs = await referenceErrors(this.deps, auth.workspaceId, members);
    if (refs.length) throw new ApiError('REFERENCE_NOT_FOUND', 'The request references media or entities that do not exist in this workspace.', { details: refs });
    return this.deps.jobService.create(auth, {
      type: kind.type,
      route: `POST ${kind.base}/jobs`,
      body,
      label: body.label,
      bodyKey: body.idempotencyKey,
      headerKey,
    });
  }

  /** The stored payload, as JSON text. */
  async get(kind: JobKind, auth: AuthContext, id: string): Promise<string> {
    const r = await this.deps.results.get(auth.workspaceId, id, kind.type);
    if (!r) throw new ApiError('NOT_FOUND', `No ${kind.names.result} ${id}.`);
    return r.payloadJson;
  }

  /** The measurements behind a result: what its figures are drawn from. */
  async evidence(kind: JobKind, auth: AuthContext, id: string): Promise<string> {
    const r = await this.deps.results.get(auth.workspaceId, id, kind.type);
    if (!r || !r.evidenceJson) throw new ApiError('NOT_FOUND', `No ${kind.names.result} ${id}.`);
    return r.evidenceJson;
  }

  /** The result as one standalone HTML file. */
  html(kind: JobKind, auth: AuthContext, id: string): Promise<string> {
    return resultHtml(this.deps.results, auth, id, kind.type, kind.names.result);
  }

  /** The payload once the job succeeded; `null` while queued/running and when it failed. */
  async byJob(kind: JobKind, auth: AuthContext, jobId: string): Promise<string> {
    const job = await this.deps.jobs.get(auth.workspaceId, jobId);
    if (!job || job.type !== kind.type) throw new ApiError('NOT_FOUND', `No ${kind.names.job} ${jobId}.`);
    if (job.status !== 'succeeded' || !job.resultId) return 'null';
    return this.get(kind, auth, job.resultId);
  }
}
