// Matching jobs: validate what the schema cannot, check references in the caller's workspace,
// create the job (with credits and idempotency), and read results.
import { ApiError, type ErrorDetail } from '../http/errors.ts';
import type { AuthContext } from '../http/context.ts';
import type { JobService } from '../jobs/jobs.service.ts';
import type { JobStore } from '../jobs/jobs.store.ts';
import type { MemberStores } from '../jobs/member-resolver.ts';
import type { ResultStore } from '../results/results.store.ts';
import type { Member, MatchingJobRequest } from './matching.schemas.ts';
import { groupRuleErrors, memberRuleErrors, webhookRuleErrors } from './matching.rules.ts';

/** Every `mediaId`, `entityId` and selector `entity_id` must exist in the workspace (§5). */
export async function referenceErrors(stores: MemberStores, workspaceId: string, members: { member: Member; at: string }[]): Promise<ErrorDetail[]> {
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

export function ruleErrors(members: { member: Member; at: string }[]): ErrorDetail[] {
  return members.flatMap(({ member, at }) => memberRuleErrors(member, at));
}

/** What a result job service uses: job creation, the job and result stores, and the stores references are checked in. */
export interface ResultJobDeps extends MemberStores {
  jobService: JobService;
  jobs: JobStore;
  results: ResultStore;
}

export class MatchingService {
  private readonly deps: ResultJobDeps;
  constructor(deps: ResultJobDeps) {
    this.deps = deps;
  }

  async create(auth: AuthContext, body: MatchingJobRequest, headerKey: string | undefined) {
    const members = [{ member: body.target, at: '/target' }, ...body.group.map((member, i) => ({ member, at: `/group/${i}` }))];
    const rules = [...groupRuleErrors(body.group), ...ruleErrors(members), ...webhookRuleErrors(body.webhook)];
    if (rules.length) throw new ApiError('VALIDATION_FAILED', 'The request is not valid; see details.', { details: rules });
    const refs = await referenceErrors(this.deps, auth.workspaceId, members);
    if (refs.length) throw new ApiError('REFERENCE_NOT_FOUND', 'The request references media or entities that do not exist in this workspace.', { details: refs });
    return this.deps.jobService.create(auth, {
      type: 'matching',
      route: 'POST /v1/matching/jobs',
      body,
      label: body.label,
      bodyKey: body.idempotencyKey,
      headerKey,
    });
  }

  async get(auth: AuthContext, id: string): Promise<string> {
    const r = await this.deps.results.get(auth.workspaceId, id, 'matching');
    if (!r) throw new ApiError('NOT_FOUND', `No matching result ${id}.`);
    return r.payloadJson;
  }

  async evidence(auth: AuthContext, id: string): Promise<string> {
    const r = await this.deps.results.get(auth.workspaceId, id, 'matching');
    if (!r || !r.evidenceJson) throw new ApiError('NOT_FOUND', `No matching result ${id}.`);
    return r.evidenceJson;
  }

  /** The payload once the job succeeded; `null` while queued/running and when it failed. */
  async byJob(auth: AuthContext, jobId: string): Promise<string> {
    const job = await this.deps.jobs.get(auth.workspaceId, jobId);
    if (!job || job.type !== 'matching') throw new ApiError('NOT_FOUND', `No matching job ${jobId}.`);
    if (job.status !== 'succeeded' || !job.resultId) return 'null';
    return this.get(auth, job.resultId);
  }
}
