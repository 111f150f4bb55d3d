"""The client against a real service: matching and report jobs (their result on success, a typed
JobFailedError otherwise), job events and the workspace stream, cancel, idempotency, a signed
webhook received and verified, its delivery log and redelivery, and each error class from real
answers."""
from __future__ import annotations

import json
import socket
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, List, Optional, Tuple, get_type_hints

import rapport
from rapport import webhooks
from rapport.types import Evidence, Job, MatchingPayload, MediaTarget
from tests import _service

JOB_ERROR_CODES = {"target_not_found", "media_unreadable", "no_speech_detected", "target_in_group", "not_enough_speech",
                   "insufficient_credits", "canceled", "timed_out", "internal_error"}


def speaker(media_id: str, n: int) -> MediaTarget:
    return {"type": "media_target", "mediaId": media_id,
            "selector": {"strategy": "speaker_index", "speaker_index": n, "on_miss": "fallback_dominant"}}


class Receiver(ThreadingHTTPServer):
    """Webhook deliveries as they arrive: (headers, raw body)."""

    daemon_threads = True

    def __init__(self) -> None:
        self.received: List[Tuple[Any, bytes]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.received.append((self.headers, body))
                self.send_response(204)
                self.end_headers()

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def wait_for(self, count: int, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)


class JobsTest(unittest.TestCase):
    client: rapport.Rapport
    media_id: str
    finished: Optional[Job] = None

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = _service.client()
        cls.media_id = _service.analysed_media()["id"]

    def finished_job(self) -> Job:
        if JobsTest.finished is None:
            receipt = self.client.matching.create(target=speaker(self.media_id, 0), group=[speaker(self.media_id, 1)])
            try:
                JobsTest.finished = self.client.jobs.wait(receipt["jobId"], timeout=120)
            except rapport.JobFailedError as err:
                JobsTest.finished = self.client.jobs.retrieve(err.job_id)
        return JobsTest.finished

    def test_match_and_wait_gives_the_result_or_a_typed_job_failure(self) -> None:
        updates: List[Job] = []
        target, member = speaker(self.media_id, 0), speaker(self.media_id, 1)
        result: Optional[MatchingPayload] = None
        failure: Optional[rapport.JobFailedError] = None
        try:
            result = self.client.matching.create_and_wait(target=target, group=[member], label="Ann and Bob",
                                                          on_update=updates.append, timeout=120)
        except rapport.JobFailedError as err:
            failure = err
        self.assertGreaterEqual(len(updates), 1, "progress was reported")
        last = updates[-1]
        if result is not None:
            self.assertEqual((last["status"], result["context"], result["output"]["template"]), ("succeeded", "behavioral_compatibility", "matching"))
            self.assertEqual((result.get("label"), result["target"]["source"], len(result["group"])), ("Ann and Bob", target, 1))
            self.assertRegex(result.get("markdown") or "", r"^# \S")
            self.assertEqual(self.client.matching.by_job(last["id"]), result)
            self.assertEqual(self.client.matching.retrieve(result["id"])["id"], result["id"])
            evidence = self.client.matching.evidence(result["id"])
            self.assertEqual(sorted(evidence), sorted(get_type_hints(Evidence)))
            self.assertEqual((evidence["kind"], [p["member"] for p in evidence["pairs"]], evidence["target"]["ref"]), ("matching", ["group[0]"], "target"))
            html = self.client.matching.html(result["id"])
            self.assertTrue(html.startswith("<!doctype html>"))
            self.assertNotIn("<script", html)
            feedback = self.client.feedback.create(result_id=result["id"], rating=4, comment="useful")
            self.assertEqual(feedback["rating"], 4)
            self.assertIn(feedback["id"], [f["id"] for f in self.client.feedback.list()])
        else:
            assert failure is not None
            self.assertEqual((last["status"], failure.job_id), ("failed", last["id"]))
            self.assertIn(failure.code, JOB_ERROR_CODES)
            self.assertIsNone(self.client.matching.by_job(last["id"]))
        job = self.client.jobs.retrieve(last["id"])
        self.assertEqual((job["status"], job["type"]), (last["status"], "matching"))
        self.assertIn(job["id"], [j["id"] for j in self.client.jobs.list(type="matching")])

    def test_a_report_job_gives_the_profile_or_a_typed_job_failure(self) -> None:
        target: MediaTarget = {"type": "media_target", "mediaId": self.media_id, "selector": {"strategy": "dominant"}}
        try:
            report = self.client.reports.create_and_wait(target=target, label="profile", timeout=120)
        except rapport.JobFailedError as err:
            self.assertIn(err.code, JOB_ERROR_CODES)
            self.assertIsNone(self.client.reports.by_job(err.job_id))
            return
        self.assertEqual((report["context"], report["output"]["template"]), ("behavioral_profile", "report"))
        self.assertTrue(report.get("markdown"))
        self.assertEqual(self.client.reports.retrieve(report["id"])["id"], report["id"])
        self.assertTrue(self.client.reports.html(report["id"]).startswith("<!doctype html>"))
        evidence = self.client.reports.evidence(report["id"])
        self.assertEqual((sorted(evidence), evidence["kind"], evidence["pairs"]), (sorted(get_type_hints(Evidence)), "report", []))

    def test_a_finished_jobs_events_from_the_start_each_once_in_order(self) -> None:
        job = self.finished_job()
        events = list(self.client.jobs.events(job["id"], last_event_id="0"))
        ids = [int(str(e["id"])) for e in events]
        self.assertEqual(ids, list(range(1, len(ids) + 1)))
        self.assertEqual(events[-1]["event"], "job.succeeded" if job["status"] == "succeeded" else "job.failed")
        with self.assertRaises(rapport.ConflictError) as caught:
            self.client.jobs.cancel(job["id"])
        self.assertEqual(caught.exception.status, 409)

    def test_the_workspace_stream_carries_a_new_job_to_its_end(self) -> None:
        stream = self.client.events.stream(last_event_id="0")
        receipt = self.client.matching.create(target=speaker(self.media_id, 0), group=[speaker(self.media_id, 1)], label="watched")
        seen: List[str] = []
        for event in stream:
            if event["job"]["id"] == receipt["jobId"]:
                seen.append(event["event"])
                if event["event"] != "job.updated":
                    break
        self.assertRegex(seen[-1], r"^job\.(succeeded|failed)$")

    def test_cancel_ends_a_queued_or_running_job_as_canceled(self) -> None:
        receipt = self.client.matching.create(target=speaker(self.media_id, 0), group=[speaker(self.media_id, 1)])
        try:
            job = self.client.jobs.cancel(receipt["jobId"])
        except rapport.ConflictError:
            return  # it finished first: a documented answer
        self.assertEqual(job["status"], "failed")
        error = job["error"]
        assert error is not None
        self.assertEqual(error["code"], "canceled")

    def test_idempotency_keys_replay_the_first_answer_and_refuse_another_body(self) -> None:
        target, member = speaker(self.media_id, 0), speaker(self.media_id, 1)
        first = self.client.matching.create(target=target, group=[member], label="one", idempotency_key="py-same-key")
        replay = self.client.matching.create(target=target, group=[member], label="one", idempotency_key="py-same-key")
        self.assertEqual(replay["jobId"], first["jobId"])
        with self.assertRaises(rapport.ConflictError) as caught:
            self.client.matching.create(target=target, group=[member], label="two", idempotency_key="py-same-key")
        self.assertEqual((caught.exception.status, caught.exception.code), (422, "IDEMPOTENCY_KEY_REUSED"))

    def test_a_signed_webhook_is_received_verified_logged_and_redelivered(self) -> None:
        receiver = Receiver()
        self.addCleanup(receiver.server_close)
        self.addCleanup(receiver.shutdown)
        url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
        receipt = self.client.matching.create(target=speaker(self.media_id, 0), group=[speaker(self.media_id, 1)],
                                              webhook={"url": url, "headers": {"x-test": "python"}})
        try:
            self.client.jobs.wait(receipt["jobId"], timeout=120)
        except rapport.JobFailedError:
            pass
        receiver.wait_for(1)
        self.assertEqual(len(receiver.received), 1)
        headers, body = receiver.received[0]
        self.assertEqual(headers["x-test"], "python")
        event = webhooks.verify(body, headers.get_all("service-signature"), _service.service().signing_secret)
        self.assertIn(event["type"], ("matching.completed", "matching.failed"))
        self.assertEqual((event["id"], event["data"]["jobId"]), (headers["service-event-id"], receipt["jobId"]))
        with self.assertRaises(rapport.WebhookVerificationError):
            webhooks.verify(body.replace(b"matching", b"matchinG", 1), headers["service-signature"], _service.service().signing_secret)
        deliveries = list(self.client.webhooks.deliveries.list(job_id=receipt["jobId"]))
        self.assertEqual(len(deliveries), 1)
        delivery = self.client.webhooks.deliveries.retrieve(deliveries[0]["id"])
        self.assertEqual((delivery["status"], delivery["url"], len(delivery.get("attempts", []))), ("succeeded", url, 1))
        self.client.webhooks.deliveries.redeliver(delivery["id"])
        receiver.wait_for(2)
        self.assertEqual(len(receiver.received), 2)
        self.assertEqual(json.loads(receiver.received[1][1])["id"], event["id"], "the same event again")


class ErrorsTest(unittest.TestCase):
    def test_each_error_class_from_real_answers(self) -> None:
        client = _service.client()
        media_id = _service.analysed_media()["id"]
        with self.assertRaises(rapport.ValidationError) as invalid:
            client.matching.create(target={"type": "entity_id", "entityId": "ent_doesnotexist00000000"},
                                   group=[{"type": "media_target", "mediaId": media_id, "selector": {"strategy": "dominant"}}])
        err = invalid.exception
        self.assertEqual((err.status, err.code), (400, "REFERENCE_NOT_FOUND"))
        self.assertIn("/target/entityId", [d["path"] for d in err.details])
        self.assertTrue(err.request_id and err.headers.get("x-ratelimit-limit"))
        with self.assertRaises(rapport.AuthenticationError):
            rapport.Rapport(api_key="rk_wrong", base_url=client.base_url).credits.balance()
        with self.assertRaises(rapport.UnsupportedMediaTypeError) as unsupported:
            client.files.upload(b"\x07" * 2048, filename="noise.bin")
        self.assertEqual(unsupported.exception.status, 415)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        with self.assertRaises(rapport.APIConnectionError) as refused:
            rapport.Rapport(api_key="k", base_url=f"http://127.0.0.1:{port}", max_retries=0).credits.balance()
        self.assertIn("refused", str(refused.exception).lower())

    def test_402_when_the_workspace_cannot_pay_413_over_the_upload_limit_405_on_a_wrong_method(self) -> None:
        poor = _service.fresh({"INITIAL_CREDITS": "0", "MAX_UPLOAD_BYTES": "100000"})
        client = _service.client(poor)
        wav = poor.wav.read_bytes()
        small = wav[:44] + wav[44:44 + 32000]
        with self.assertRaises(rapport.InsufficientCreditsError) as poor_err:
            client.files.upload(small, filename="x.wav")
        self.assertEqual((poor_err.exception.status, poor_err.exception.code), (402, "INSUFFICIENT_CREDITS"))
        with self.assertRaises(rapport.PayloadTooLargeError) as large:
            client.files.upload(poor.wav)
        self.assertEqual((large.exception.status, large.exception.code), (413, "PAYLOAD_TOO_LARGE"))
        with self.assertRaises(rapport.MethodNotAllowedError):
            client.http.send("DELETE", "/v1/credits")


if __name__ == "__main__":
    unittest.main()
