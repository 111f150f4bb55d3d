// The job resource of decisions §6, shared by matching and report jobs.
import { Type, type Static } from 'typebox';
import { Nullable, Strict, ListQuery } from '../http/schema-helpers.ts';

export const JOB_STAGES = [
  'queued',
  'preparing_media',
  'detecting_speech',
  'identifying_speakers',
  'measuring_behavior',
  'resolving_members',
  'scoring',
  'writing_result',
  'done',
] as const;
export type JobStage = (typeof JOB_STAGES)[number];
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
/** Every kind of result job; the job-kind table (registered-kinds.ts) holds one entry per type. */
export const JOB_TYPES = ['matching', 'report'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export const JobErrorSchema = Strict({ code: Type.String(), message: Type.String() });

export const Job = Strict({
  id: Type.String(),
  type: Type.Unsafe<JobType>(Type.Union(JOB_TYPES.map((t) => Type.Literal(t)))),
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
  stage: Type.Union([
    Type.Literal('queued'),
    Type.Literal('preparing_media'),
    Type.Literal('detecting_speech'),
    Type.Literal('identifying_speakers'),
    Type.Literal('measuring_behavior'),
    Type.Literal('resolving_members'),
    Type.Literal('scoring'),
    Type.Literal('writing_result'),
    Type.Literal('done'),
  ]),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  label: Type.Optional(Type.String()),
  createdAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  estimatedWaitSec: Type.Optional(Type.Number()),
  resultId: Nullable(Type.String()),
  error: Nullable(JobErrorSchema),
});
export type Job = Static<typeof Job>;

export const JobListQuery = Strict({
  ...ListQuery.properties,
  type: Type.Optional(Type.Union([Type.Literal('matching'), Type.Literal('report')])),
  status: Type.Optional(Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')])),
});
export type JobListQuery = Static<typeof JobListQuery>;
