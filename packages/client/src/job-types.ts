// Matching and report jobs: what creating one takes (interface-spec.md "Resources and their
// fields", decisions.md §5 and §9), the job resource, and the events of its progress stream (§6).
import type { Id, ListParams, Timestamp } from './common-types.ts';

// ---- matching request (interface-spec.md "Resources and their fields") ----

export type SelectorStrategy = 'dominant' | 'timerange' | 'entity_id' | 'magic_hint' | 'speaker_index';

export interface Selector {
  strategy: SelectorStrategy;
  on_miss?: 'fallback_dominant' | 'error';
  entity_id?: string | null;
  hint?: string | null;
  speaker_index?: number | null;
  timerange?: TimeRange | null;
}

/** Seconds from the start of the media; a null (or left out) end is open. */
export interface TimeRange {
  start_seconds?: number | null;
  end_seconds?: number | null;
}

export interface EntityReference {
  type: 'entity_id';
  entityId: string;
}

export interface MediaTarget {
  type: 'media_target';
  mediaId: string;
  selector: Selector;
}

export type Member = EntityReference | MediaTarget;

export interface WebhookSpec {
  url: string;
  headers?: Record<string, string>;
}

export interface MatchingJobCreateParams {
  target: Member;
  /** 1 to 20 members, compared with the target in this order. */
  group: readonly Member[];
  /** Defaults to `behavioral_compatibility`, the only value. */
  context?: 'behavioral_compatibility';
  label?: string;
  idempotencyKey?: string;
  webhook?: WebhookSpec;
}

export interface ReportJobCreateParams {
  target: Member;
  context?: 'behavioral_profile';
  label?: string;
  idempotencyKey?: string;
  webhook?: WebhookSpec;
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type JobStage =
  | 'queued' | 'preparing_media' | 'detecting_speech' | 'identifying_speakers' | 'measuring_behavior'
  | 'resolving_members' | 'scoring' | 'writing_result' | 'done';

export interface JobReceipt {
  jobId: Id;
  status: 'queued' | 'running';
  stage?: string;
  estimatedWaitSec?: number;
}

export interface JobError {
  code: string;
  message: string;
}

export interface Job {
  id: Id;
  type: 'matching' | 'report';
  status: JobStatus;
  stage: JobStage | string;
  progress: number;
  label?: string;
  createdAt: Timestamp;
  startedAt: Timestamp | null;
  finishedAt: Timestamp | null;
  estimatedWaitSec?: number;
  resultId: Id | null;
  error: JobError | null;
}

export interface JobListParams extends ListParams {
  status?: JobStatus;
  type?: 'matching' | 'report';
}

/** One server-sent event of a job's progress stream (decisions.md §6). */
export interface JobEvent {
  id: string | null;
  event: 'job.updated' | 'job.succeeded' | 'job.failed';
  job: Job;
}
