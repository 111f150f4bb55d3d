// Every error the service can answer with, in one list with a stable code and status (fastify keeps
// its errors the same way). Services and rules throw `ApiError`; the HTTP error handler
// (http/errors.ts) renders the body of decisions §2. A test checks that every code here is
// documented in docs/api.md.

export const ERRORS = {
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid.' },
  REFERENCE_NOT_FOUND: { status: 400, message: 'The request references something that does not exist.' },
  UNAUTHENTICATED: { status: 401, message: 'A valid Service-Api-Key header is required.' },
  INSUFFICIENT_CREDITS: { status: 402, message: 'The workspace does not have enough credits for this work.' },
  FORBIDDEN: { status: 403, message: 'This API key may not do that.' },
  NOT_FOUND: { status: 404, message: 'Not found.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed on this path.' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: 'A request with this idempotency key is still being processed.' },
  CONFLICT: { status: 409, message: 'The current state does not allow this.' },
  QUOTA_EXCEEDED: { status: 409, message: "A quota of this workspace is used up." },
  GONE: { status: 410, message: 'What was asked for is no longer kept.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'This content type or file format is not supported.' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The requested byte range cannot be served.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This idempotency key was used with a different request.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the indicated delay.' },
  INTERNAL: { status: 500, message: 'An internal error occurred.' },
  UNAVAILABLE: { status: 503, message: 'The service is unavailable; retry later.' },
  INSUFFICIENT_STORAGE: { status: 507, message: 'The service has no room to store this now; retry later.' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorDetail {
  /** JSON Pointer into the request (`/group/2/mediaId`, `/query/limit`, `/file`). */
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfter: number | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message?: string,
    extra: { details?: ErrorDetail[]; retryAfter?: number; headers?: Record<string, string> } = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = extra.details;
    this.retryAfter = extra.retryAfter;
    this.headers = extra.headers ?? {};
  }
}
