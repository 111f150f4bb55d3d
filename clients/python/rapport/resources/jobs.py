"""``/v1/jobs``: retrieve, list, cancel, the progress stream (``events``), and ``wait``, which
follows the stream and falls back to polling when streaming is not possible (a proxy that buffers);
``/v1/events``: every job event of the workspace as one stream."""
from __future__ import annotations

import json
import time
from typing import Callable, Iterator, Optional, cast

from .. import _http as _transport
from .. import _validate as v
from .._endpoints import path_for
from .._errors import APIConnectionError, APITimeoutError, JobFailedError
from .._http import HttpClient
from .._pagination import Paginator
from .._sse import ServerSentEvent, reconnecting_stream
from ..types import Job, JobEvent

_JOB_EVENTS = ("job.updated", "job.succeeded", "job.failed")
_TERMINAL = ("succeeded", "failed")


def is_terminal(job: Job) -> bool:
    return job["status"] in _TERMINAL


def job_event(sse: ServerSentEvent) -> Optional[JobEvent]:
    if sse.event not in _JOB_EVENTS:
        return None  # an event name added later: skipped
    return cast(JobEvent, {"id": sse.id, "event": sse.event, "job": json.loads(sse.data)})


class Jobs:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def retrieve(self, id: str) -> Job:
        method, path = path_for("jobs.retrieve", id=v.require_id("jobs.retrieve", "id", id))
        return cast(Job, self._http.request_json(method, path))

    def list(self, *, status: Optional[str] = None, type: Optional[str] = None, limit: Optional[int] = None,
             cursor: Optional[str] = None) -> Paginator[Job]:
        where = "jobs.list"
        v.one_of(where, "status", status, _TERMINAL + ("queued", "running"))
        v.one_of(where, "type", type, ("matching", "report"))
        v.list_params(where, limit, cursor)
        method, path = path_for(where)
        return Paginator(lambda c: self._http.request_json(
            method, path, query={"status": status, "type": type, "limit": limit, "cursor": c}), cursor)

    def cancel(self, id: str, *, idempotency_key: Optional[str] = None) -> Job:
        """A queued or running job ends ``failed`` with code ``canceled``; a finished one raises ConflictError (409)."""
        method, path = path_for("jobs.cancel", id=v.require_id("jobs.cancel", "id", id))
        return cast(Job, self._http.request_json(method, path, idempotency_key=idempotency_key))

    def events(self, id: str, *, last_event_id: Optional[str] = None, max_reconnects: int = 5, idle_timeout: float = 45.0,
               deadline: Optional[float] = None) -> Iterator[JobEvent]:
        """The job's events until its terminal one, resuming with ``Last-Event-ID`` across cuts."""
        _, path = path_for("jobs.events", id=v.require_id("jobs.events", "id", id))
        done = False
        for sse in reconnecting_stream(self._http, path, last_event_id=last_event_id, max_reconnects=max_reconnects,
                                       idle_timeout=idle_timeout, deadline=deadline, is_last=lambda _e: done):
            event = job_event(sse)
            if event is None:
                continue
            done = event["event"] != "job.updated" or is_terminal(event["job"])
            yield event

    def wait(self, id: str, *, timeout: Optional[float] = None, on_update: Optional[Callable[[Job], None]] = None,
             poll_interval: float = 2.0, idle_timeout: float = 45.0) -> Job:
        """Answers the job once it succeeds; raises ``JobFailedError`` when it fails and
        ``APITimeoutError`` after ``timeout`` seconds. Follows the event stream, and polls
        ``GET /v1/jobs/{id}`` if the stream cannot be kept open."""
        where = "jobs.wait"
        v.require_id(where, "id", id)
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
            raise ValueError(f"{where}: timeout must be a positive number of seconds, not {timeout!r}")
        if isinstance(poll_interval, bool) or not isinstance(poll_interval, (int, float)) or poll_interval <= 0:
            raise ValueError(f"{where}: poll_interval must be a positive number of seconds, not {poll_interval!r}")
        deadline = None if timeout is None else time.monotonic() + timeout

        def done(job: Job) -> Job:
            if job["status"] == "failed":
                raise JobFailedError(id, job.get("error"), job)
            return job

        last: Optional[Job] = None
        try:
            for event in self.events(id, idle_timeout=idle_timeout, deadline=deadline):
                last = event["job"]
                if on_update is not None:
                    on_update(last)
                if is_terminal(last):
                    return done(last)
        except APITimeoutError:
            raise APITimeoutError(f"timed out after {timeout:g} s waiting for job {id}") from None
        except APIConnectionError:
            pass  # only a stream that cannot be kept open falls back; API errors (404, 401) are answers
        while True:
            if deadline is not None and time.monotonic() >= deadline:
                raise APITimeoutError(f"timed out after {timeout:g} s waiting for job {id}")
            job = self.retrieve(id)
            changed = last is None or any(job.get(k) != last.get(k) for k in ("status", "progress", "stage"))
            if changed and on_update is not None:
                on_update(job)
            last = job
            if is_terminal(job):
                return done(job)
            pause = poll_interval if deadline is None else min(poll_interval, max(0.0, deadline - time.monotonic()))
            _transport._sleep(pause)


class Events:
    """``GET /v1/events``: every job event of the workspace, for dashboards and workers following many jobs."""

    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def stream(self, *, last_event_id: Optional[str] = None, max_reconnects: int = 5,
               idle_timeout: float = 45.0) -> Iterator[JobEvent]:
        """Events from now on (or after ``last_event_id``); it has no end: break out of the loop."""
        _, path = path_for("events.stream")
        for sse in reconnecting_stream(self._http, path, last_event_id=last_event_id, max_reconnects=max_reconnects,
                                       idle_timeout=idle_timeout):
            event = job_event(sse)
            if event is not None:
                yield event
