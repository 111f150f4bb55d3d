"""Event streams and pages: the SSE framing, resuming with Last-Event-ID after a cut, the wait's
fall-back to polling, the media type a stream's answer must have, and lists that fetch each page
only when the loop reaches it."""
from __future__ import annotations

import json
import time
import unittest
from typing import Any, Callable, Dict, Iterator, List, Tuple

import rapport
from rapport._sse import ServerSentEvent, SseState, parse_lines
from tests._fake import Action, FakeServer, Handler, Recorded, ServedTestCase, answer


def job(status: str, progress: float = 0.0) -> Dict[str, Any]:
    return {"id": "job_1", "type": "matching", "status": status, "stage": "scoring", "progress": progress,
            "createdAt": "t", "startedAt": None, "finishedAt": None, "resultId": "mat_1" if status == "succeeded" else None,
            "error": {"code": "canceled", "message": "Canceled"} if status == "failed" else None}


def frame(seq: int, status: str, progress: float) -> str:
    name = {"succeeded": "job.succeeded", "failed": "job.failed"}.get(status, "job.updated")
    return f"id: {seq}\nevent: {name}\ndata: {json.dumps(job(status, progress))}\n\n"


def sse(*frames: str) -> Action:
    """Streams the frames, then closes the connection (a cut, unless the last frame was terminal)."""
    def act(h: Handler, _r: Recorded) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(("retry: 10\n\n: ping\n\n" + "".join(frames)).encode())
        h.wfile.flush()
        h.close_connection = True
    return act


class ParserTest(unittest.TestCase):
    def test_ids_names_multiline_data_comments_and_retry(self) -> None:
        lines = ["retry: 2000", ": ping", "", "id: 7", "event: job.updated", "data: {\"a\":", "data: 1}", "",
                 "data: no id or name", "", "id: bad\0id", "data:x", "", "event: ignored-without-data", ""]
        state = SseState(None)
        events = list(parse_lines(iter(lines), state))
        self.assertEqual(events, [ServerSentEvent("7", "job.updated", '{"a":\n1}'), ServerSentEvent("7", "message", "no id or name"),
                                  ServerSentEvent("7", "message", "x")])
        self.assertEqual((state.last_event_id, state.retry), ("7", 2.0))


class StreamTest(ServedTestCase):
    def test_a_cut_stream_resumes_after_its_last_event_with_nothing_lost_or_repeated(self) -> None:
        server = self.serve(sse(frame(1, "running", 0.1), frame(2, "running", 0.5)),
                            sse(frame(3, "running", 0.9), frame(4, "succeeded", 1.0)))
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        events = list(client.jobs.events("job_1"))
        self.assertEqual([e["id"] for e in events], ["1", "2", "3", "4"])
        self.assertEqual(events[-1]["event"], "job.succeeded")
        self.assertEqual([r.headers.get("last-event-id") for r in server.requests], [None, "2"])
        self.assertEqual([r.headers.get("accept") for r in server.requests], ["text/event-stream"] * 2)
        self.assertEqual(self.waits, [0.01], "the server's retry: advice")

    def test_last_event_id_is_sent_when_given(self) -> None:
        server = self.serve(sse(frame(9, "failed", 1.0)))
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        events = list(client.jobs.events("job_1", last_event_id="8"))
        self.assertEqual(len(events), 1)
        self.assertEqual(server.requests[0].headers.get("last-event-id"), "8")

    def test_wait_follows_the_stream_and_raises_job_failed(self) -> None:
        server = self.serve(sse(frame(1, "running", 0.2), frame(2, "failed", 1.0)))
        updates: List[str] = []
        with self.assertRaises(rapport.JobFailedError) as caught:
            rapport.Rapport(api_key="rk_test", base_url=server.url).jobs.wait("job_1", on_update=lambda j: updates.append(j["status"]))
        self.assertEqual((caught.exception.code, caught.exception.job_id), ("canceled", "job_1"))
        self.assertEqual(updates, ["running", "failed"])

    def test_wait_falls_back_to_polling_when_the_stream_keeps_failing(self) -> None:
        polls = iter([job("running", 0.3), job("running", 0.3), job("succeeded", 1.0)])

        def act(h: Handler, r: Recorded) -> None:
            if r.path.endswith("/events"):
                h.reply(200, b"", {"Content-Type": "text/event-stream"})  # an empty stream: a buffering proxy
            else:
                h.reply(200, next(polls))
        server = self.serve(act)
        updates: List[float] = []
        done = rapport.Rapport(api_key="rk_test", base_url=server.url).jobs.wait("job_1", poll_interval=0.5,
                                                                               on_update=lambda j: updates.append(j["progress"]))
        self.assertEqual(done["status"], "succeeded")
        self.assertEqual(updates, [0.3, 1.0], "an unchanged poll is not reported twice")
        self.assertEqual(sum(1 for r in server.requests if r.path.endswith("/events")), 6, "first try and 5 reconnections")
        self.assertEqual(self.waits[-2:], [0.5, 0.5])

    def test_wait_gives_up_at_its_timeout_even_on_a_silent_stream(self) -> None:
        def silent(h: Handler, _r: Recorded) -> None:
            h.send_response(200)
            h.send_header("Content-Type", "text/event-stream")
            h.end_headers()
            h.wfile.write(frame(1, "running", 0.1).encode())
            h.wfile.flush()
            time.sleep(2)
        server = self.serve(silent)
        started = time.monotonic()
        with self.assertRaises(rapport.APITimeoutError) as caught:
            rapport.Rapport(api_key="rk_test", base_url=server.url).jobs.wait("job_1", timeout=0.4)
        self.assertLess(time.monotonic() - started, 1.5)
        self.assertIn("job_1", str(caught.exception))

    def test_http_errors_of_a_stream_are_raised_not_retried(self) -> None:
        server = self.serve(answer(404, {"error": {"code": "NOT_FOUND", "message": "no job"}}))
        with self.assertRaises(rapport.NotFoundError):
            list(rapport.Rapport(api_key="rk_test", base_url=server.url).jobs.events("job_1"))
        self.assertEqual(len(server.requests), 1)


