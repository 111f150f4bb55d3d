"""The client against a real service: uploads and their analysis, diarization in every format,
metrics, the file's bytes and links, media event streams, entities, credits, the workspace."""
from __future__ import annotations

import hashlib
import io
import json
import unittest
import urllib.request
from typing import List

import rapport
from tests import _service


class FilesTest(unittest.TestCase):
    client: rapport.Rapport
    media: rapport.types.Media

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = _service.client()
        cls.media = _service.analysed_media()

    def test_the_upload_streamed_the_file_and_its_transcript_named_the_speakers(self) -> None:
        wav = _service.service().wav.read_bytes()
        m = self.media
        self.assertRegex(m["id"], r"^med_[A-Za-z0-9]{20,}$")
        self.assertEqual((m["kind"], m["filename"], m["sizeBytes"], m.get("label")), ("audio", "conversation.wav", len(wav), "Weekly call"))
        self.assertEqual(m["sha256"], hashlib.sha256(wav).hexdigest())
        self.assertTrue(m["hasTranscript"])
        self.assertEqual(m["analysis"]["status"], "ready", json.dumps(m["analysis"]))
        self.assertEqual(sorted(str(s["label"]) for s in m["analysis"]["speakers"]), ["Ann", "Bob"])

    def test_the_same_bytes_again_are_the_same_media_with_duplicate_true(self) -> None:
        # Decisions §18: not stored, analysed or charged again; the label sent is not applied.
        before = self.client.credits.balance()
        again = self.client.files.upload(_service.service().wav, label="Another name")
        self.assertEqual((again["id"], again["duplicate"], again.get("label")), (self.media["id"], True, "Weekly call"))
        self.assertEqual(self.client.credits.balance()["available"], before["available"])
        fresh = self.client.files.upload(_service.two_voice_vtt(10).encode(), filename="new.vtt")
        self.addCleanup(self.client.files.delete, fresh["id"])
        self.assertFalse(fresh["duplicate"])

    def test_an_upload_from_a_file_object_reports_progress_to_the_end(self) -> None:
        progress: List[rapport.UploadProgress] = []
        data = _service.two_voice_vtt(12).encode()
        media = self.client.files.upload(io.BytesIO(data), filename="short.vtt", on_progress=progress.append)
        self.assertEqual((media["kind"], media["sizeBytes"]), ("transcript", len(data)))
        self.assertEqual(progress[-1], rapport.UploadProgress(len(data), len(data)))
        self.client.files.delete(media["id"])
        with self.assertRaises(rapport.NotFoundError) as caught:
            self.client.files.retrieve(media["id"])
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "NOT_FOUND"))
        self.assertRegex(str(caught.exception.request_id), r"\S")

    def test_diarization_as_json_rttm_vtt_and_srt(self) -> None:
        mid = self.media["id"]
        d = self.client.files.diarization(mid)
        self.assertEqual(d["mediaId"], mid)
        self.assertGreater(len(d["segments"]), 0)
        rttm = self.client.files.diarization(mid, "rttm")
        self.assertEqual(len(rttm.rstrip("\n").split("\n")), len(d["segments"]))
        self.assertTrue(rttm.startswith(f"SPEAKER {mid} 1 "))
        self.assertRegex(self.client.files.diarization(mid, "vtt"), r"^WEBVTT\n[\s\S]*<v (Ann|Bob)>")
        self.assertRegex(self.client.files.diarization(mid, "srt"), r"^1\n\d\d:\d\d:\d\d,\d{3} --> ")
        self.assertEqual(self.client.files.diarization(mid, "json"), d)

    def test_metrics_of_the_media_and_of_its_people(self) -> None:
        mid = self.media["id"]
        measured = self.client.files.metrics(mid)
        self.assertEqual([s["index"] for s in measured["speakers"]], [s["index"] for s in self.media["analysis"]["speakers"]])
        self.assertTrue(all(s["metrics"]["speechSec"] > 0 for s in measured["speakers"]))
        self.assertIn("speech (s)", self.client.files.metrics(mid, "csv").split("\n")[0])
        entity_id = self.media["analysis"]["speakers"][0]["entityId"]
        assert entity_id is not None
        profile = self.client.entities.metrics(entity_id)
        self.assertEqual([a["mediaId"] for a in profile["appearances"]], [mid])
        self.assertIsInstance(self.client.entities.metrics(entity_id, "csv"), str)

    def test_the_bytes_whole_or_a_range_and_a_link_that_needs_no_key(self) -> None:
        wav = _service.service().wav.read_bytes()
        with self.client.files.content(self.media["id"]) as whole:
            self.assertEqual((whole.status, b"".join(whole.iter_bytes())), (200, wav))
        part = self.client.files.content(self.media["id"], start=4, end=11)
        self.assertEqual((part.status, part.read()), (206, wav[4:12]))
        self.assertEqual(part.headers["content-range"], f"bytes 4-11/{len(wav)}")
        link = self.client.files.create_content_link(self.media["id"], expires_in_sec=60)
        self.assertTrue(link["url"].startswith(self.client.base_url + "/v1/files/"))
        with urllib.request.urlopen(urllib.request.Request(link["url"], headers={"Range": "bytes=0-3"})) as res:
            self.assertEqual(res.read(), b"RIFF")
        with self.assertRaises(rapport.RangeNotSatisfiableError):
            self.client.files.content(self.media["id"], start=len(wav) + 10).read()

    def test_the_media_event_stream_ends_with_media_ready_and_the_list_holds_the_media(self) -> None:
        events = list(self.client.files.events(self.media["id"]))
        self.assertEqual(events[-1]["event"], "media.ready")
        self.assertEqual(events[-1]["media"]["id"], self.media["id"])
        self.assertIn(self.media["id"], [m["id"] for m in self.client.files.list(limit=1)])
        self.assertEqual(list(self.client.files.list(outdated=True)), [])

    def test_reanalyze_with_new_hints(self) -> None:
        again = self.client.files.reanalyze(self.media["id"], num_speakers=2)
        self.assertEqual(again["analysis"]["speakerHints"], {"numSpeakers": 2})
        done = _service.wait_analysed(self.client, self.media["id"])
        self.assertEqual(done["analysis"]["status"], "ready")
        cleared = self.client.files.reanalyze(self.media["id"], num_speakers=None)
        self.assertIsNone(cleared["analysis"]["speakerHints"])
        _service.wait_analysed(self.client, self.media["id"])


