"""``/v1/matching`` and ``/v1/reports``: create a job, read its result by id or by job, its
evidence and its standalone HTML file, and ``create_and_wait``."""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, cast

from .. import _validate as v
from .._endpoints import accept_for, path_for
from .._http import HttpClient
from ..types import Evidence, Job, JobReceipt, MatchingPayload, Member, ReportPayload, WebhookSpec
from .jobs import Jobs


def _job_body(where: str, target: Member, label: Optional[str], webhook: Optional[WebhookSpec],
              idempotency_key: Optional[str]) -> Dict[str, Any]:
    v.member(where, "target", target)
    v.optional_str(where, "label", label)
    if webhook is not None and (not isinstance(webhook, dict) or not isinstance(webhook.get("url"), str)):
        raise ValueError(f"{where}: webhook must be a dict with a url, such as {{'url': 'https://example.com/hook'}}")
    body: Dict[str, Any] = {"target": target}
    if label is not None:
        body["label"] = label
    if webhook is not None:
        body["webhook"] = webhook
    if idempotency_key is not None:
        # The body's key and the header must agree (decisions section 5): both carry this one.
        body["idempotencyKey"] = v.require_id(where, "idempotency_key", idempotency_key)
    return body


class Matching:
    def __init__(self, http: HttpClient, jobs: Jobs) -> None:
        self._http = http
        self._jobs = jobs

    def create(self, *, target: Member, group: Sequence[Member], label: Optional[str] = None,
               webhook: Optional[WebhookSpec] = None, idempotency_key: Optional[str] = None) -> JobReceipt:
        """Starts a matching job (202): ``target`` compared with each of 1 to 20 ``group`` members, in order.
        The client's idempotency key (or yours) makes a retried call answer the same job."""
        where = "matching.create"
        body = _job_body(where, target, label, webhook, idempotency_key)
        body["group"] = list(v.members(where, "group", group, 1, 20))
        body["context"] = "behavioral_compatibility"
        method, path = path_for(where)
        return cast(JobReceipt, self._http.request_json(method, path, json_body=body, idempotency_key=idempotency_key))

    def create_and_wait(self, *, target: Member, group: Sequence[Member], label: Optional[str] = None,
                        webhook: Optional[WebhookSpec] = None, idempotency_key: Optional[str] = None,
                        timeout: Optional[float] = None, on_update: Optional[Callable[[Job], None]] = None,
                        poll_interval: float = 2.0) -> MatchingPayload:
        """Creates the job, waits for it (stream, else polling) and answers the result; ``JobFailedError``
        when it fails, ``APITimeoutError`` past ``timeout`` seconds."""
        receipt = self.create(target=target, group=group, label=label, webhook=webhook, idempotency_key=idempotency_key)
        job = self._jobs.wait(receipt["jobId"], timeout=timeout, on_update=on_update, poll_interval=poll_interval)
        result_id = job.get("resultId")
        if result_id:
            return self.retrieve(result_id)
        payload = self.by_job(receipt["jobId"])
        if payload is None:
            raise RuntimeError(f"job {receipt['jobId']} succeeded without a result")
        return payload

    def retrieve(self, id: str) -> MatchingPayload:
        method, path = path_for("matching.retrieve", id=v.require_id("matching.retrieve", "id", id))
        return cast(MatchingPayload, self._http.request_json(method, path))

    def by_job(self, job_id: str) -> Optional[MatchingPayload]:
        """The result once the job succeeded; None while it runs or when it failed."""
        method, path = path_for("matching.by_job", job_id=v.require_id("matching.by_job", "job_id", job_id))
        return cast(Optional[MatchingPayload], self._http.request_json(method, path))

    def evidence(self, id: str) -> Evidence:
        """The measurements behind the document: every figure it quotes is found here."""
        method, path = path_for("matching.evidence", id=v.require_id("matching.evidence", "id", id))
        return cast(Evidence, self._http.request_json(method, path))

    def html(self, id: str) -> str:
        """The result as one standalone HTML file (inline CSS and SVG figures, no script)."""
        method, path = path_for("matching.html", id=v.require_id("matching.html", "id", id))
        return self._http.send(method, path, headers={"Accept": accept_for("matching.html")}).read().decode("utf-8")


class Reports:
    def __init__(self, http: HttpClient, jobs: Jobs) -> None:
        self._http = http
        self._jobs = jobs

    def create(self, *, target: Member, label: Optional[str] = None, webhook: Optional[WebhookSpec] = None,
               idempotency_key: Optional[str] = None) -> JobReceipt:
        """Starts a behavioral profile job of one target (202)."""
        where = "reports.create"
        body = _job_body(where, target, label, webhook, idempotency_key)
        body["context"] = "behavioral_profile"
        method, path = path_for(where)
        return cast(JobReceipt, self._http.request_json(method, path, json_body=body, idempotency_key=idempotency_key))

    def create_and_wait(self, *, target: Member, label: Optional[str] = None, webhook: Optional[WebhookSpec] = None,
                        idempotency_key: Optional[str] = None, timeout: Optional[float] = None,
                        on_update: Optional[Callable[[Job], None]] = None, poll_interval: float = 2.0) -> ReportPayload:
        receipt = self.create(target=target, label=label, webhook=webhook, idempotency_key=idempotency_key)
        job = self._jobs.wait(receipt["jobId"], timeout=timeout, on_update=on_update, poll_interval=poll_interval)
        result_id = job.get("resultId")
        if result_id:
            return self.retrieve(result_id)
        payload = self.by_job(receipt["jobId"])
        if payload is None:
            raise RuntimeError(f"job {receipt['jobId']} succeeded without a result")
        return payload

    def retrieve(self, id: str) -> ReportPayload:
        method, path = path_for("reports.retrieve", id=v.require_id("reports.retrieve", "id", id))
        return cast(ReportPayload, self._http.request_json(method, path))

    def by_job(self, job_id: str) -> Optional[ReportPayload]:
        method, path = path_for("reports.by_job", job_id=v.require_id("reports.by_job", "job_id", job_id))
        return cast(Optional[ReportPayload], self._http.request_json(method, path))

    def evidence(self, id: str) -> Evidence:
        """The measurements behind the report (its figures are drawn from them), as for matching."""
        method, path = path_for("reports.evidence", id=v.require_id("reports.evidence", "id", id))
        return cast(Evidence, self._http.request_json(method, path))

    def html(self, id: str) -> str:
        method, path = path_for("reports.html", id=v.require_id("reports.html", "id", id))
        return self._http.send(method, path, headers={"Accept": accept_for("reports.html")}).read().decode("utf-8")
