"""The one place that talks HTTP: URL and headers, JSON in and out, per-attempt timeouts,
idempotency keys on POSTs, retries with capped exponential back-off and jitter, and redirects.

Redirects are followed only within the base URL's origin (scheme, host and port), at most five
hops; a redirect anywhere else raises ``RedirectError`` before anything is sent there, so the API
key never leaves for another origin.
"""
from __future__ import annotations

import http.client
import json
import random
import socket
import time
import uuid
from typing import Any, Dict, Iterable, Iterator, Mapping, Optional, Protocol, Tuple, Union
from urllib.parse import urlencode, urljoin, urlsplit

from ._errors import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    RapportError,
    RateLimitError,
    RedirectError,
    UnexpectedResponseError,
    excerpt_of,
    make_api_error,
    retry_after_seconds,
)

VERSION = "0.1.0"
USER_AGENT = f"rapport-python/{VERSION}"
MAX_REDIRECTS = 5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_RETRYABLE_METHODS = frozenset({"GET", "DELETE"})

QueryValue = Union[str, int, float, bool, None]


class BodySource(Protocol):
    """A request body the client can build again for each attempt (uploads re-open their file)."""

    @property
    def replayable(self) -> bool: ...

    def open(self) -> Tuple[Dict[str, str], Iterable[bytes]]: ...


def _sleep(seconds: float) -> None:
    """Every wait of the client goes through here (tests replace it to record the waits)."""
    time.sleep(seconds)


def new_idempotency_key() -> str:
    return f"rapport-{uuid.uuid4()}"


def backoff_seconds(retry_index: int) -> float:
    """Exponential from 0.5 s, capped at 8 s, minus up to 25 % jitter so that clients spread out."""
    base: float = min(0.5 * 2 ** retry_index, 8.0)
    return base * (1 - random.random() * 0.25)


def origin_of(url: str) -> Tuple[str, str, int]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return scheme, (parts.hostname or "").lower(), port


