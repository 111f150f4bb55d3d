// A job's row and its mapping to the job resource, the same on both backends, and what a
// creation is given (job-creation.ts, job-batch-insert.ts).
import type { JobError } from './job-failure.ts';
import type { KeyCompletion } from '../idempotency/idempotency.store.ts';
import type { Job, JobStage, JobType } from './jobs.schemas.ts';

export interface CreateInput {
  workspaceId: string;
  type: JobType;
  label?: string;
  request: unknown;
  cost: number;
  /**
   * Runs inside the creating transaction; the idempotency key it may answer is completed in that
   * transaction, so that the job never exists without its replayable answer.
   */
  onCreated?: (job: Job) => KeyCompletion | undefined;
}

export interface JobRow {
  id: string;
  workspace_id: string;
  type: JobType;
  status: Job['status'];
  stage: JobStage;
  progress: number;
  label: string | null;
  request_json: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result_id: string | null;
  error_json: string | null;
  cost: number;
  event_seq: number;
  seq: number;
}

export function toJob(r: JobRow): Job {
  const job: Job = {
    id: r.id,
    type: r.type,
    status: r.status,
    stage: r.stage,
    progress: r.progress,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    resultId: r.result_id,
    error: r.error_json ? (JSON.parse(r.error_json) as JobError) : null,
  };
  if (r.label !== null) job.label = r.label;
  return job;
}

/** A job as it is created: queued, its first event numbered 1 (both backends). */
export function newJob(id: string, input: CreateInput, createdAt: string): Job {
  return toJob({
    id, workspace_id: input.workspaceId, type: input.type, status: 'queued', stage: 'queued', progress: 0, label: input.label ?? null,
    request_json: '', created_at: createdAt, started_at: null, finished_at: null, result_id: null, error_json: null, cost: input.cost, event_seq: 1, seq: 0,
  });
}
