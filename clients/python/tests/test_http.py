"""The transport against a scripted local server: retries and their waits, idempotency keys,
error classes, timeouts, redirects (same origin only), and arguments refused before any request."""
from __future__ import annotations

import socket
import time
import unittest
from typing import Any, Callable, List, cast
from unittest import mock

import rapport
from rapport import _http
from rapport.types import EntityReference, MediaTarget
from tests._fake import FakeServer, ServedTestCase, answer, error

MEDIA = {"id": "med_1", "kind": "audio"}


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


class HttpTestCase(ServedTestCase):
    def client(self, server: FakeServer, **kwargs: Any) -> rapport.Rapport:
        return rapport.Rapport(api_key="rk_test", base_url=server.url, **kwargs)


class BackoffTest(unittest.TestCase):
    def test_exponential_from_half_a_second_capped_at_eight_with_at_most_a_quarter_of_jitter(self) -> None:
        for index, base in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)]:
            samples = [_http.backoff_seconds(index) for _ in range(200)]
            self.assertTrue(all(0.75 * base <= s <= base for s in samples), (index, min(samples), max(samples)))
            self.assertGreater(max(samples) - min(samples), 0, "jittered")


class RetryTest(HttpTestCase):
    def test_a_post_is_retried_on_503_with_the_same_idempotency_key(self) -> None:
        server = self.serve(error(503, "UNAVAILABLE"), error(500, "INTERNAL"), answer(202, {"jobId": "job_1", "status": "queued"}))
        member: EntityReference = {"type": "entity_id", "entityId": "ent_1"}
        receipt = self.client(server).matching.create(target=member, group=[member])
        self.assertEqual(receipt["jobId"], "job_1")
        keys = [r.headers.get("idempotency-key") for r in server.requests]
        self.assertEqual(len(keys), 3)
        self.assertTrue(keys[0] and keys[0].startswith("rapport-"))
        self.assertEqual(len(set(keys)), 1, "one key across the retries")
        self.assertEqual(len(self.waits), 2)
        self.assertTrue(0.375 <= self.waits[0] <= 0.5 and 0.75 <= self.waits[1] <= 1.0, self.waits)

    def test_two_calls_get_two_keys_and_a_given_key_goes_in_the_header_and_the_body(self) -> None:
        server = self.serve(answer(202, {"jobId": "job_1", "status": "queued"}))
        client = self.client(server)
        member: EntityReference = {"type": "entity_id", "entityId": "ent_1"}
        client.matching.create(target=member, group=[member])
        client.matching.create(target=member, group=[member])
        client.matching.create(target=member, group=[member], idempotency_key="mine-1")
        keys = [r.headers.get("idempotency-key") for r in server.requests]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "mine-1")
        self.assertIn(b'"idempotencyKey":"mine-1"', server.requests[2].body)

    def test_429_waits_for_retry_after_then_succeeds(self) -> None:
        server = self.serve(error(429, "RATE_LIMITED", retryAfter=3, headers={"Retry-After": "3"}), answer(200, MEDIA))
        self.assertEqual(self.client(server).files.retrieve("med_1")["id"], "med_1")
        self.assertEqual(len(self.waits), 1)
        self.assertTrue(3 <= self.waits[0] <= 3.1, self.waits)

    def test_429_with_only_the_header_and_503_retry_after_are_honoured(self) -> None:
        server = self.serve(answer(429, {"error": {"code": "RATE_LIMITED", "message": "m"}}, {"Retry-After": "2"}),
                            answer(503, None, {"Retry-After": "4"}), answer(200, MEDIA))
        self.client(server).files.retrieve("med_1")
        self.assertTrue(2 <= self.waits[0] <= 2.1 and self.waits[1] == 4, self.waits)

    def test_a_retry_after_beyond_the_limit_is_raised_at_once(self) -> None:
        server = self.serve(error(429, "RATE_LIMITED", retryAfter=120, headers={"Retry-After": "120"}))
        with self.assertRaises(rapport.RateLimitError) as caught:
            self.client(server).files.retrieve("med_1")
        self.assertEqual(caught.exception.retry_after, 120)
        self.assertEqual(len(server.requests), 1)
        self.assertEqual(self.waits, [])

    def test_retries_stop_after_max_retries_and_the_last_error_is_raised(self) -> None:
        server = self.serve(error(503, "UNAVAILABLE"))
        with self.assertRaises(rapport.InternalServerError) as caught:
            self.client(server, max_retries=3).files.retrieve("med_1")
        self.assertEqual(len(server.requests), 4)
        self.assertEqual(caught.exception.code, "UNAVAILABLE")

    def test_4xx_507_and_a_patch_on_500_are_not_retried(self) -> None:
        for status, code in [(400, "VALIDATION_FAILED"), (404, "NOT_FOUND"), (409, "CONFLICT"), (507, "INSUFFICIENT_STORAGE")]:
            server = self.serve(error(status, code))
            with self.assertRaises(rapport.APIError):
                self.client(server).files.retrieve("med_1")
            self.assertEqual(len(server.requests), 1, code)
        server = self.serve(error(500, "INTERNAL"))
        with self.assertRaises(rapport.InternalServerError):
            self.client(server).entities.update("ent_1", label="Ann")
        self.assertEqual(len(server.requests), 1, "PATCH is not idempotent: not retried on 5xx")

    def test_connection_refused_is_retried_then_raised_as_api_connection_error(self) -> None:
        client = rapport.Rapport(api_key="rk_test", base_url=f"http://127.0.0.1:{closed_port()}", max_retries=2)
        with self.assertRaises(rapport.APIConnectionError) as caught:
            client.credits.balance()
        self.assertEqual(len(self.waits), 2)
        self.assertIsNone(caught.exception.status)

    def test_a_silent_server_times_out_per_attempt(self) -> None:
        server = self.serve(lambda h, r: time.sleep(1.0))
        started = time.monotonic()
        with self.assertRaises(rapport.APITimeoutError):
            self.client(server, timeout=0.2, max_retries=1).files.retrieve("med_1")
        self.assertLess(time.monotonic() - started, 1.5)
        self.assertEqual(len(server.requests), 2)