class MediaTypeTest(ServedTestCase):
    """A proxy's login page, or a base URL that points at another service, answers 200 with its own
    media type: the client says so at once, instead of reading it as a stream with no events yet
    (reconnecting until it gives up) or, when the page holds a ``data:`` line, as an event."""

    def test_a_stream_answered_with_another_media_type_raises_at_once_without_reconnecting(self) -> None:
        def page(h: Handler, _r: Recorded) -> None:
            h.send_response(200)
            h.send_header("Content-Type", "text/html; charset=utf-8")
            h.send_header("X-Request-Id", "req_proxy")
            h.send_header("Connection", "close")
            h.end_headers()
            h.wfile.write(b"<!doctype html><title>Sign in</title>\n" + frame(1, "succeeded", 1.0).encode())
            h.wfile.flush()
            h.close_connection = True
            time.sleep(1)  # and held open: the client must not wait for it
        server = self.serve(page)
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        started = time.monotonic()
        with self.assertRaises(rapport.UnexpectedResponseError) as caught:
            list(client.jobs.events("job_1", idle_timeout=0.2, max_reconnects=1))
        self.assertLess(time.monotonic() - started, 0.9)
        err = caught.exception
        self.assertEqual((err.status, err.content_type, err.request_id), (200, "text/html; charset=utf-8", "req_proxy"))
        self.assertIn("GET /v1/jobs/job_1/events answered 200 with text/html, not text/event-stream", str(err))
        self.assertIn(server.url, str(err), "names the base URL to check")
        self.assertIsInstance(err, rapport.RapportError)
        self.assertEqual(len(server.requests), 1)

    def test_every_stream_checks_it_and_wait_does_not_fall_back_to_polling_the_same_wrong_place(self) -> None:
        # JSON to everything; closed after each answer, whose body the client leaves unread.
        server = self.serve(answer(200, {"ok": True}, {"Connection": "close"}))
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        streams: List[Tuple[str, Callable[[], Iterator[Any]]]] = [
            ("/v1/events", lambda: client.events.stream(max_reconnects=0)),
            ("/v1/files/med_1/events", lambda: client.files.events("med_1", max_reconnects=0)),
            ("/v1/files/events", lambda: client.files.stream(max_reconnects=0))]
        for path, open_stream in streams:
            with self.subTest(path), self.assertRaises(rapport.UnexpectedResponseError) as caught:
                list(open_stream())
            self.assertEqual(caught.exception.content_type, "application/json")
            self.assertEqual(server.requests[-1].path, path)
        before = len(server.requests)
        # Polling would read {"ok": true} as a job that never ends: the timeout only bounds this test.
        with self.assertRaises(rapport.UnexpectedResponseError):
            client.jobs.wait("job_1", timeout=3, poll_interval=0.01)
        self.assertEqual([r.path for r in server.requests[before:]], ["/v1/jobs/job_1/events"])

    def test_no_content_type_is_refused_too_and_parameters_and_case_do_not_matter(self) -> None:
        def bare(h: Handler, _r: Recorded) -> None:
            h.send_response(200)
            h.send_header("Connection", "close")
            h.end_headers()
            h.wfile.write(frame(1, "succeeded", 1.0).encode())
            h.close_connection = True

        def spelled(h: Handler, _r: Recorded) -> None:
            h.send_response(200)
            h.send_header("Content-Type", "Text/Event-Stream;charset=UTF-8")
            h.send_header("Connection", "close")
            h.end_headers()
            h.wfile.write(frame(1, "succeeded", 1.0).encode())
            h.close_connection = True
        server = self.serve(bare, spelled)
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        with self.assertRaises(rapport.UnexpectedResponseError) as caught:
            client.jobs.wait("job_1", timeout=3)
        self.assertIsNone(caught.exception.content_type)
        self.assertIn("with no Content-Type", str(caught.exception))
        self.assertEqual(client.jobs.wait("job_1", timeout=3)["status"], "succeeded")

    def test_a_json_route_answered_with_a_page_raises_it_too(self) -> None:
        server = self.serve(answer(200, b"<!doctype html><title>Sign in</title>", {"Content-Type": "text/html"}))
        with self.assertRaises(rapport.UnexpectedResponseError) as caught:
            rapport.Rapport(api_key="rk_test", base_url=server.url).jobs.retrieve("job_1")
        self.assertEqual((caught.exception.status, caught.exception.content_type), (200, "text/html"))
        self.assertIn("GET /v1/jobs/job_1: the service answered 200 with a body that is not JSON (text/html)", str(caught.exception))
        # Its start, to recognise the page by, in the message and on its own (cut at 200 characters).
        self.assertEqual(caught.exception.excerpt, "<!doctype html><title>Sign in</title>")
        self.assertIn('"<!doctype html><title>Sign in</title>"', str(caught.exception))
        long_page = b"<html>\n\n  " + b"x" * 500
        server = self.serve(answer(200, long_page, {"Content-Type": "text/html"}))
        with self.assertRaises(rapport.UnexpectedResponseError) as caught:
            rapport.Rapport(api_key="rk_test", base_url=server.url).jobs.retrieve("job_1")
        self.assertEqual(caught.exception.excerpt, "<html> " + "x" * 193 + "\u2026")


