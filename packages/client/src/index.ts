// The SDK's public surface. Everything a user imports comes from here.
export { Rapport } from './client.ts';
export { Rapport as default } from './client.ts';
export type { ClientOptions, RetryNotice } from './core/http.ts';
export {
  RapportError, APIError, ValidationError, AuthenticationError, InsufficientCreditsError,
  PermissionDeniedError, NotFoundError, MethodNotAllowedError, ConflictError, PayloadTooLargeError, RequestTimeoutError,
  UnsupportedMediaTypeError, RangeNotSatisfiableError, GoneError, RateLimitError, InternalServerError, APIConnectionError, TimeoutError,
  AbortError, JobFailedError, RedirectError, UnexpectedResponseError, ERROR_CODES,
} from './core/errors.ts';
export type { APIErrorBody, ErrorCode, ErrorDetail } from './core/errors.ts';
export { Page, PagePromise } from './core/pagination.ts';
export type { Uploadable, UploadProgress } from './core/multipart.ts';
export type { DiarizationFormat, UploadParams } from './resources/files.ts';
export type { CreateAndWaitOptions, StreamOptions, WaitOptions } from './resources/jobs.ts';
export { isTerminal } from './resources/jobs.ts';
export { endpoints } from './endpoints.ts';
export type { Endpoint, EndpointName } from './endpoints.ts';
export type * from './common-types.ts';
export type * from './job-types.ts';
export type * from './result-types.ts';
export type * from './media-types.ts';
export type * from './measure-types.ts';
export type * from './entity-types.ts';
export type * from './account-types.ts';
export type * from './evidence-types.ts';
export * from './webhooks.ts';
export { speakerName, formatSeconds, formatBytes, recordingName } from './display.ts';
