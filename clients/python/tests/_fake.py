"""A scripted HTTP server on 127.0.0.1 for the transport's unit tests: each request is recorded
(method, path, headers, body) and answered by the next handler of the script."""
from __future__ import annotations

import json
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, NamedTuple, Optional
from unittest import mock

from rapport import _http


class Recorded(NamedTuple):
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "FakeServer"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            out = b""
            while True:
                size = int(self.rfile.readline().strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return out
                out += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _handle(self) -> None:
        rec = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, self._read_body())
        self.server.requests.append(rec)
        script = self.server.script
        action = script.pop(0) if len(script) > 1 else script[0]
        action(self, rec)

    do_GET = do_POST = do_PATCH = do_DELETE = _handle

    def reply(self, status: int, body: Any = None, headers: Optional[Dict[str, str]] = None) -> None:
        data = b"" if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if body is not None and not isinstance(body, bytes):
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


Action = Callable[[Handler, Recorded], None]


def answer(status: int, body: Any = None, headers: Optional[Dict[str, str]] = None) -> Action:
    return lambda h, _r: h.reply(status, body, headers)


def error(status: int, code: str, **extra: Any) -> Action:
    headers = extra.pop("headers", None)
    return answer(status, {"error": {"code": code, "message": f"{code} message", "requestId": "req_test", **extra}}, headers)


class FakeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *script: Action) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: List[Recorded] = []
        self.script: List[Action] = list(script) or [answer(200, {})]
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class ServedTestCase(unittest.TestCase):
    """A test against FakeServers started per test (stopped at its end), with the client's retry
    waits recorded in ``self.waits`` instead of slept."""

    def setUp(self) -> None:
        self.waits: List[float] = []
        patcher = mock.patch.object(_http, "_sleep", self.waits.append)
        patcher.start()
        self.addCleanup(patcher.stop)

    def serve(self, *script: Action) -> FakeServer:
        server = FakeServer(*script)
        self.addCleanup(server.stop)
        return server
