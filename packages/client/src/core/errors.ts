// The SDK's error tree, keyed by HTTP status and the API's error code (decisions.md §2), so that
// callers can `catch (e) { if (e instanceof RateLimitError) … }` without parsing bodies. Every
// error carries what a support ticket needs: status, code, message, request id and headers.

/** One field at fault, as the API reports it: a JSON Pointer into the request and a message. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The `error` object of every non-2xx answer. */
export interface APIErrorBody {
  code: string;
  message: string;
  requestId?: string;
  details?: ErrorDetail[];
  retryAfter?: number;
}

/** Every error code of the API with its status (decisions.md §2); the drift test checks it. */
export const ERROR_CODES = {
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  REFERENCE_NOT_FOUND: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_KEY_IN_USE: 409,
  CONFLICT: 409,
  QUOTA_EXCEEDED: 409,
  GONE: 410,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  IDEMPOTENCY_KEY_REUSED: 422,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Base class of everything the SDK throws on purpose. */
export class RapportError extends Error {
  override name = 'RapportError';
}

/** The server answered with a non-2xx status. */
export class APIError extends RapportError {
  override name = 'APIError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly headers: Headers;
  readonly body: unknown;

  constructor(status: number, body: APIErrorBody | undefined, headers: Headers, rawBody?: unknown) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? 'UNKNOWN';
    this.requestId = body?.requestId ?? headers.get('x-request-id');
    this.headers = headers;
    this.body = rawBody;
  }
}

/** 400 `INVALID_JSON`, `VALIDATION_FAILED` or `REFERENCE_NOT_FOUND`; `details` names each field. */
export class ValidationError extends APIError {
  override name = 'ValidationError';
  readonly details: ErrorDetail[];
  constructor(status: number, body: APIErrorBody | undefined, headers: Headers, rawBody?: unknown) {
    super(status, body, headers, rawBody);
    this.details = body?.details ?? [];
  }
}

export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class InsufficientCreditsError extends APIError {
  override name = 'InsufficientCreditsError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
export class MethodNotAllowedError extends APIError {
  override name = 'MethodNotAllowedError';
}
/** 409 `CONFLICT` or `IDEMPOTENCY_KEY_IN_USE`, and 422 `IDEMPOTENCY_KEY_REUSED`. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 413, and 431 `HEADERS_TOO_LARGE` (the request's headers). */
export class PayloadTooLargeError extends APIError {
  override name = 'PayloadTooLargeError';
}
/** 408: the request did not reach the server in time (its headers, or a stalled body); the connection was closed. */
export class RequestTimeoutError extends APIError {
  override name = 'RequestTimeoutError';
}
export class UnsupportedMediaTypeError extends APIError {
  override name = 'UnsupportedMediaTypeError';
}
/** 416: the byte range asked of `files.content` is not in the file. */
export class RangeNotSatisfiableError extends APIError {
  override name = 'RangeNotSatisfiableError';
}

/** 410: what was asked for is no longer kept (an event stream's Last-Event-ID older than the retention). */
export class GoneError extends APIError {
  override name = 'GoneError';
}

/** 429. `retryAfter` is in seconds (body `retryAfter`, else the `Retry-After` header). */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  readonly retryAfter: number | null;
  constructor(status: number, body: APIErrorBody | undefined, headers: Headers, rawBody?: unknown) {
    super(status, body, headers, rawBody);
    this.retryAfter = retryAfterSeconds(body, headers);
  }
}

