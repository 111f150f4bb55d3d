// The `job.run` task: take a result job of any kind (registered-kinds.ts) from queued to a terminal state. It waits
// (without holding a worker slot) for the media analyses it needs, resolves its members,
// scores, writes the document, and ends the job with its result and webhook event in one
// transaction. A JobFailure ends the job at once with its code; other errors are retried by
// the worker and end as `internal_error` after the last attempt.
import type { Task } from '../queue/queue.store.ts';
import type { TaskContext, TaskHandler, TaskOutcome } from '../queue/worker.ts';
import type { JobStore } from './jobs.store.ts';
import { ENGINE_UNAVAILABLE_MESSAGE, type AnalysisEngine, type MediaAnalysisMap } from '../analysis/engine.ts';
import { JobFailure, type JobError } from './job-failure.ts';
import { newId, nowIso } from '../ids.ts';
import type { JobRequest } from './result-kind.ts';
import { jobKind } from './registered-kinds.ts';
import type { Job, JobStage } from './jobs.schemas.ts';
import { failureOutbox, webhookOf } from './jobs.service.ts';
import { checkMediaReady, resolveMember, type MemberStores, type ResolvedProfile } from './member-resolver.ts';

const WAIT_MS = 300;

function resolvedMember(p: ResolvedProfile) {
  return { source: p.source, ...(p.entityId ? { entityId: p.entityId } : {}), resolvedLabel: p.resolvedLabel };
}

/** Decisions §14: two members are one person when they resolve to the same entity or the same speaker of the same media. */
export function samePerson(a: ResolvedProfile, b: ResolvedProfile): boolean {
  if (a.entityId !== null && a.entityId === b.entityId) return true;
  const [x] = a.input.appearances;
  const [y] = b.input.appearances;
  return a.input.appearances.length === 1 && b.input.appearances.length === 1 && x !== undefined && y !== undefined && x.mediaId === y.mediaId && x.speakerIndex === y.speakerIndex;
}

/** What the job runner uses: the job store, the stores members are resolved from, the engine, the time limit. */
export interface JobRunnerDeps extends MemberStores {
  jobs: JobStore;
  engine: AnalysisEngine | null;
  jobTimeoutSec: number;
}

export class JobRunner implements TaskHandler {
  private readonly deps: JobRunnerDeps;
  private readonly engine: AnalysisEngine | null;

  constructor(deps: JobRunnerDeps) {
    this.deps = deps;
    this.engine = deps.engine;
  }

  async run(task: Task, ctx: TaskContext): Promise<TaskOutcome> {
    const jobs = this.deps.jobs;
    const stored = await jobs.load(task.refId);
    if (!stored || stored.job.status === 'succeeded' || stored.job.status === 'failed') return { kind: 'done' };
    const job = (await jobs.start(stored.job.id)) ?? stored.job;
    try {
      return await this.advance(job, stored.workspaceId, stored.request, ctx);
    } catch (err) {
      if (err instanceof JobFailure) {
        await this.fail(job, { code: err.code, message: err.message }, stored.request);
        return { kind: 'done' };
      }
      throw err;
    }
  }

  private async advance(job: Job, workspaceId: string, request: unknown, ctx: TaskContext): Promise<TaskOutcome> {
    const started = job.startedAt ? Date.parse(job.startedAt) : Date.now();
    if (Date.now() - started > this.deps.jobTimeoutSec * 1000) {
      throw new JobFailure('timed_out', `The job ran longer than ${this.deps.jobTimeoutSec} s.`);
    }
    if (!this.engine) throw new JobFailure('internal_error', ENGINE_UNAVAILABLE_MESSAGE);
    const kind = jobKind(job.type);
    const body = request as JobRequest;
    const { target: targetMember, group: groupMembers } = kind.members(body);
    const members = [{ member: targetMember, ref: 'target' }, ...groupMembers.map((member, i) => ({ member, ref: `group[${i}]` }))];

    const readiness = await checkMediaReady(this.deps, workspaceId, members);
    if (!readiness.ready) {
      const stage = (readiness.stage ?? 'preparing_media') as JobStage;
      await this.progress(job, stage, 0.05 + 0.55 * readiness.fraction);
      return { kind: 'wait', ms: WAIT_MS };
    }
    ctx.signal.throwIfAborted();
    await this.progress(job, 'resolving_members', 0.65);
    const profiles: ResolvedProfile[] = [];
    for (const { member, ref } of members) profiles.push(await resolveMember(this.deps, this.engine, workspaceId, member, ref, readiness.media));
    const analyses: MediaAnalysisMap = {};
    for (const [id, m] of readiness.media) if (m.analysis) analyses[id] = m.analysis;

    await this.progress(job, 'scoring', 0.8);
    const [target, ...group] = profiles as [ResolvedProfile, ...ResolvedProfile[]];
    const self = group.findIndex((g) => samePerson(target, g));
    if (self >= 0) {
      throw new JobFailure('target_in_group', `group[${self}] resolved to the same person as the target; a person cannot be matched with themself`);
    }
    const built = kind.build(this.engine, { target: target.input, group: group.map((g) => g.input), media: analyses });
    ctx.signal.throwIfAborted();

    await this.progress(job, 'writing_result', 0.95);
    const resultId = newId(kind.result.idPrefix);
    const payload: Record<string, unknown> = {
      id: resultId,
      jobId: job.id,
      context: kind.result.context,
      createdAt: nowIso(),
      ...(body.label !== undefined ? { label: body.label } : {}),
      output: { template: kind.result.template },
      target: resolvedMember(target),
      ...(kind.result.withGroup ? { group: group.map(resolvedMember) } : {}),
      json: built.document,
      markdown: built.markdown,
    };
    await this.deps.jobs.succeed(
      job.id,
      { id: resultId, kind: kind.type, payloadJson: JSON.stringify(payload), evidenceJson: JSON.stringify(built.evidence) },
      {
        type: kind.events.completed,
        data: { jobId: job.id, [kind.events.resultField]: resultId, status: 'succeeded' },
        webhook: webhookOf(request),
      },
    );
    return { kind: 'done' };
  }

  private async progress(job: Job, stage: JobStage, fraction: number): Promise<void> {
    await this.deps.jobs.progress(job.id, stage, Math.min(1, Math.round(fraction * 1000) / 1000));
  }

  private async fail(job: Job, error: JobError, request: unknown): Promise<void> {
    await this.deps.jobs.fail(job.id, error, failureOutbox(job, error, request));
  }

  async giveUp(task: Task, error: unknown): Promise<void> {
    const stored = await this.deps.jobs.load(task.refId);
    if (!stored) return;
    const message = `The job failed after ${task.maxAttempts} attempts: ${error instanceof Error ? error.message : String(error)}`;
    await this.fail(stored.job, { code: 'internal_error', message }, stored.request);
  }
}
