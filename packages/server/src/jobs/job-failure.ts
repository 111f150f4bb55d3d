// How a job fails: its codes (decisions §2, lower case), what a failed job reports in `error`,
// and the error a job's handler throws to fail it at once.
/** What a failed job reports in `error.code`. */
export const JOB_ERROR_CODES = [
  'target_not_found',
  'media_unreadable',
  'no_speech_detected',
  'target_in_group',
  'not_enough_speech',
  'insufficient_credits',
  'canceled',
  'timed_out',
  'internal_error',
] as const;
export type JobErrorCode = (typeof JOB_ERROR_CODES)[number];

export interface JobError {
  code: JobErrorCode;
  message: string;
}

/** Thrown inside job handlers: the job fails at once with this code (no retry). */
export class JobFailure extends Error {
  readonly code: JobErrorCode;
  constructor(code: JobErrorCode, message: string) {
    super(message);
    this.name = 'JobFailure';
    this.code = code;
  }
}
