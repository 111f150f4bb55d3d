"""Credits, feedback, the webhook delivery log, and the workspace (keys and signing secret; admin keys only)."""
from __future__ import annotations

from typing import Any, Dict, Literal, Optional, cast

from .. import _validate as v
from .._endpoints import path_for
from .._http import HttpClient
from .._pagination import Paginator
from ..types import ApiKey, CreatedApiKey, CreditBalance, CreditTransaction, Feedback as FeedbackItem
from ..types import SigningSecret, WebhookDelivery, Workspace as WorkspaceInfo


class Credits:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def balance(self) -> CreditBalance:
        method, path = path_for("credits.balance")
        return cast(CreditBalance, self._http.request_json(method, path))

    def transactions(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Paginator[CreditTransaction]:
        """The ledger, newest first: grants, reservations, charges, releases."""
        v.list_params("credits.transactions", limit, cursor)
        method, path = path_for("credits.transactions")
        return Paginator(lambda c: self._http.request_json(method, path, query={"limit": limit, "cursor": c}), cursor)


class Feedback:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def create(self, *, result_id: str, rating: int, comment: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> FeedbackItem:
        """Rates a result (a matching or report id) from 1 to 5."""
        where = "feedback.create"
        body: Dict[str, Any] = {"resultId": v.require_id(where, "result_id", result_id),
                                "rating": v.optional_int(where, "rating", rating, 1, 5)}
        if rating is None:
            raise ValueError(f"{where}: rating is required (1 to 5)")
        if v.optional_str(where, "comment", comment) is not None:
            body["comment"] = comment
        method, path = path_for(where)
        return cast(FeedbackItem, self._http.request_json(method, path, json_body=body, idempotency_key=idempotency_key))

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Paginator[FeedbackItem]:
        v.list_params("feedback.list", limit, cursor)
        method, path = path_for("feedback.list")
        return Paginator(lambda c: self._http.request_json(method, path, query={"limit": limit, "cursor": c}), cursor)


class WebhookDeliveries:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def list(self, *, job_id: Optional[str] = None, status: Optional[Literal["pending", "succeeded", "failed"]] = None,
             limit: Optional[int] = None, cursor: Optional[str] = None) -> Paginator[WebhookDelivery]:
        where = "webhooks.deliveries.list"
        if job_id is not None:
            v.require_id(where, "job_id", job_id)
        v.one_of(where, "status", status, ("pending", "succeeded", "failed"))
        v.list_params(where, limit, cursor)
        method, path = path_for(where)
        return Paginator(lambda c: self._http.request_json(
            method, path, query={"jobId": job_id, "status": status, "limit": limit, "cursor": c}), cursor)

    def retrieve(self, id: str) -> WebhookDelivery:
        """The delivery with every attempt (time, status code, duration, error)."""
        where = "webhooks.deliveries.retrieve"
        method, path = path_for(where, id=v.require_id(where, "id", id))
        return cast(WebhookDelivery, self._http.request_json(method, path))

    def redeliver(self, id: str, *, idempotency_key: Optional[str] = None) -> WebhookDelivery:
        where = "webhooks.deliveries.redeliver"
        method, path = path_for(where, id=v.require_id(where, "id", id))
        return cast(WebhookDelivery, self._http.request_json(method, path, idempotency_key=idempotency_key))


class Webhooks:
    """``client.webhooks.deliveries``; the signature helpers are module functions: ``rapport.webhooks.verify``."""

    def __init__(self, http: HttpClient) -> None:
        self.deliveries = WebhookDeliveries(http)


class WorkspaceKeys:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None) -> Paginator[ApiKey]:
        v.list_params("workspace.keys.list", limit, cursor)
        method, path = path_for("workspace.keys.list")
        return Paginator(lambda c: self._http.request_json(method, path, query={"limit": limit, "cursor": c}), cursor)

    def create(self, *, scope: Optional[Literal["admin", "standard"]] = None, name: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> CreatedApiKey:
        """A new key; the answer holds the key itself (``apiKey``), shown this once."""
        where = "workspace.keys.create"
        v.one_of(where, "scope", scope, ("admin", "standard"))
        v.optional_str(where, "name", name)
        body = {k: val for k, val in (("scope", scope), ("name", name)) if val is not None}
        method, path = path_for(where)
        return cast(CreatedApiKey, self._http.request_json(method, path, json_body=body, idempotency_key=idempotency_key))

    def revoke(self, key_id: str) -> None:
        where = "workspace.keys.revoke"
        method, path = path_for(where, key_id=v.require_id(where, "key_id", key_id))
        self._http.request_json(method, path)


class Workspace:
    def __init__(self, http: HttpClient) -> None:
        self._http = http
        self.keys = WorkspaceKeys(http)

    def retrieve(self) -> WorkspaceInfo:
        """The workspace with its quotas and what it holds now."""
        method, path = path_for("workspace.retrieve")
        return cast(WorkspaceInfo, self._http.request_json(method, path))

    def signing_secret(self) -> SigningSecret:
        method, path = path_for("workspace.signing_secret")
        return cast(SigningSecret, self._http.request_json(method, path))

    def rotate_signing_secret(self, *, idempotency_key: Optional[str] = None) -> SigningSecret:
        """A new secret; the old one keeps signing too for 24 h (deliveries carry both)."""
        method, path = path_for("workspace.rotate_signing_secret")
        return cast(SigningSecret, self._http.request_json(method, path, idempotency_key=idempotency_key))