class EntitiesTest(unittest.TestCase):
    def test_list_label_tag_search_untag_and_merge(self) -> None:
        client = _service.client()
        media = _service.analysed_media()
        ann, bob = (str(s["entityId"]) for s in media["analysis"]["speakers"])
        self.assertTrue({ann, bob} <= {e["id"] for e in client.entities.list()})
        self.assertEqual(client.entities.retrieve(ann)["id"], ann)
        tagged = client.entities.tag(ann, ["py-client", "team a"])
        self.assertEqual(sorted(tagged["tags"]), ["py-client", "team a"])
        self.assertEqual([e["id"] for e in client.entities.list(tag="team a")], [ann])
        renamed = client.entities.update(ann, label="Ann Example")
        self.assertEqual((renamed["label"], renamed["name"]), ("Ann Example", "Ann Example"))
        self.assertIn(ann, [e["id"] for e in client.entities.list(q="Ann Example")])
        self.assertEqual(client.entities.untag(ann, "team a")["tags"], ["py-client"])
        self.assertIsNone(client.entities.update(ann, label=None)["label"])

    def test_merge_folds_one_person_into_another(self) -> None:
        # On a service of its own: merging the shared conversation's two voices would change what other tests match.
        own = _service.fresh()
        client = _service.client(own)
        uploaded = client.files.upload(own.wav)
        media = _service.wait_analysed(client, uploaded["id"])
        speakers = [s for s in media["analysis"]["speakers"] if s["entityId"]]
        self.assertGreaterEqual(len(speakers), 2, json.dumps(media["analysis"]))
        first, second = str(speakers[0]["entityId"]), str(speakers[1]["entityId"])
        merged = client.entities.merge(into=first, from_=[second])
        self.assertEqual(merged["id"], first)
        self.assertTrue({speakers[0]["index"], speakers[1]["index"]} <= {a["speakerIndex"] for a in merged["appearances"]})
        with self.assertRaises(rapport.NotFoundError):
            client.entities.retrieve(second)


class AccountTest(unittest.TestCase):
    def test_credits_and_their_ledger(self) -> None:
        client = _service.client()
        balance = client.credits.balance()
        self.assertEqual(balance["available"], balance["balance"] - balance["reserved"])
        kinds = {t["kind"] for t in client.credits.transactions(limit=2)}
        self.assertIn("grant", kinds)

    def test_keys_scopes_and_the_signing_secret(self) -> None:
        client = _service.client()
        self.assertEqual(client.workspace.retrieve()["usage"]["apiKeys"] >= 1, True)
        created = client.workspace.keys.create(scope="standard", name="python test")
        self.assertIn(created["id"], [k["id"] for k in client.workspace.keys.list()])
        standard = rapport.Rapport(api_key=created["apiKey"], base_url=client.base_url)
        self.assertGreaterEqual(standard.credits.balance()["balance"], 0)
        with self.assertRaises(rapport.PermissionDeniedError):
            standard.workspace.keys.list().first_page()
        client.workspace.keys.revoke(created["id"])
        with self.assertRaises(rapport.AuthenticationError) as caught:
            standard.credits.balance()
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "UNAUTHENTICATED"))
        secret = client.workspace.signing_secret()
        self.assertEqual(secret["signingSecret"], _service.service().signing_secret)
        rotated = client.workspace.rotate_signing_secret()
        self.assertEqual(rotated["previousSigningSecret"], secret["signingSecret"])
        self.assertNotEqual(rotated["signingSecret"], secret["signingSecret"])


if __name__ == "__main__":
    unittest.main()