class Response:
    """A successful answer. Buffered (``body``) unless the request asked for a stream (``raw``)."""

    def __init__(self, status: int, headers: Dict[str, str], body: Optional[bytes],
                 raw: Optional[http.client.HTTPResponse] = None, sock: Optional[socket.socket] = None,
                 conn: Optional[http.client.HTTPConnection] = None) -> None:
        self.status = status
        #: Lower-cased names.
        self.headers = headers
        self._body = body
        self._raw = raw
        self._sock = sock
        self._conn = conn

    def read(self) -> bytes:
        if self._body is None:
            assert self._raw is not None
            try:
                self._body = self._raw.read()
            finally:
                self.close()
        return self._body

    def readline(self) -> bytes:
        """One line of a streamed body (b"" at its end)."""
        if self._raw is None:
            raise RapportError("readline() needs a streamed response")
        return self._raw.readline()

    def iter_bytes(self, chunk_size: int = 256 * 1024) -> Iterator[bytes]:
        """The body in chunks as it arrives, then the connection is closed."""
        if self._raw is None:
            if self._body:
                yield self._body
            return
        try:
            while True:
                chunk = self._raw.read(chunk_size)
                if not chunk:
                    return
                yield chunk
        finally:
            self.close()

    def set_read_timeout(self, seconds: float) -> None:
        if self._sock is not None:
            self._sock.settimeout(max(seconds, 0.001))

    def close(self) -> None:
        if self._raw is not None:
            self._raw.close()
        if self._conn is not None:
            self._conn.close()

    def __enter__(self) -> "Response":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class HttpClient:
    def __init__(self, api_key: str, base_url: str, timeout: float, max_retries: int, max_retry_after: float,
                 default_headers: Mapping[str, str]) -> None:
        self.api_key = api_key
        self.base_url = base_url
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_after = max_retry_after
        self.default_headers = dict(default_headers)
        self._origin = origin_of(base_url)

    def build_url(self, path: str, query: Optional[Mapping[str, QueryValue]] = None) -> str:
        url = self.base_url + path
        pairs = [(k, _query_text(v)) for k, v in (query or {}).items() if v is not None]
        return f"{url}?{urlencode(pairs)}" if pairs else url

    def request_json(self, method: str, path: str, **kwargs: Any) -> Any:
        """Sends and parses the JSON answer (204 and empty bodies give None)."""
        res = self.send(method, path, **kwargs)
        data = res.read()
        if res.status == 204 or not data:
            return None
        try:
            return json.loads(data)
        except ValueError as err:
            excerpt = excerpt_of(data)
            raise UnexpectedResponseError(
                f"{method} {path}: the service answered {res.status} with a body that is not JSON "
                f"({res.headers.get('content-type') or 'no Content-Type'}): {json.dumps(excerpt, ensure_ascii=False)}: "
                f"is {self.base_url} the Rapport API?",
                res.status, res.headers, excerpt) from err

    def send(self, method: str, path: str, *, query: Optional[Mapping[str, QueryValue]] = None,
             json_body: object = None, body: Optional[BodySource] = None, headers: Optional[Mapping[str, str]] = None,
             idempotency_key: Optional[str] = None, timeout: Optional[float] = None, raw: bool = False) -> Response:
        """Sends with retries and answers the successful response; non-2xx answers are raised."""
        all_headers: Dict[str, str] = {"Accept": "application/json", "User-Agent": USER_AGENT, **self.default_headers,
                                       "Service-Api-Key": self.api_key}
        # Every POST carries a key, the same on each retry, so a retry can never create a second job.
        if method == "POST":
            all_headers["Idempotency-Key"] = idempotency_key or new_idempotency_key()
        all_headers.update(headers or {})
        payload = None if json_body is None else json.dumps(json_body, separators=(",", ":")).encode("utf-8")
        max_retries = 0 if body is not None and not body.replayable else self.max_retries
        safe = method in _RETRYABLE_METHODS or method == "POST"
        url = self.build_url(path, query)
        per_attempt = timeout if timeout is not None else self.timeout
        attempt = 0
        while True:
            can_retry = attempt < max_retries
            try:
                res = self._attempt(method, url, all_headers, payload, body, per_attempt, raw)
            except RedirectError:
                raise
            except APIConnectionError:
                if not can_retry or not safe:
                    raise
                _sleep(backoff_seconds(attempt))
                attempt += 1
                continue
            if isinstance(res, Response):
                return res
            error = res
            status = error.status
            retryable = isinstance(error, RateLimitError) or (((status >= 500 and status != 507) or status == 408) and safe)
            if not can_retry or not retryable:
                raise error
            wait = backoff_seconds(attempt)
            if isinstance(error, RateLimitError) and error.retry_after is not None:
                if error.retry_after > self.max_retry_after:
                    raise error
                wait = error.retry_after + random.random() * 0.1
            elif status == 503:
                advised = retry_after_seconds(None, error.headers)
                if advised is not None and advised <= self.max_retry_after:
                    wait = advised
            _sleep(wait)
            attempt += 1

    def _attempt(self, method: str, url: str, headers: Dict[str, str], payload: Optional[bytes],
                 body: Optional[BodySource], timeout: float, raw: bool) -> Union[Response, APIError]:
        status = 0
        for _hop in range(MAX_REDIRECTS + 1):
            res, conn, sock = self._exchange(method, url, headers, payload, body, timeout)
            status = res.status
            location = res.getheader("location")
            if res.status in _REDIRECTS and location:
                _drain(res, conn)
                target = urljoin(url, location)
                if origin_of(target) != self._origin:
                    raise RedirectError(
                        f"{method} {url} answered {res.status} to {target}, another origin than {self.base_url}: "
                        "not followed, so that the API key is not sent there",
                        res.status, target)
                if res.status == 303 or (res.status in (301, 302) and method == "POST"):
                    method, payload, body = "GET", None, None
                elif body is not None and not body.replayable:
                    raise RedirectError(f"{method} {url} answered {res.status} to {target}: a one-shot body cannot be sent again",
                                        res.status, target)
                url = target
                continue
            resp_headers = {k.lower(): v for k, v in res.getheaders()}
            if 200 <= res.status < 300 and raw:
                return Response(res.status, resp_headers, None, res, sock, conn)
            try:
                data = res.read()
            except (OSError, http.client.HTTPException) as err:
                conn.close()
                raise _connection_error(err, url, timeout) from err
            conn.close()
            if 200 <= res.status < 300:
                return Response(res.status, resp_headers, data)
            return _to_error(res.status, resp_headers, data)
        raise RedirectError(f"{method} {url}: more than {MAX_REDIRECTS} redirects", status, url)

    def _exchange(self, method: str, url: str, headers: Dict[str, str], payload: Optional[bytes],
                  body: Optional[BodySource], timeout: float
                  ) -> Tuple[http.client.HTTPResponse, http.client.HTTPConnection, Optional[socket.socket]]:
        parts = urlsplit(url)
        cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        conn = cls(parts.hostname or "", parts.port, timeout=timeout)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        send_headers = dict(headers)
        content: Union[bytes, Iterable[bytes], None] = None
        if body is not None:
            extra, content = body.open()
            send_headers.update(extra)
        elif payload is not None:
            send_headers["Content-Type"] = "application/json"
            content = payload
        sock: Optional[socket.socket] = None
        try:
            try:
                conn.request(method, target, body=content, headers=send_headers)
            except (BrokenPipeError, ConnectionResetError):
                # The service may answer (413, 401) and close before the whole body is sent: read that answer.
                if conn.sock is None:
                    raise
            sock = conn.sock
            res = conn.getresponse()
        except (OSError, http.client.HTTPException) as err:
            conn.close()
            raise _connection_error(err, url, timeout) from err
        return res, conn, sock


def _connection_error(err: BaseException, url: str, timeout: float) -> APIConnectionError:
    if isinstance(err, socket.timeout):
        return APITimeoutError(f"Request timed out after {timeout:g} s ({url})")
    return APIConnectionError(f"Connection error: {err or type(err).__name__} ({url})")


def _drain(res: http.client.HTTPResponse, conn: http.client.HTTPConnection) -> None:
    try:
        res.read()
    except (OSError, http.client.HTTPException):
        pass
    conn.close()


def _to_error(status: int, headers: Dict[str, str], data: bytes) -> APIError:
    parsed: object
    try:
        parsed = json.loads(data) if data else None
    except ValueError:
        parsed = data.decode("utf-8", "replace")
    error = parsed.get("error") if isinstance(parsed, dict) else None
    return make_api_error(status, error if isinstance(error, dict) else None, headers, parsed)


def _query_text(value: QueryValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
