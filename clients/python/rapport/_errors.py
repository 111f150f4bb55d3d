"""The client's error tree, keyed by HTTP status and the API's error code (decisions.md section 2).

Every error carries what a support ticket needs: ``status``, ``code``, ``message`` and
``request_id`` (``None`` where the request never got an answer).
"""
from __future__ import annotations

import email.utils
import time
from typing import Any, Dict, List, Mapping, Optional, Type

from .types import ErrorDetail

#: Every error code of the API with its status; the drift test checks it against the service.
ERROR_CODES: Dict[str, int] = {
    "INVALID_JSON": 400,
    "VALIDATION_FAILED": 400,
    "REFERENCE_NOT_FOUND": 400,
    "UNAUTHENTICATED": 401,
    "INSUFFICIENT_CREDITS": 402,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "IDEMPOTENCY_KEY_IN_USE": 409,
    "CONFLICT": 409,
    "QUOTA_EXCEEDED": 409,
    "GONE": 410,
    "REQUEST_TIMEOUT": 408,
    "PAYLOAD_TOO_LARGE": 413,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "RANGE_NOT_SATISFIABLE": 416,
    "IDEMPOTENCY_KEY_REUSED": 422,
    "HEADERS_TOO_LARGE": 431,
    "RATE_LIMITED": 429,
    "INTERNAL": 500,
    "UNAVAILABLE": 503,
    "INSUFFICIENT_STORAGE": 507,
}


class RapportError(Exception):
    """Base class of everything the client raises on purpose."""

    status: Optional[int] = None
    code: Optional[str] = None
    request_id: Optional[str] = None

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class APIError(RapportError):
    """The service answered with a non-2xx status."""

    status: int
    code: str

    def __init__(self, status: int, error: Optional[Mapping[str, Any]], headers: Mapping[str, str], body: object = None) -> None:
        message = error.get("message") if error else None
        super().__init__(message if isinstance(message, str) else f"HTTP {status}")
        code = error.get("code") if error else None
        self.status = status
        self.code = code if isinstance(code, str) else "UNKNOWN"
        request_id = error.get("requestId") if error else None
        self.request_id = request_id if isinstance(request_id, str) else _header(headers, "x-request-id")
        self.headers: Dict[str, str] = {k.lower(): v for k, v in headers.items()}
        self.body = body

    def __str__(self) -> str:
        rid = f", request {self.request_id}" if self.request_id else ""
        return f"{self.status} {self.code}: {self.message}{rid}"


class ValidationError(APIError):
    """400 ``INVALID_JSON``, ``VALIDATION_FAILED`` or ``REFERENCE_NOT_FOUND``; ``details`` names each field."""

    def __init__(self, status: int, error: Optional[Mapping[str, Any]], headers: Mapping[str, str], body: object = None) -> None:
        super().__init__(status, error, headers, body)
        raw = error.get("details") if error else None
        self.details: List[ErrorDetail] = [
            {"path": str(d.get("path", "")), "message": str(d.get("message", ""))}
            for d in (raw if isinstance(raw, list) else [])
            if isinstance(d, dict)
        ]

    def __str__(self) -> str:
        fields = "; ".join(f"{d['path'] or '/'}: {d['message']}" for d in self.details)
        return super().__str__() + (f" ({fields})" if fields else "")


class AuthenticationError(APIError):
    """401: the key is missing, unknown or revoked."""


class InsufficientCreditsError(APIError):
    """402: the workspace cannot pay for the work asked."""


class PermissionDeniedError(APIError):
    """403: the key's scope does not allow the call (workspace administration needs an admin key)."""


class NotFoundError(APIError):
    """404."""


class MethodNotAllowedError(APIError):
    """405."""


class ConflictError(APIError):
    """409 ``CONFLICT``, ``QUOTA_EXCEEDED`` or ``IDEMPOTENCY_KEY_IN_USE``, and 422 ``IDEMPOTENCY_KEY_REUSED``."""


class RequestTimeoutError(APIError):
    """408: the request did not reach the service in time."""


class GoneError(APIError):
    """410: what was asked for is no longer kept (an event id older than the retention)."""


class PayloadTooLargeError(APIError):
    """413, and 431 ``HEADERS_TOO_LARGE``."""


class UnsupportedMediaTypeError(APIError):
    """415: the upload is no supported format."""


