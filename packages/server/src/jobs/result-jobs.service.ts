// Result jobs of every kind (registered-kinds.ts): validate what the schema cannot, check references in
// the caller's workspace, create the job (with credits and idempotency, jobs.service.ts), and
// read its result, evidence and standalone HTML.
import type { RenderPool } from '../render/render-pool.ts';
import { ApiError, type ErrorDetail } from '../errors.ts';
import type { AuthContext } from '../workspace/auth.ts';
import type { Member } from './job-request.schemas.ts';
import { idempotencyKeyErrors, memberRuleErrors, webhookRuleErrors } from './job-request.rules.ts';
import type { ResultStore } from '../results/results.store.ts';
import type { MediaStore } from '../files/media.store.ts';
import { resultHtml } from '../results/result-html.ts';
import type { JobService } from './jobs.service.ts';
import type { JobStore } from './jobs.store.ts';
import type { Reference, ReferenceStore } from './references.store.ts';
import type { JobKind, JobRequest } from './result-kind.ts';
import { destinationErrors, type DestinationRules } from '../webhooks/destination-rules.ts';

/** What ResultJobService uses: job creation, the job and result stores, and the reference checks. */
export interface ResultJobDeps {
  jobService: JobService;
  jobs: JobStore;
  results: ResultStore;
  references: ReferenceStore;
  /** The recordings a result's pairs share: their turns are drawn in its HTML file. */
  media: Pick<MediaStore, 'getRow'>;
  /** Where the HTML file is made, off the event loop. */
  render: Pick<RenderPool, 'run'>;
  /** WEBHOOK_ALLOW_PRIVATE and WEBHOOK_REQUIRE_HTTPS: a webhook URL they refuse is a 400 at creation. */
  webhookRules: DestinationRules;
}

type Located = { member: Member; at: string };

/**
 * Every `mediaId`, `entityId` and selector `entity_id` must exist in the workspace (§5): all of
 * them checked by one call, the errors in the order of the members.
 */
async function referenceErrors(references: ReferenceStore, workspaceId: string, members: Located[]): Promise<ErrorDetail[]> {
  const refs: (Reference & { path: string })[] = [];
  for (const { member, at } of members) {
    if (member.type === 'entity_id') {
      refs.push({ kind: 'entity', id: member.entityId, path: `${at}/entityId` });
      continue;
    }
    refs.push({ kind: 'media', id: member.mediaId, path: `${at}/mediaId` });
    const eid = member.selector.entity_id;
    if (member.selector.strategy === 'entity_id' && typeof eid === 'string') refs.push({ kind: 'entity', id: eid, path: `${at}/selector/entity_id` });
  }
  const exist = await references.exist(workspaceId, refs);
  return refs.filter((_, i) => !exist[i]).map((r) => ({ path: r.path, message: `${r.kind} ${r.id} does not exist in this workspace` }));
}

export class ResultJobService {
  private readonly deps: ResultJobDeps;
  constructor(deps: ResultJobDeps) {
    this.deps = deps;
  }

  async create(kind: JobKind, auth: AuthContext, body: JobRequest, headerKey: string | undefined) {
    const { target, group } = kind.members(body);
    const members: Located[] = [{ member: target, at: '/target' }, ...group.map((member, i) => ({ member, at: `/group/${i}` }))];
    const webhook = webhookRuleErrors(body.webhook);
    const destination = body.webhook && webhook.length === 0 ? destinationErrors(body.webhook.url, this.deps.webhookRules) : [];
    const rules = [
      ...kind.ruleErrors(body),
      ...members.flatMap(({ member, at }) => memberRuleErrors(member, at)),
      ...webhook,
      ...destination,
      ...idempotencyKeyErrors(body.idempotencyKey, headerKey),
    ];
    if (rules.length) throw new ApiError('VALIDATION_FAILED', 'The request is not valid; see details.', { details: rules });
    const refs = await referenceErrors(this.deps.references, auth.workspaceId, members);
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

  /**
   * The result as one standalone HTML file, in UTF-8 bytes: the render worker draws it off the
   * event loop and hands back bytes, which the route sends as they are (text/html; charset=utf-8).
   */
  html(kind: JobKind, auth: AuthContext, id: string): Promise<Buffer> {
    return resultHtml(this.deps.results, this.deps.media, this.deps.render, auth, id, kind.type, kind.names.result);
  }

  /** The payload once the job succeeded; `null` while queued/running and when it failed. */
  async byJob(kind: JobKind, auth: AuthContext, jobId: string): Promise<string> {
    const job = await this.deps.jobs.get(auth.workspaceId, jobId);
    if (!job || job.type !== kind.type) throw new ApiError('NOT_FOUND', `No ${kind.names.job} ${jobId}.`);
    if (job.status !== 'succeeded' || !job.resultId) return 'null';
    return this.get(kind, auth, job.resultId);
  }
}