class ErrorTest(HttpTestCase):
    def test_each_error_code_has_its_class_and_carries_code_message_request_id_and_status(self) -> None:
        for code, status in rapport.ERROR_CODES.items():
            server = self.serve(error(status, code, details=[{"path": "/group/0", "message": "bad"}]))
            with self.assertRaises(rapport.APIError) as caught:
                self.client(server, max_retries=0).files.retrieve("med_1")
            err = caught.exception
            self.assertIsNot(type(err), rapport.APIError, code)
            self.assertEqual((err.status, err.code, err.message, err.request_id), (status, code, f"{code} message", "req_test"))
            if isinstance(err, rapport.ValidationError):
                self.assertEqual(err.details, [{"path": "/group/0", "message": "bad"}])
        expected = {401: rapport.AuthenticationError, 403: rapport.PermissionDeniedError, 404: rapport.NotFoundError,
                    409: rapport.ConflictError, 400: rapport.ValidationError, 429: rapport.RateLimitError}
        for status, cls in expected.items():
            self.assertIs(type(rapport._errors.make_api_error(status, {"code": "X"}, {})), cls)

    def test_a_body_that_is_not_the_error_envelope_still_gives_status_and_the_request_id_header(self) -> None:
        server = self.serve(answer(502, b"<html>bad gateway</html>", {"X-Request-Id": "req_proxy"}))
        with self.assertRaises(rapport.InternalServerError) as caught:
            self.client(server, max_retries=0).files.retrieve("med_1")
        self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.request_id), (502, "UNKNOWN", "req_proxy"))


