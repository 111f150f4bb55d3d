"""The shapes of credits, feedback, webhook deliveries and events, and the workspace (re-exported
by ``rapport.types``, where the drift test reads them)."""
from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict

Id = str
#: ISO 8601 UTC with milliseconds.
Timestamp = str

# ---- credits, feedback ----


class CreditBalance(TypedDict):
    balance: int
    reserved: int
    available: int
    updatedAt: Timestamp


class _CreditTransactionRequired(TypedDict):
    id: Id
    kind: Literal["grant", "reserve", "charge", "release"]
    amount: int
    balanceAfter: int
    createdAt: Timestamp


class CreditTransaction(_CreditTransactionRequired, total=False):
    jobId: Id
    mediaId: Id


class _FeedbackRequired(TypedDict):
    id: Id
    resultId: Id
    rating: int
    createdAt: Timestamp


class Feedback(_FeedbackRequired, total=False):
    comment: str


# ---- webhook deliveries ----


class DeliveryAttempt(TypedDict):
    attempt: int
    at: Timestamp
    statusCode: Optional[int]
    durationMs: Optional[int]
    error: Optional[str]
    outcome: Literal["succeeded", "failed", "refused", "gone", "in_flight", "interrupted"]


class _WebhookDeliveryRequired(TypedDict):
    id: Id
    eventId: Id
    eventType: str
    jobId: Id
    url: str
    status: Literal["pending", "succeeded", "failed"]
    attemptCount: int
    nextAttemptAt: Optional[Timestamp]
    lastStatusCode: Optional[int]
    lastError: Optional[str]
    createdAt: Timestamp
    updatedAt: Timestamp


class WebhookDelivery(_WebhookDeliveryRequired, total=False):
    attempts: List[DeliveryAttempt]


# ---- workspace ----


class WorkspaceQuotaFigures(TypedDict):
    apiKeys: int
    mediaBytes: int


class Workspace(TypedDict):
    id: Id
    name: str
    createdAt: Timestamp
    updatedAt: Timestamp
    quotas: WorkspaceQuotaFigures
    usage: WorkspaceQuotaFigures


class ApiKey(TypedDict):
    id: Id
    scope: Literal["admin", "standard"]
    name: Optional[str]
    hint: str
    createdAt: Timestamp
    revokedAt: Optional[Timestamp]


class CreatedApiKey(ApiKey):
    """The answer to creating a key: the only time the key itself (``apiKey``) is shown."""

    apiKey: str


class SigningSecret(TypedDict):
    signingSecret: str
    previousSigningSecret: Optional[str]
    previousExpiresAt: Optional[Timestamp]


# ---- webhook events ----


class WebhookEvent(TypedDict):
    """The envelope every webhook event shares; ``type`` says what ``data`` holds."""

    id: Id
    type: str
    createdAt: Timestamp
    timestamp: Timestamp
    data: Dict[str, Any]
