"""``Rapport(api_key=None, base_url=None, ...)``: every resource on one object."""
from __future__ import annotations

import math
import os
from typing import Mapping, Optional
from urllib.parse import urlsplit

from ._http import HttpClient
from .resources.account import Credits, Feedback, Webhooks, Workspace
from .resources.entities import Entities
from .resources.files import Files
from .resources.jobs import Events, Jobs
from .resources.results import Matching, Reports

DEFAULT_BASE_URL = "http://127.0.0.1:8080"


class Rapport:
    """The Rapport API. ``api_key`` defaults to ``RAPPORT_API_KEY``, ``base_url`` to
    ``RAPPORT_BASE_URL`` (else http://127.0.0.1:8080). ``timeout``: seconds a connection may stay
    silent in one attempt (connect, or a wait for bytes); ``max_retries``: retries after the first
    attempt; ``max_retry_after``: the longest ``Retry-After`` the client waits for by itself."""

    def __init__(self, api_key: Optional[str] = None, base_url: Optional[str] = None, *, timeout: float = 60.0,
                 max_retries: int = 2, max_retry_after: float = 60.0,
                 default_headers: Optional[Mapping[str, str]] = None) -> None:
        key = api_key if api_key is not None else os.environ.get("RAPPORT_API_KEY")
        if not key:
            raise ValueError("Rapport: no API key (pass api_key= or set RAPPORT_API_KEY)")
        url = (base_url if base_url is not None else os.environ.get("RAPPORT_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
            raise ValueError(f"Rapport: base_url must be an http(s) URL such as {DEFAULT_BASE_URL}, not {url!r}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
            raise ValueError(f"Rapport: timeout must be a positive number of seconds, not {timeout!r}")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"Rapport: max_retries must be a whole number, 0 or more, not {max_retries!r}")
        if isinstance(max_retry_after, bool) or not isinstance(max_retry_after, (int, float)) or max_retry_after < 0:
            raise ValueError(f"Rapport: max_retry_after must be a number of seconds, 0 or more, not {max_retry_after!r}")
        #: The transport, for calls the resources do not cover yet.
        self.http = HttpClient(key, url, float(timeout), max_retries, float(max_retry_after), default_headers or {})
        self.files = Files(self.http)
        self.jobs = Jobs(self.http)
        #: Every job event of the workspace, as one stream.
        self.events = Events(self.http)
        self.matching = Matching(self.http, self.jobs)
        self.reports = Reports(self.http, self.jobs)
        self.entities = Entities(self.http)
        self.credits = Credits(self.http)
        self.feedback = Feedback(self.http)
        self.webhooks = Webhooks(self.http)
        self.workspace = Workspace(self.http)

    @property
    def base_url(self) -> str:
        return self.http.base_url

    def with_options(self, *, timeout: Optional[float] = None, max_retries: Optional[int] = None,
                     max_retry_after: Optional[float] = None) -> "Rapport":
        """A client like this one with other limits, for a few calls: ``rapport.with_options(max_retries=0).files.list()``."""
        return Rapport(self.http.api_key, self.http.base_url,
                       timeout=self.http.timeout if timeout is None else timeout,
                       max_retries=self.http.max_retries if max_retries is None else max_retries,
                       max_retry_after=self.http.max_retry_after if max_retry_after is None else max_retry_after,
                       default_headers=self.http.default_headers)

    def __repr__(self) -> str:
        return f"Rapport(base_url={self.base_url!r})"
