"""Webhook signatures: sign and verify, rotated secrets, the tolerance (never disabled), malformed
headers, and the raw body, checked against a signature computed here from the spec."""
from __future__ import annotations

import hashlib
import hmac
import json
import unittest

from rapport import webhooks
from rapport.webhooks import WebhookVerificationError

SECRET = "whsec_test_secret_0123456789"
OLD_SECRET = "whsec_previous_secret_987654"
BODY = json.dumps({"id": "evt_1", "type": "matching.completed", "createdAt": "2026-12-02T06:00:00.000Z",
                   "timestamp": "2026-12-02T06:00:00.000Z", "data": {"jobId": "job_1", "matchingId": "mat_1",
                                                                       "status": "succeeded"}}, separators=(",", ":")).encode()
T = 1_800_000_000


def mac(secret: str, t: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()


class VerifyTest(unittest.TestCase):
    def reason(self, *args: object, **kwargs: object) -> str:
        with self.assertRaises(WebhookVerificationError) as caught:
            webhooks.verify(*args, **kwargs)  # type: ignore[arg-type]
        return caught.exception.reason

    def test_a_genuine_delivery_verifies_and_answers_the_event(self) -> None:
        header = f"t={T},v1={mac(SECRET, T, BODY)}"
        event = webhooks.verify(BODY, header, SECRET, now=T + 10)
        self.assertEqual((event["id"], event["type"], event["data"]["matchingId"]), ("evt_1", "matching.completed", "mat_1"))

    def test_sign_makes_the_header_the_spec_describes(self) -> None:
        self.assertEqual(webhooks.sign(BODY, SECRET, T), f"t={T},v1={mac(SECRET, T, BODY)}")
        self.assertEqual(webhooks.verify(BODY, webhooks.sign(BODY, SECRET), SECRET)["id"], "evt_1")

    def test_any_v1_entry_verifies_so_rotated_secrets_work(self) -> None:
        header = f"t={T},v1={mac(SECRET, T, BODY)},v1={mac(OLD_SECRET, T, BODY)}"
        self.assertEqual(webhooks.verify(BODY, header, OLD_SECRET, now=T)["id"], "evt_1")
        self.assertEqual(webhooks.verify(BODY, header, SECRET, now=T)["id"], "evt_1")
        self.assertEqual(self.reason(BODY, header, "whsec_other", now=T), "no_matching_signature")

    def test_a_changed_body_or_a_reserialised_one_does_not_verify(self) -> None:
        header = webhooks.sign(BODY, SECRET, T)
        self.assertEqual(self.reason(BODY.replace(b"mat_1", b"mat_2"), header, SECRET, now=T), "no_matching_signature")
        pretty = json.dumps(json.loads(BODY), indent=2).encode()
        self.assertEqual(self.reason(pretty, header, SECRET, now=T), "no_matching_signature")

    def test_the_tolerance_is_enforced_both_ways_and_cannot_be_disabled(self) -> None:
        header = webhooks.sign(BODY, SECRET, T)
        self.assertEqual(self.reason(BODY, header, SECRET, now=T + 301), "timestamp_too_old")
        self.assertEqual(self.reason(BODY, header, SECRET, now=T - 301), "timestamp_too_new")
        self.assertEqual(webhooks.verify(BODY, header, SECRET, now=T + 300)["id"], "evt_1")
        self.assertEqual(self.reason(BODY, header, SECRET, tolerance=10, now=T + 11), "timestamp_too_old")
        for bad in (0, -1, float("inf"), float("nan"), True):
            with self.assertRaises(ValueError):
                webhooks.verify(BODY, header, SECRET, tolerance=bad, now=T)

    def test_a_forged_signature_is_reported_as_such_even_when_the_time_is_off(self) -> None:
        header = f"t={T},v1={'0' * 64}"
        self.assertEqual(self.reason(BODY, header, SECRET, now=T + 10_000), "no_matching_signature")

    def test_missing_and_malformed_headers(self) -> None:
        good = mac(SECRET, T, BODY)
        self.assertEqual(self.reason(BODY, None, SECRET), "missing_header")
        self.assertEqual(self.reason(BODY, "  ", SECRET), "missing_header")
        for header in [f"v1={good}", f"t={T}", f"t=abc,v1={good}", f"t={T},t={T},v1={good}", f"t={T},v1=xyz",
                       f"t={T},v1={good[:-1]}"]:
            self.assertEqual(self.reason(BODY, header, SECRET, now=T), "malformed_header", header)
        # A repeated header arrives as a list: two timestamps are malformed, never either one.
        self.assertEqual(self.reason(BODY, [f"t={T},v1={good}", f"t={T + 1}"], SECRET, now=T), "malformed_header")
        self.assertEqual(webhooks.verify(BODY, [f"t={T}", f"v1={good}"], SECRET, now=T)["id"], "evt_1")
        self.assertEqual(webhooks.verify(BODY, f"t={T},v2=abc,v1={good.upper()}", SECRET, now=T)["id"], "evt_1")

    def test_a_signed_body_that_is_not_an_event_envelope_is_refused(self) -> None:
        for body in [b"\xff\xfe", b"not json", b"[1,2]", b'{"id":"evt_1","type":"x"}']:
            self.assertEqual(self.reason(body, webhooks.sign(body, SECRET, T), SECRET, now=T), "invalid_body", body)

    def test_text_bodies_are_signed_as_utf8_and_secrets_must_be_given(self) -> None:
        text = BODY.decode()
        self.assertEqual(webhooks.sign(text, SECRET, T), webhooks.sign(BODY, SECRET, T))
        with self.assertRaises(TypeError):
            webhooks.verify(BODY, webhooks.sign(BODY, SECRET, T), "", now=T)
        with self.assertRaises(ValueError):
            webhooks.sign(BODY, SECRET, -1)


if __name__ == "__main__":
    unittest.main()
