"""Verifying Rapport webhooks on the receiving side (decisions.md section 8).

``service-signature: t=<unix seconds>,v1=<hex>``: HMAC-SHA256 over ``<t>.<raw body>`` keyed with
the UTF-8 bytes of the whole secret (``whsec_`` prefix included). Every ``v1`` entry is tried (two
are sent while a rotated secret is in its grace period), each compared in constant time, and the
timestamp must be within ``tolerance`` seconds of now; the tolerance cannot be switched off. The
body must be the raw bytes received, never re-serialised JSON.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import time
from typing import Optional, Sequence, Union, cast

from ._errors import RapportError
from .types import WebhookEvent

SIGNATURE_HEADER = "service-signature"
DEFAULT_TOLERANCE = 300
_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
_DIGITS = re.compile(r"^[0-9]{1,15}$")

RawBody = Union[bytes, bytearray, memoryview, str]


class WebhookVerificationError(RapportError):
    """The delivery did not verify: answer it with 401. ``reason`` says why, for your logs:
    ``missing_header``, ``malformed_header``, ``no_matching_signature``, ``timestamp_too_old``,
    ``timestamp_too_new`` or ``invalid_body``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _body_bytes(raw_body: RawBody) -> bytes:
    if isinstance(raw_body, str):
        return raw_body.encode("utf-8")
    if isinstance(raw_body, (bytes, bytearray, memoryview)):
        return bytes(raw_body)
    raise TypeError("raw_body must be the bytes of the request body as received (not parsed JSON)")


def _mac(secret: str, t: int, body: bytes) -> str:
    if not isinstance(secret, str) or secret == "":
        raise TypeError("the webhook signing secret must be a non-empty string (whsec_...)")
    return hmac.new(secret.encode("utf-8"), str(t).encode("ascii") + b"." + body, hashlib.sha256).hexdigest()


def _parse_header(header: str) -> "tuple[int, list[str]]":
    t: Optional[int] = None
    signatures: list[str] = []
    for item in header.split(","):
        key, _, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key == "t":
            if t is not None or not _DIGITS.match(value):
                raise WebhookVerificationError("malformed_header", "service-signature: `t` must appear once, as unix seconds")
            t = int(value)
        elif key == "v1":
            if not _HEX64.match(value):
                raise WebhookVerificationError("malformed_header", "service-signature: each `v1` must be 64 hex characters")
            signatures.append(value.lower())
        # Other schemes are ignored, so that one can be added beside v1 without breaking anyone.
    if t is None:
        raise WebhookVerificationError("malformed_header", "service-signature: no `t=` timestamp")
    if not signatures:
        raise WebhookVerificationError("malformed_header", "service-signature: no `v1=` signature")
    return t, signatures


def verify(raw_body: RawBody, signature_header: Union[str, Sequence[str], None], secret: str,
           tolerance: float = DEFAULT_TOLERANCE, *, now: Optional[float] = None) -> WebhookEvent:
    """Verifies a delivery and answers its parsed event, or raises ``WebhookVerificationError``.

    ``raw_body``: the request body exactly as received. ``signature_header``: the value of the
    ``service-signature`` header (a list when the header came more than once). ``secret``: the
    workspace signing secret. ``tolerance``: the largest accepted |now - t| in seconds, positive.
    """
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not math.isfinite(tolerance) or tolerance <= 0:
        raise ValueError("tolerance must be a positive number of seconds: the timestamp check cannot be disabled")
    body = _body_bytes(raw_body)
    # A repeated header is read as one list, so two timestamps make it malformed rather than letting either through.
    header = signature_header if isinstance(signature_header, str) else ",".join(signature_header or [])
    if header.strip() == "":
        raise WebhookVerificationError("missing_header", "no service-signature header: is this request from Rapport?")
    t, signatures = _parse_header(header)
    # The signature is checked before the time, so that a timestamp error is only ever reported for
    # a genuine delivery (a clock problem), never as a hint to a forger.
    expected = _mac(secret, t, body)
    matched = False
    for candidate in signatures:
        matched = hmac.compare_digest(expected, candidate) or matched
    if not matched:
        raise WebhookVerificationError(
            "no_matching_signature", "no v1 signature matches: check the signing secret and that the body is the raw bytes received")
    current = time.time() if now is None else now
    if current - t > tolerance:
        raise WebhookVerificationError("timestamp_too_old", f"the signature timestamp is {current - t:.0f} s old (tolerance {tolerance:g} s)")
    if t - current > tolerance:
        raise WebhookVerificationError("timestamp_too_new", f"the signature timestamp is {t - current:.0f} s ahead (tolerance {tolerance:g} s)")
    try:
        event = json.loads(body.decode("utf-8"))
    except ValueError:
        raise WebhookVerificationError("invalid_body", "the webhook body is not valid UTF-8 JSON") from None
    if (not isinstance(event, dict) or not isinstance(event.get("id"), str) or not isinstance(event.get("type"), str)
            or not isinstance(event.get("data"), dict)):
        raise WebhookVerificationError("invalid_body", "the webhook body is not an event envelope { id, type, createdAt, timestamp, data }")
    return cast(WebhookEvent, event)


def sign(raw_body: RawBody, secret: str, timestamp: Optional[int] = None) -> str:
    """A valid ``service-signature`` value for ``raw_body`` (at ``timestamp``, default now), for your own tests."""
    t = int(time.time()) if timestamp is None else timestamp
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise ValueError("timestamp must be a non-negative whole number of unix seconds")
    return f"t={t},v1={_mac(secret, t, _body_bytes(raw_body))}"