/** 5xx: `INTERNAL` or `UNAVAILABLE`. */
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** The request never got an HTTP answer (DNS, refused, reset). */
export class APIConnectionError extends RapportError {
  override name = 'APIConnectionError';
  constructor(message = 'Connection error', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The service answered a redirect the SDK does not follow: to another origin (the API key is never
 * sent there), a body-dropping redirect of a POST or PATCH, more than five hops, or one a browser
 * hides. Not retried.
 */
export class RedirectError extends RapportError {
  override name = 'RedirectError';
  readonly status: number;
  /** Where the redirect pointed (absolute), or null when the runtime hides it. */
  readonly location: string | null;
  constructor(message: string, info: { status: number; location: string | null }) {
    super(message);
    this.status = info.status;
    this.location = info.location;
  }
}

/**
 * A 2xx answer that is not what the route answers: an event stream whose media type is not
 * `text/event-stream`, or a JSON route's body that is not JSON (a proxy's HTML page, a base URL
 * that points at another service). Reading it would parse garbage or wait for events that never
 * come, so it is thrown at once and not retried: asking again would get the same page.
 * `jobs.wait` does not fall back to polling on it either, since the polling would reach the
 * same wrong place.
 */
export class UnexpectedResponseError extends RapportError {
  override name = 'UnexpectedResponseError';
  readonly status: number;
  /** The answer's `Content-Type`, null when it had none. */
  readonly contentType: string | null;
  readonly requestId: string | null;
  readonly headers: Headers;
  /**
   * The body's first 200 characters, whitespace collapsed (`…` when cut), enough to recognise a
   * login page or another service; null for an event stream, whose body is left unread.
   */
  readonly excerpt: string | null;
  constructor(message: string, res: { status: number; headers: Headers }, excerpt: string | null = null) {
    super(message);
    this.status = res.status;
    this.contentType = res.headers.get('content-type');
    this.requestId = res.headers.get('x-request-id');
    this.headers = res.headers;
    this.excerpt = excerpt;
  }
}

const EXCERPT_CHARS = 200;

/** The start of a body for an error message: a whole HTML page would bury the message. */
export function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

/** The request ran past `timeoutMs` (each attempt has its own budget). */
export class TimeoutError extends APIConnectionError {
  override name = 'TimeoutError';
  constructor(message = 'Request timed out') {
    super(message);
  }
}

/** The caller's AbortSignal fired. */
export class AbortError extends RapportError {
  override name = 'AbortError';
}

/** A job the SDK waited for ended `failed`; `code` is the job's lower-case error code (§2). */
export class JobFailedError extends RapportError {
  override name = 'JobFailedError';
  readonly jobId: string;
  readonly code: string;
  readonly job: unknown;
  constructor(jobId: string, error: { code: string; message: string } | null, job: unknown) {
    super(`Job ${jobId} failed: ${error?.code ?? 'unknown'}: ${error?.message ?? 'no message'}`);
    this.jobId = jobId;
    this.code = error?.code ?? 'unknown';
    this.job = job;
  }
}

/** Seconds to wait before retrying: the body's `retryAfter`, else `Retry-After` (seconds or date). */
export function retryAfterSeconds(body: APIErrorBody | undefined, headers: Headers): number | null {
  if (typeof body?.retryAfter === 'number' && Number.isFinite(body.retryAfter)) return body.retryAfter;
  const header = headers.get('retry-after');
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, (date - Date.now()) / 1000);
}

/** Picks the class for a status; the code refines where one status covers several kinds. */
export function makeAPIError(status: number, body: APIErrorBody | undefined, headers: Headers, raw?: unknown): APIError {
  const code = body?.code;
  if (status === 400 || (status === 422 && code !== 'IDEMPOTENCY_KEY_REUSED')) {
    return new ValidationError(status, body, headers, raw);
  }
  switch (status) {
    case 401: return new AuthenticationError(status, body, headers, raw);
    case 402: return new InsufficientCreditsError(status, body, headers, raw);
    case 403: return new PermissionDeniedError(status, body, headers, raw);
    case 404: return new NotFoundError(status, body, headers, raw);
    case 405: return new MethodNotAllowedError(status, body, headers, raw);
    case 409: case 422: return new ConflictError(status, body, headers, raw);
    case 408: return new RequestTimeoutError(status, body, headers, raw);
    case 410: return new GoneError(status, body, headers, raw);
    case 413: case 431: return new PayloadTooLargeError(status, body, headers, raw);
    case 415: return new UnsupportedMediaTypeError(status, body, headers, raw);
    case 416: return new RangeNotSatisfiableError(status, body, headers, raw);
    case 429: return new RateLimitError(status, body, headers, raw);
  }
  if (status >= 500) return new InternalServerError(status, body, headers, raw);
  return new APIError(status, body, headers, raw);
}