class RedirectTest(HttpTestCase):
    def test_a_same_origin_redirect_is_followed_with_the_key(self) -> None:
        server = self.serve(answer(307, None, {"Location": "/v1/files/med_2"}), answer(200, MEDIA))
        self.client(server).files.retrieve("med_1")
        self.assertEqual([r.path for r in server.requests], ["/v1/files/med_1", "/v1/files/med_2"])
        self.assertEqual(server.requests[1].headers.get("service-api-key"), "rk_test")

    def test_a_cross_origin_redirect_is_refused_and_the_other_origin_never_sees_the_key(self) -> None:
        other = self.serve(answer(200, MEDIA))
        for location in [other.url + "/v1/files/med_1", other.url.replace("127.0.0.1", "localhost") + "/x",
                         "https://127.0.0.1:1/v1/files/med_1"]:
            server = self.serve(answer(302, None, {"Location": location}))
            with self.assertRaises(rapport.RedirectError) as caught:
                self.client(server).files.retrieve("med_1")
            self.assertEqual(caught.exception.location, location)
            self.assertEqual(len(server.requests), 1, "not retried either")
        self.assertEqual(other.requests, [])

    def test_a_redirect_loop_ends(self) -> None:
        server = self.serve(answer(302, None, {"Location": "/loop"}))
        with self.assertRaises(rapport.RedirectError):
            self.client(server).files.retrieve("med_1")
        self.assertEqual(len(server.requests), _http.MAX_REDIRECTS + 1)


class ArgumentTest(HttpTestCase):
    def test_bad_arguments_fail_before_any_request(self) -> None:
        server = self.serve(answer(200, {}))
        client = self.client(server)
        media: MediaTarget = {"type": "media_target", "mediaId": "med_1", "selector": {"strategy": "dominant"}}
        wrong: Any = {"type": "media"}
        cases: List[Callable[[], object]] = [
            lambda: client.files.retrieve(""),
            lambda: client.files.upload("/no/such/file.wav"),
            lambda: client.files.upload(b"x", num_speakers=0),
            lambda: client.files.upload(b"x", num_speakers=2, max_speakers=3),
            lambda: client.files.upload(b"x", min_speakers=4, max_speakers=3),
            lambda: client.files.list(limit=0),
            lambda: client.files.diarization("med_1", cast(Any, "txt")),
            lambda: client.matching.create(target=media, group=[]),
            lambda: client.matching.create(target=wrong, group=[media]),
            lambda: client.entities.tag("ent_1", "vip"),
            lambda: client.entities.merge(into="ent_1", from_=[]),
            lambda: client.feedback.create(result_id="mat_1", rating=6),
            lambda: client.jobs.wait("job_1", timeout=0),
        ]
        for case in cases:
            with self.assertRaises((ValueError, TypeError, FileNotFoundError)):
                case()
        with open(__file__, "r") as text:
            with self.assertRaises(TypeError):
                client.files.upload(text)  # type: ignore[arg-type]
        self.assertEqual(server.requests, [])

    def test_the_client_needs_a_key_and_an_http_base_url(self) -> None:
        with mock.patch.dict("os.environ", {"RAPPORT_API_KEY": ""}):
            with self.assertRaises(ValueError):
                rapport.Rapport()
        with self.assertRaises(ValueError):
            rapport.Rapport(api_key="k", base_url="ftp://example.com")
        with mock.patch.dict("os.environ", {"RAPPORT_API_KEY": "rk_env", "RAPPORT_BASE_URL": "https://api.example.com/"}):
            client = rapport.Rapport()
            self.assertEqual((client.http.api_key, client.base_url), ("rk_env", "https://api.example.com"))

    def test_with_options_changes_the_limits_and_keeps_the_key_and_url(self) -> None:
        server = self.serve(error(503, "UNAVAILABLE"))
        client = self.client(server, max_retries=3)
        quick = client.with_options(max_retries=0, timeout=5)
        self.assertEqual((quick.http.api_key, quick.base_url, quick.http.timeout), ("rk_test", server.url, 5))
        with self.assertRaises(rapport.InternalServerError):
            quick.credits.balance()
        self.assertEqual(len(server.requests), 1)
        self.assertEqual(client.http.max_retries, 3)

    def test_ids_and_tags_are_url_encoded_in_paths(self) -> None:
        server = self.serve(answer(200, {"id": "ent_1"}))
        self.client(server).entities.untag("ent_1", "a/b c?")
        self.assertEqual(server.requests[0].path, "/v1/entities/ent_1/tags/a%2Fb%20c%3F")


if __name__ == "__main__":
    unittest.main()
