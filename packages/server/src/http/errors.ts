// The error body the API answers with (decisions §2), rendered from an `ApiError` (errors.ts).
import type { ApiError, ErrorCode, ErrorDetail } from '../errors.ts';

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    requestId: string;
    details?: ErrorDetail[];
    retryAfter?: number;
  };
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  const body: ErrorBody = { error: { code: err.code, message: err.message, requestId } };
  if (err.details) body.error.details = err.details;
  if (err.retryAfter !== undefined) body.error.retryAfter = err.retryAfter;
  return body;
}
