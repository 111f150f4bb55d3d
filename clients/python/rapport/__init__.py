"""Rapport for Python: upload conversations, find who speaks when, follow each person across
recordings, and match them. Standard library only.

    from rapport import Rapport
    rapport = Rapport()  # reads RAPPORT_API_KEY and RAPPORT_BASE_URL
"""
from . import types, webhooks
from ._client import Rapport
from ._endpoints import ENDPOINTS, Endpoint
from ._errors import (
    ERROR_CODES,
    APIConnectionError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    ConflictError,
    GoneError,
    InsufficientCreditsError,
    InternalServerError,
    JobFailedError,
    MethodNotAllowedError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RangeNotSatisfiableError,
    RapportError,
    RateLimitError,
    RedirectError,
    RequestTimeoutError,
    UnexpectedResponseError,
    UnsupportedMediaTypeError,
    ValidationError,
)
from ._http import VERSION as __version__
from ._http import Response
from ._multipart import UploadProgress
from ._pagination import Page, Paginator
from .resources.files import NOT_GIVEN
from .resources.jobs import is_terminal
from .webhooks import WebhookVerificationError

__all__ = [
    "ENDPOINTS", "ERROR_CODES", "NOT_GIVEN", "APIConnectionError", "APIError", "APITimeoutError", "AuthenticationError",
    "ConflictError", "Endpoint", "GoneError", "InsufficientCreditsError", "InternalServerError", "JobFailedError",
    "MethodNotAllowedError", "NotFoundError", "Page", "Paginator", "PayloadTooLargeError", "PermissionDeniedError",
    "RangeNotSatisfiableError", "Rapport", "RapportError", "RateLimitError", "RedirectError", "RequestTimeoutError",
    "Response", "UnexpectedResponseError", "UnsupportedMediaTypeError", "UploadProgress", "ValidationError", "WebhookVerificationError",
    "__version__", "is_terminal", "types", "webhooks",
]
