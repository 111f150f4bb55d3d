"""Uploads: the multipart body as a server parses it, Content-Length, progress, streaming in
chunks (the file is never read whole), and replay across retries."""
from __future__ import annotations

import email.parser
import io
import os
import tempfile
import unittest
from email.message import Message
from typing import Any, Dict, List, Tuple
from unittest import mock

import rapport
from rapport import _http, _multipart
from tests._fake import FakeServer, Recorded, answer, error

MEDIA = {"id": "med_1", "kind": "audio"}


def parse(rec: Recorded) -> Tuple[Dict[str, str], Tuple[str, str, bytes]]:
    """The form fields and the file part (filename, content type, bytes), as a server reads them."""
    raw = f"Content-Type: {rec.headers['content-type']}\r\n\r\n".encode() + rec.body
    message = email.parser.BytesParser().parsebytes(raw)
    fields: Dict[str, str] = {}
    file_part: Tuple[str, str, bytes] = ("", "", b"")
    parts = message.get_payload()
    assert isinstance(parts, list)
    for part in parts:
        assert isinstance(part, Message)
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        if name == "file":
            file_part = (str(part.get_filename()), part.get_content_type(), payload)
        else:
            fields[str(name)] = payload.decode()
    return fields, file_part


class CountingFile(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.reads: List[int] = []

    def read(self, size: "int | None" = -1) -> bytes:
        chunk = super().read(size)
        self.reads.append(len(chunk))
        return chunk


class UploadTest(unittest.TestCase):
    def setUp(self) -> None:
        self.waits: List[float] = []
        patcher = mock.patch.object(_http, "_sleep", self.waits.append)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.data = os.urandom(_multipart.CHUNK_SIZE * 3 + 1234)
        fd, self.path = tempfile.mkstemp(suffix=".wav", prefix="talk ")
        with os.fdopen(fd, "wb") as f:
            f.write(self.data)
        self.addCleanup(os.unlink, self.path)

    def serve(self, *script: Any) -> FakeServer:
        server = FakeServer(*script)
        self.addCleanup(server.stop)
        return server

    def test_a_path_is_sent_as_multipart_with_its_fields_name_and_exact_length(self) -> None:
        server = self.serve(answer(201, MEDIA))
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        progress: List[rapport.UploadProgress] = []
        media = client.files.upload(self.path, label='Ann "and" Bob', min_speakers=2, max_speakers=3,
                                    content_type="audio/wav", on_progress=progress.append)
        self.assertEqual(media["id"], "med_1")
        rec = server.requests[0]
        self.assertEqual((rec.method, rec.path), ("POST", "/v1/files"))
        self.assertEqual(int(rec.headers["content-length"]), len(rec.body))
        self.assertTrue(rec.headers.get("idempotency-key"))
        fields, (filename, content_type, content) = parse(rec)
        self.assertEqual(fields, {"label": 'Ann "and" Bob', "minSpeakers": "2", "maxSpeakers": "3"})
        self.assertEqual((filename, content_type), (os.path.basename(self.path), "audio/wav"))
        self.assertEqual(content, self.data)
        loaded = [p.loaded for p in progress]
        self.assertEqual(loaded[0], 0)
        self.assertEqual(loaded, sorted(loaded))
        self.assertEqual(progress[-1], rapport.UploadProgress(len(self.data), len(self.data)))
        self.assertGreaterEqual(len(progress), 4, "reported chunk by chunk")

    def test_the_file_is_read_in_chunks_never_whole(self) -> None:
        server = self.serve(answer(201, MEDIA))
        source = CountingFile(self.data)
        rapport.Rapport(api_key="rk_test", base_url=server.url).files.upload(source, filename="x.wav", num_speakers=2)
        self.assertLessEqual(max(source.reads), _multipart.CHUNK_SIZE)
        self.assertGreater(len(source.reads), 3)
        fields, (filename, _, content) = parse(server.requests[0])
        self.assertEqual((fields, filename, content), ({"numSpeakers": "2"}, "x.wav", self.data))

    def test_a_retried_upload_sends_the_whole_file_again_with_the_same_key(self) -> None:
        server = self.serve(error(503, "UNAVAILABLE"), answer(201, MEDIA))
        with open(self.path, "rb") as f:
            f.read(10)  # the upload starts where the caller's file stands
            rapport.Rapport(api_key="rk_test", base_url=server.url).files.upload(f)
        first, second = server.requests
        self.assertEqual(parse(first)[1][2], self.data[10:])
        self.assertEqual(parse(second)[1][2], self.data[10:])
        self.assertEqual(first.headers["idempotency-key"], second.headers["idempotency-key"])

    def test_a_stream_that_cannot_seek_is_sent_chunked_once_and_not_retried(self) -> None:
        server = self.serve(error(503, "UNAVAILABLE"), answer(201, MEDIA))
        read_end, write_end = os.pipe()
        with os.fdopen(write_end, "wb") as w:
            w.write(b"RIFF" + b"\0" * 1000)
        with os.fdopen(read_end, "rb") as pipe:
            with self.assertRaises(rapport.InternalServerError):
                rapport.Rapport(api_key="rk_test", base_url=server.url).files.upload(pipe)
        self.assertEqual(len(server.requests), 1)
        self.assertEqual(server.requests[0].headers.get("transfer-encoding"), "chunked")
        self.assertEqual(parse(server.requests[0])[1][2], b"RIFF" + b"\0" * 1000)

    def test_a_same_origin_307_sends_the_file_again_but_a_one_shot_stream_is_not_resent(self) -> None:
        server = self.serve(answer(307, None, {"Location": "/v1/files?again=1"}), answer(201, MEDIA))
        client = rapport.Rapport(api_key="rk_test", base_url=server.url)
        client.files.upload(self.path)
        self.assertEqual([(r.method, r.path) for r in server.requests], [("POST", "/v1/files"), ("POST", "/v1/files?again=1")])
        self.assertEqual(parse(server.requests[1])[1][2], self.data)
        server.script[:] = [answer(307, None, {"Location": "/v1/files?again=1"}), answer(201, MEDIA)]
        read_end, write_end = os.pipe()
        with os.fdopen(write_end, "wb") as w:
            w.write(b"RIFF")
        with os.fdopen(read_end, "rb") as pipe, self.assertRaises(rapport.RedirectError):
            client.files.upload(pipe)
        self.assertEqual(len(server.requests), 3)

    def test_bytes_upload_and_names_with_quotes_and_line_breaks(self) -> None:
        server = self.serve(answer(201, MEDIA))
        rapport.Rapport(api_key="rk_test", base_url=server.url).files.upload(b"WEBVTT\n", filename='a"b\r\nc.vtt', media_id="med_0")
        fields, (filename, _, content) = parse(server.requests[0])
        self.assertEqual((fields, content), ({"mediaId": "med_0"}, b"WEBVTT\n"))
        self.assertNotIn("\n", filename)
        self.assertIn(b'filename="a%22b  c.vtt"', server.requests[0].body)


if __name__ == "__main__":
    unittest.main()
