// The job-kind table: every kind of result job, by the `type` its jobs are stored with. The
// service, the routes and the runner read a kind from here; adding a kind is one entry.
import type { JobKind } from './result-kind.ts';
import type { JobType } from './jobs.schemas.ts';
import { MATCHING } from '../matching/matching.kind.ts';
import { REPORT } from '../reports/reports.kind.ts';

export const JOB_KINDS: Readonly<Record<JobType, JobKind>> = { matching: MATCHING, report: REPORT };

export function jobKind(type: JobType): JobKind {
  return JOB_KINDS[type];
}
