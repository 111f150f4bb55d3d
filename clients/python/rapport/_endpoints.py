"""Every HTTP route the client calls, in one table, keyed by the client method that calls it.

Resources build their requests from it, and the drift test (tests/test_drift.py) compares it with
the service's OpenAPI document both ways: an operation of the service with no entry here, an entry
the service does not have, an entry with no method on ``Rapport``, or a response type whose fields
differ from the document fails the tests.
"""
from __future__ import annotations

from typing import Dict, NamedTuple, Optional, Tuple
from urllib.parse import quote


class Endpoint(NamedTuple):
    method: str
    #: OpenAPI-style template: ``{name}`` for each path parameter.
    path: str
    #: The success status the route answers.
    status: int
    #: The response's TypedDict in ``rapport.types``; ``List:X`` for a page of X; None: not JSON.
    response: Optional[str]
    #: A body the client answers as a string, not JSON: its media type, sent as Accept.
    text: Optional[str] = None


ENDPOINTS: Dict[str, Endpoint] = {
    # 201 for new media; the same shape answers 200 for bytes the workspace already has.
    "files.upload": Endpoint("POST", "/v1/files", 201, "UploadedMedia"),
    "files.list": Endpoint("GET", "/v1/files", 200, "List:Media"),
    "files.retrieve": Endpoint("GET", "/v1/files/{id}", 200, "Media"),
    "files.delete": Endpoint("DELETE", "/v1/files/{id}", 204, None),
    "files.diarization": Endpoint("GET", "/v1/files/{id}/diarization", 200, "Diarization"),
    "files.reanalyze": Endpoint("POST", "/v1/files/{id}/reanalyze", 202, "Media"),
    "files.metrics": Endpoint("GET", "/v1/files/{id}/metrics", 200, "MediaMetrics"),
    "files.content": Endpoint("GET", "/v1/files/{id}/content", 200, None),
    "files.create_content_link": Endpoint("POST", "/v1/files/{id}/content-links", 201, "ContentLink"),
    "files.events": Endpoint("GET", "/v1/files/{id}/events", 200, None),
    "files.stream": Endpoint("GET", "/v1/files/events", 200, None),
    "matching.create": Endpoint("POST", "/v1/matching/jobs", 202, "JobReceipt"),
    "matching.retrieve": Endpoint("GET", "/v1/matching/{id}", 200, "MatchingPayload"),
    "matching.by_job": Endpoint("GET", "/v1/matching/by-job/{job_id}", 200, "MatchingPayload"),
    "matching.evidence": Endpoint("GET", "/v1/matching/{id}/evidence", 200, "Evidence"),
    "matching.html": Endpoint("GET", "/v1/matching/{id}/html", 200, None, "text/html"),
    "reports.create": Endpoint("POST", "/v1/reports/jobs", 202, "JobReceipt"),
    "reports.retrieve": Endpoint("GET", "/v1/reports/{id}", 200, "ReportPayload"),
    "reports.by_job": Endpoint("GET", "/v1/reports/by-job/{job_id}", 200, "ReportPayload"),
    "reports.evidence": Endpoint("GET", "/v1/reports/{id}/evidence", 200, "Evidence"),
    "reports.html": Endpoint("GET", "/v1/reports/{id}/html", 200, None, "text/html"),
    "jobs.list": Endpoint("GET", "/v1/jobs", 200, "List:Job"),
    "jobs.retrieve": Endpoint("GET", "/v1/jobs/{id}", 200, "Job"),
    "jobs.cancel": Endpoint("POST", "/v1/jobs/{id}/cancel", 200, "Job"),
    "jobs.events": Endpoint("GET", "/v1/jobs/{id}/events", 200, None),
    "events.stream": Endpoint("GET", "/v1/events", 200, None),
    "entities.list": Endpoint("GET", "/v1/entities", 200, "List:Entity"),
    "entities.retrieve": Endpoint("GET", "/v1/entities/{id}", 200, "Entity"),
    "entities.metrics": Endpoint("GET", "/v1/entities/{id}/metrics", 200, "EntityMetrics"),
    "entities.update": Endpoint("PATCH", "/v1/entities/{id}", 200, "Entity"),
    "entities.tag": Endpoint("POST", "/v1/entities/{id}/tags", 200, "Entity"),
    "entities.untag": Endpoint("DELETE", "/v1/entities/{id}/tags/{tag}", 200, "Entity"),
    "entities.merge": Endpoint("POST", "/v1/entities/merge", 200, "Entity"),
    "credits.balance": Endpoint("GET", "/v1/credits", 200, "CreditBalance"),
    "credits.transactions": Endpoint("GET", "/v1/credits/transactions", 200, "List:CreditTransaction"),
    "feedback.create": Endpoint("POST", "/v1/feedback", 201, "Feedback"),
    "feedback.list": Endpoint("GET", "/v1/feedback", 200, "List:Feedback"),
    "webhooks.deliveries.list": Endpoint("GET", "/v1/webhooks/deliveries", 200, "List:WebhookDelivery"),
    "webhooks.deliveries.retrieve": Endpoint("GET", "/v1/webhooks/deliveries/{id}", 200, "WebhookDelivery"),
    "webhooks.deliveries.redeliver": Endpoint("POST", "/v1/webhooks/deliveries/{id}/redeliver", 202, "WebhookDelivery"),
    "workspace.retrieve": Endpoint("GET", "/v1/workspace", 200, "Workspace"),
    "workspace.keys.list": Endpoint("GET", "/v1/workspace/keys", 200, "List:ApiKey"),
    "workspace.keys.create": Endpoint("POST", "/v1/workspace/keys", 201, "CreatedApiKey"),
    "workspace.keys.revoke": Endpoint("DELETE", "/v1/workspace/keys/{key_id}", 204, None),
    "workspace.signing_secret": Endpoint("GET", "/v1/workspace/signing-secret", 200, "SigningSecret"),
    "workspace.rotate_signing_secret": Endpoint("POST", "/v1/workspace/signing-secret/rotate", 200, "SigningSecret"),
}


def accept_for(name: str) -> str:
    """The media type of a route whose body the client reads as text (its Accept)."""
    text = ENDPOINTS[name].text
    if text is None:
        raise KeyError(f"{name}: not a text route")
    return text


def path_for(name: str, **params: str) -> Tuple[str, str]:
    """The method and path of ``name``, each ``{param}`` filled and URL-encoded (ids are opaque, tags free text)."""
    endpoint = ENDPOINTS[name]
    path = endpoint.path
    for key, value in params.items():
        placeholder = "{" + key + "}"
        if placeholder not in path:
            raise KeyError(f"{name}: no path parameter {key}")
        path = path.replace(placeholder, quote(value, safe=""))
    if "{" in path:
        raise KeyError(f"{name}: missing path parameter in {path}")
    return endpoint.method, path
