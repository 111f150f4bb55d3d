"""A real Rapport service for the integration tests, started once per test process as the
TypeScript SDK's tests start theirs (scripts/test-service.ts runs ``start`` of
packages/client/test/real-service.ts with the repository's Node), and closed when the process
ends. It needs the repository's ``npm install``; without it the tests fail and say so."""
from __future__ import annotations

import atexit
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import NamedTuple, Optional

ROOT = Path(__file__).resolve().parents[3]
NODE = ROOT / "node_modules" / ".bin" / "node"


class Service(NamedTuple):
    url: str
    api_key: str
    signing_secret: str
    #: A 24 s two-voice conversation (16 kHz mono WAV), the one the TypeScript tests upload.
    wav: Path


_service: Optional[Service] = None
_process: Optional["subprocess.Popen[str]"] = None


def _stop() -> None:
    if _process is not None and _process.poll() is None:
        assert _process.stdin is not None
        _process.stdin.close()
        try:
            _process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            _process.kill()


def service() -> Service:
    """The running service (started on first use, with webhooks allowed to this machine)."""
    global _service, _process
    if _service is not None:
        return _service
    if not NODE.exists():
        raise RuntimeError(f"{NODE} is missing: run `npm install` at {ROOT} (the integration tests start the real service)")
    wav = Path(tempfile.mkdtemp(prefix="rapport-py-")) / "conversation.wav"
    _process = subprocess.Popen(
        [str(NODE), str(ROOT / "scripts" / "test-service.ts"), "--wav", str(wav), "--env", "WEBHOOK_ALLOW_PRIVATE=true"],
        cwd=str(ROOT), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, "LOG_LEVEL": "silent"})
    atexit.register(_stop)
    assert _process.stdout is not None
    line = _process.stdout.readline()
    if not line:
        raise RuntimeError(f"the service did not start (exit {_process.wait()}): see its output above")
    info = json.loads(line)
    _service = Service(info["url"], info["apiKey"], info["signingSecret"], wav)
    return _service