class PaginationTest(unittest.TestCase):
    def test_pages_are_fetched_only_as_the_loop_reaches_them(self) -> None:
        pages = {None: {"data": [{"id": "ent_1"}, {"id": "ent_2"}], "nextCursor": "c2"},
                 "c2": {"data": [{"id": "ent_3"}], "nextCursor": None}}

        def act(h: Handler, r: Recorded) -> None:
            cursor = r.path.split("cursor=")[1] if "cursor=" in r.path else None
            h.reply(200, pages[cursor])
        server = FakeServer(act)
        self.addCleanup(server.stop)
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        listing = client.entities.list(tag="vip", limit=2)
        self.assertEqual(server.requests, [], "lazy")
        items: Iterator[Any] = iter(listing)
        self.assertEqual(next(items)["id"], "ent_1")
        self.assertEqual(len(server.requests), 1)
        self.assertEqual([e["id"] for e in items], ["ent_2", "ent_3"])
        self.assertEqual([r.path for r in server.requests], ["/v1/entities?tag=vip&limit=2", "/v1/entities?tag=vip&limit=2&cursor=c2"])
        first = listing.first_page()
        self.assertTrue(first.has_next_page())
        self.assertEqual([len(p) for p in listing.pages()], [2, 1])


if __name__ == "__main__":
    unittest.main()
