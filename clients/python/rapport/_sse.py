"""Server-sent events: a parser of the ``text/event-stream`` framing (``id:``, ``event:``,
``data:``, ``retry:``, comments) and a stream that survives its connection. When the body ends
early, breaks, or stays silent past the idle limit (the service pings every 15 s), it is opened
again after the service's ``retry:`` advice with ``Last-Event-ID``, so that no event is lost or
repeated. HTTP errors (401, 404, 410) are answers, not cuts: they are raised. So is a 2xx that is
no event stream (its media type is not ``text/event-stream``): the page of a proxy or of another
service, which reconnecting would only fetch again (``UnexpectedResponseError``).
"""
from __future__ import annotations

import http.client
import re
import time
from typing import Callable, Iterator, NamedTuple, Optional

from ._errors import APIConnectionError, APIError, APITimeoutError, UnexpectedResponseError
from . import _http as _transport
from ._http import HttpClient, Response, backoff_seconds

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
EVENT_STREAM = "text/event-stream"


class ServerSentEvent(NamedTuple):
    id: Optional[str]
    event: str
    data: str


class SseState:
    def __init__(self, last_event_id: Optional[str]) -> None:
        #: The last ``id:`` seen, sent back as ``Last-Event-ID`` when reconnecting.
        self.last_event_id = last_event_id
        #: The service's ``retry:`` advice in seconds.
        self.retry: Optional[float] = None


def parse_lines(lines: Iterator[str], state: SseState) -> Iterator[ServerSentEvent]:
    """Events from the stream's lines (without their line breaks); updates ``state`` as it goes."""
    data: list[str] = []
    event = ""
    event_id: Optional[str] = None
    for line in lines:
        if line == "":
            if data:
                if event_id is not None:
                    state.last_event_id = event_id
                yield ServerSentEvent(state.last_event_id, event or "message", "\n".join(data))
            data, event, event_id = [], "", None
            continue
        if line.startswith(":"):
            continue
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            event = value
        elif field == "id" and "\0" not in value:
            event_id = value
        elif field == "retry" and value.isdigit():
            state.retry = int(value) / 1000


def _lines(res: Response, read_timeout: Callable[[], float]) -> Iterator[str]:
    while True:
        res.set_read_timeout(read_timeout())
        raw = res.readline()
        if not raw:
            return
        text = raw.decode("utf-8", "replace")
        parts = _LINE_BREAK.split(text)
        # A line ends in its break; what follows the last break is empty.
        yield from parts[:-1] if parts[-1] == "" else parts


def require_event_stream(client: HttpClient, path: str, res: Response) -> None:
    """Raises ``UnexpectedResponseError`` when the answer is no event stream (its body is left unread)."""
    media_type = (res.headers.get("content-type") or "").split(";")[0].strip().lower()
    if media_type != EVENT_STREAM:
        raise UnexpectedResponseError(
            f"GET {path} answered {res.status} with {media_type or 'no Content-Type'}, not {EVENT_STREAM}: "
            f"is {client.base_url} the Rapport API, and does no proxy on the way answer for it?",
            res.status, res.headers)


def reconnecting_stream(client: HttpClient, path: str, *, last_event_id: Optional[str] = None, max_reconnects: int = 5,
                        idle_timeout: float = 45.0, deadline: Optional[float] = None,
                        is_last: Callable[[ServerSentEvent], bool] = lambda _e: False) -> Iterator[ServerSentEvent]:
    """Yields events until ``is_last`` says one was the last; the body's end alone is never the end.

    ``deadline`` (a ``time.monotonic()`` value) bounds the whole stream: past it, ``APITimeoutError``.
    """
    state = SseState(last_event_id)
    failures = 0

    def read_timeout() -> float:
        if deadline is None:
            return idle_timeout
        left = deadline - time.monotonic()
        if left <= 0:
            raise APITimeoutError("the wait ran past its timeout")
        return min(idle_timeout, left)

    while True:
        headers = {"Accept": EVENT_STREAM}
        if state.last_event_id is not None:
            headers["Last-Event-ID"] = state.last_event_id
        res: Optional[Response] = None
        try:
            res = client.send("GET", path, headers=headers, raw=True, timeout=read_timeout())
            require_event_stream(client, path, res)
            for sse in parse_lines(_lines(res, read_timeout), state):
                failures = 0
                yield sse
                if is_last(sse):
                    return
        except APIError:
            raise
        except APITimeoutError:
            # Past the deadline: the wait is over. Otherwise a connection silent past the idle limit.
            if deadline is not None and time.monotonic() >= deadline:
                raise
        except APIConnectionError:
            pass
        except (OSError, http.client.HTTPException):
            # Cut, reset, or silent past the idle limit: reconnect.
            if deadline is not None and time.monotonic() >= deadline:
                raise APITimeoutError("the wait ran past its timeout") from None
        finally:
            if res is not None:
                res.close()
        failures += 1
        if failures > max_reconnects:
            raise APIConnectionError(f"event stream {path} kept failing ({max_reconnects} reconnections)")
        _transport._sleep(max(state.retry or 0.0, backoff_seconds(failures - 2) if failures > 1 else 0.0))