class RangeNotSatisfiableError(APIError):
    """416: the byte range asked of ``files.content`` is not in the file."""


class RateLimitError(APIError):
    """429. ``retry_after`` is in seconds (the body's ``retryAfter``, else ``Retry-After``)."""

    def __init__(self, status: int, error: Optional[Mapping[str, Any]], headers: Mapping[str, str], body: object = None) -> None:
        super().__init__(status, error, headers, body)
        self.retry_after: Optional[float] = retry_after_seconds(error, headers)


class InternalServerError(APIError):
    """5xx: ``INTERNAL``, ``UNAVAILABLE`` or ``INSUFFICIENT_STORAGE``."""


class APIConnectionError(RapportError):
    """The request never got an HTTP answer (DNS, refused, reset, timed out)."""


class APITimeoutError(APIConnectionError):
    """An attempt ran past its timeout, or a wait past its overall limit."""


class RedirectError(RapportError):
    """The service answered with a redirect the client does not follow (another origin, or too many)."""

    def __init__(self, message: str, status: int, location: str) -> None:
        super().__init__(message)
        self.status = status
        self.location = location


class UnexpectedResponseError(RapportError):
    """A 2xx answer that is not what the route answers: an event stream whose media type is not
    ``text/event-stream``, or a JSON route's body that is not JSON (a proxy's HTML page, a base URL
    that points at another service). Raised at once and not retried, since asking again would get
    the same page; ``jobs.wait`` does not fall back to polling on it, which would reach the same
    wrong place. ``content_type`` is the answer's ``Content-Type`` (None when it had none);
    ``excerpt`` the body's first 200 characters, whitespace collapsed (``…`` when cut), enough to
    recognise a login page or another service (None for an event stream, whose body is left unread)."""

    def __init__(self, message: str, status: int, headers: Mapping[str, str], excerpt: Optional[str] = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers: Dict[str, str] = {k.lower(): v for k, v in headers.items()}
        self.content_type: Optional[str] = self.headers.get("content-type")
        self.request_id = self.headers.get("x-request-id")
        self.excerpt = excerpt


_EXCERPT_CHARS = 200


def excerpt_of(body: bytes) -> str:
    """The start of a body for an error message: a whole HTML page would bury the message."""
    flat = " ".join(body.decode("utf-8", "replace").split())
    return flat[:_EXCERPT_CHARS] + "\u2026" if len(flat) > _EXCERPT_CHARS else flat


class JobFailedError(RapportError):
    """A job the client waited for ended ``failed``; ``code`` is the job's lower-case error code."""

    def __init__(self, job_id: str, error: Optional[Mapping[str, Any]], job: object) -> None:
        code = str(error.get("code", "unknown")) if error else "unknown"
        message = str(error.get("message", "no message")) if error else "no message"
        super().__init__(f"Job {job_id} failed: {code}: {message}")
        self.job_id = job_id
        self.code = code
        self.job = job


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def retry_after_seconds(error: Optional[Mapping[str, Any]], headers: Mapping[str, str]) -> Optional[float]:
    """Seconds to wait: the body's ``retryAfter``, else ``Retry-After`` (seconds or an HTTP date)."""
    value = error.get("retryAfter") if error else None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and value >= 0:
        return float(value)
    header = _header(headers, "retry-after")
    if header is None:
        return None
    try:
        seconds = float(header)
        return seconds if seconds >= 0 and seconds != float("inf") else None
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


_BY_STATUS: Dict[int, Type[APIError]] = {
    401: AuthenticationError,
    402: InsufficientCreditsError,
    403: PermissionDeniedError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    408: RequestTimeoutError,
    409: ConflictError,
    410: GoneError,
    413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError,
    416: RangeNotSatisfiableError,
    422: ConflictError,
    429: RateLimitError,
    431: PayloadTooLargeError,
}


def make_api_error(status: int, error: Optional[Mapping[str, Any]], headers: Mapping[str, str], body: object = None) -> APIError:
    """Picks the class for a status; the code refines where one status covers several kinds."""
    code = error.get("code") if error else None
    if status == 400 or (status == 422 and code != "IDEMPOTENCY_KEY_REUSED"):
        return ValidationError(status, error, headers, body)
    cls = _BY_STATUS.get(status)
    if cls is not None:
        return cls(status, error, headers, body)
    if status >= 500:
        return InternalServerError(status, error, headers, body)
    return APIError(status, error, headers, body)
