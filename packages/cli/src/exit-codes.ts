// The exit codes of `rapport`, documented in docs/cli.md and in `rapport --help`: a script can
// tell "fix your command" from "fix your key" from "try again later" without parsing text.
import {
  APIConnectionError, AuthenticationError, JobFailedError, NotFoundError, PayloadTooLargeError, PermissionDeniedError,
  RateLimitError, UnsupportedMediaTypeError, ValidationError,
} from '@rapport/client';
import { UsageError } from './usage-error.ts';

export const EXIT = {
  ok: 0,
  /** Anything not below: a conflict, insufficient credits, a server error. */
  error: 1,
  /** Bad command line, or input the API refused (400; 413 too large, 415 not a supported format). */
  usage: 2,
  /** No API key, or the key is unknown, revoked or lacks the scope. */
  auth: 3,
  notFound: 4,
  /** The job ended `failed`. */
  jobFailed: 5,
  /** Rate limited, timed out or unreachable: worth retrying later. */
  retryLater: 6,
} as const;


export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError || err instanceof ValidationError || err instanceof UnsupportedMediaTypeError || err instanceof PayloadTooLargeError) return EXIT.usage;
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) return EXIT.auth;
  if (err instanceof NotFoundError) return EXIT.notFound;
  if (err instanceof JobFailedError) return EXIT.jobFailed;
  if (err instanceof RateLimitError || err instanceof APIConnectionError) return EXIT.retryLater;
  return EXIT.error;
}
