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
import time
from pathlib import Path
from typing import Dict, NamedTuple, Optional

import rapport
import rapport.types

ROOT = Path(__file__).resolve().parents[3]
NODE = ROOT / "node_modules" / ".bin" / "node"


class Service(NamedTuple):
    url: str
    api_key: str
    signing_secret: str
    #: A 24 s two-voice conversation (16 kHz mono WAV), the one the TypeScript tests upload.
    wav: Path


_service: Optional[Service] = None
_processes: "list[subprocess.Popen[str]]" = []


def _stop() -> None:
    for process in _processes:
        if process.poll() is None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def fresh(env: Optional[Dict[str, str]] = None) -> Service:
    """A service of its own (a fresh store; ``env``: configuration), closed when the test process ends."""
    if not NODE.exists():
        raise RuntimeError(f"{NODE} is missing: run `npm install` at {ROOT} (the integration tests start the real service)")
    wav = Path(tempfile.mkdtemp(prefix="rapport-py-")) / "conversation.wav"
    process = subprocess.Popen(
        [str(NODE), str(ROOT / "scripts" / "test-service.ts"), "--wav", str(wav), "--env", "WEBHOOK_ALLOW_PRIVATE=true",
         *[arg for k, v in (env or {}).items() for arg in ("--env", f"{k}={v}")]],
        cwd=str(ROOT), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, "LOG_LEVEL": "silent"})
    if not _processes:
        atexit.register(_stop)
    _processes.append(process)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(f"the service did not start (exit {process.wait()}): see its output above")
    info = json.loads(line)
    return Service(info["url"], info["apiKey"], info["signingSecret"], wav)


def service() -> Service:
    """The service the tests share (started on first use; webhooks may go to this machine)."""
    global _service
    if _service is None:
        _service = fresh()
    return _service


def client(s: Optional[Service] = None) -> "rapport.Rapport":
    s = s or service()
    return rapport.Rapport(api_key=s.api_key, base_url=s.url)


def two_voice_vtt(seconds: int = 24, names: "tuple[str, str]" = ("Ann", "Bob")) -> str:
    """The transcript of the test conversation, turn for turn (as packages/client/test/real-service.ts writes it)."""
    said = ["How was your week?", "Busy, but good. We shipped the release.", "What was the hardest part?",
            "Testing uploads, honestly.", "And what comes next?", "A long weekend."]
    lines = ["WEBVTT", ""]
    k, t = 0, 0.0
    while t + 3.5 <= seconds:
        lines += [f"00:00:{t:06.3f} --> 00:00:{t + 3.5:06.3f}", f"<v {names[k % 2]}>{said[k % len(said)]}", ""]
        k, t = k + 1, t + 4
    return "\n".join(lines)


_media: Optional["rapport.types.Media"] = None


def wait_analysed(c: "rapport.Rapport", media_id: str) -> "rapport.types.Media":
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        media = c.files.retrieve(media_id)
        if media["analysis"]["status"] in ("ready", "failed"):
            return media
        time.sleep(0.2)
    raise AssertionError(f"the analysis of {media_id} did not end in 120 s")


def analysed_media() -> "rapport.types.Media":
    """The test conversation uploaded once, with its transcript attached, analysed."""
    global _media
    if _media is None:
        c = client()
        media = c.files.upload(service().wav, label="Weekly call")
        wait_analysed(c, media["id"])
        c.files.upload(two_voice_vtt().encode(), filename="conversation.vtt", media_id=media["id"])
        _media = wait_analysed(c, media["id"])
    return _media
