"""``/v1/files``: upload (streamed from disk, with progress), list, retrieve, delete, diarization
(as JSON or as an RTTM, WebVTT or SRT file), metrics (JSON or CSV), re-analysis, the file's bytes,
short-lived content links, and the analysis as event streams."""
from __future__ import annotations

import json
from typing import Any, Iterator, Literal, Optional, Union, cast, overload

from .. import _validate as v
from .._endpoints import path_for
from .._http import HttpClient, Response
from .._multipart import MultipartBody, ProgressCallback, Uploadable
from .._pagination import Paginator
from .._sse import ServerSentEvent, reconnecting_stream
from ..types import ContentLink, Diarization, Media, MediaEvent, MediaMetrics, UploadedMedia

DiarizationFormat = Literal["json", "rttm", "vtt", "srt"]
_DIARIZATION_ACCEPT = {"json": "application/json", "rttm": "text/plain", "vtt": "text/vtt", "srt": "application/x-subrip"}
_MEDIA_EVENTS = ("media.updated", "media.ready", "media.failed")
#: Uploads take as long as the file does: without an explicit timeout they get ten minutes per socket wait.
UPLOAD_TIMEOUT = 600.0


class _NotGiven:
    def __repr__(self) -> str:
        return "NOT_GIVEN"


#: The default of ``reanalyze``'s hints: not given keeps the stored hint, None clears it.
NOT_GIVEN = _NotGiven()


def _media_event(sse: ServerSentEvent) -> Optional[MediaEvent]:
    if sse.event not in _MEDIA_EVENTS:
        return None  # an event name added later: skipped
    return cast(MediaEvent, {"id": sse.id, "event": sse.event, "media": json.loads(sse.data)})


class Files:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def upload(self, file: Uploadable, *, label: Optional[str] = None, media_id: Optional[str] = None,
               num_speakers: Optional[int] = None, min_speakers: Optional[int] = None, max_speakers: Optional[int] = None,
               filename: Optional[str] = None, content_type: Optional[str] = None,
               on_progress: Optional[ProgressCallback] = None, idempotency_key: Optional[str] = None,
               timeout: Optional[float] = None) -> UploadedMedia:
        """Uploads audio, video or a transcript (``media_id``: attach the transcript to that media).

        Bytes the workspace already has are not stored again: the answer is that media with
        ``duplicate`` True (the label and hints given are not applied); else ``duplicate`` is False.

        ``file`` is a path (streamed from disk, never read whole), bytes, or a binary file object.
        ``on_progress`` is called with ``UploadProgress(loaded, total)`` as the bytes are sent.
        """
        where = "files.upload"
        v.optional_str(where, "label", label)
        if media_id is not None:
            v.require_id(where, "media_id", media_id)
        v.speaker_hints(where, num_speakers, min_speakers, max_speakers)
        v.optional_str(where, "filename", filename)
        body = MultipartBody(file, {
            "label": label,
            "mediaId": media_id,
            "numSpeakers": None if num_speakers is None else str(num_speakers),
            "minSpeakers": None if min_speakers is None else str(min_speakers),
            "maxSpeakers": None if max_speakers is None else str(max_speakers),
        }, filename=filename, content_type=content_type, on_progress=on_progress)
        method, path = path_for("files.upload")
        per_attempt = timeout if timeout is not None else max(UPLOAD_TIMEOUT, self._http.timeout)
        return cast(UploadedMedia, self._http.request_json(method, path, body=body, idempotency_key=idempotency_key, timeout=per_attempt))

    def list(self, *, outdated: Optional[bool] = None, limit: Optional[int] = None, cursor: Optional[str] = None) -> Paginator[Media]:
        """Every media of the workspace, newest first; ``outdated=True``: only those analysed by an older engine."""
        v.list_params("files.list", limit, cursor)
        method, path = path_for("files.list")
        return Paginator(lambda c: self._http.request_json(method, path, query={"outdated": outdated, "limit": limit, "cursor": c}), cursor)

    def retrieve(self, id: str) -> Media:
        method, path = path_for("files.retrieve", id=v.require_id("files.retrieve", "id", id))
        return cast(Media, self._http.request_json(method, path))

    def delete(self, id: str) -> None:
        method, path = path_for("files.delete", id=v.require_id("files.delete", "id", id))
        self._http.request_json(method, path)

    @overload
    def diarization(self, id: str) -> Diarization: ...
    @overload
    def diarization(self, id: str, format: Literal["json"]) -> Diarization: ...
    @overload
    def diarization(self, id: str, format: Literal["rttm", "vtt", "srt"]) -> str: ...

    def diarization(self, id: str, format: DiarizationFormat = "json") -> Union[Diarization, str]:
        """Who speaks when: the JSON (default), or the text of an ``rttm``, ``vtt`` or ``srt`` file."""
        v.one_of("files.diarization", "format", format, _DIARIZATION_ACCEPT)
        method, path = path_for("files.diarization", id=v.require_id("files.diarization", "id", id))
        if format == "json":
            return cast(Diarization, self._http.request_json(method, path))
        res = self._http.send(method, path, query={"format": format}, headers={"Accept": _DIARIZATION_ACCEPT[format]})
        return res.read().decode("utf-8")

    @overload
    def metrics(self, id: str) -> MediaMetrics: ...
    @overload
    def metrics(self, id: str, format: Literal["json"]) -> MediaMetrics: ...
    @overload
    def metrics(self, id: str, format: Literal["csv"]) -> str: ...

    def metrics(self, id: str, format: Literal["json", "csv"] = "json") -> Union[MediaMetrics, str]:
        """Each speaker's measurements (409 ``ConflictError`` until the analysis is ready); ``csv``: as a CSV file."""
        v.one_of("files.metrics", "format", format, ("json", "csv"))
        method, path = path_for("files.metrics", id=v.require_id("files.metrics", "id", id))
        if format == "json":
            return cast(MediaMetrics, self._http.request_json(method, path))
        return self._http.send(method, path, query={"format": "csv"}, headers={"Accept": "text/csv"}).read().decode("utf-8")

    def reanalyze(self, id: str, *, num_speakers: Union[int, None, _NotGiven] = NOT_GIVEN,
                  min_speakers: Union[int, None, _NotGiven] = NOT_GIVEN, max_speakers: Union[int, None, _NotGiven] = NOT_GIVEN,
                  idempotency_key: Optional[str] = None) -> Media:
        """Analyses the media again with the service's current engine. No hints: the stored ones;
        any hint given replaces them all (``None``: not set, so ``num_speakers=None`` clears them)."""
        where = "files.reanalyze"
        hints = {k: val for k, val in (("numSpeakers", num_speakers), ("minSpeakers", min_speakers), ("maxSpeakers", max_speakers))
                 if not isinstance(val, _NotGiven)}
        v.speaker_hints(where, hints.get("numSpeakers"), hints.get("minSpeakers"), hints.get("maxSpeakers"))
        method, path = path_for("files.reanalyze", id=v.require_id(where, "id", id))
        return cast(Media, self._http.request_json(method, path, json_body=hints, idempotency_key=idempotency_key))

    def content(self, id: str, *, start: Optional[int] = None, end: Optional[int] = None) -> Response:
        """The uploaded file's bytes as a streamed ``Response`` (``iter_bytes()``, ``read()``; use it in a
        ``with``). With ``start`` (and ``end``, inclusive) only that range: the answer is then 206."""
        where = "files.content"
        v.optional_int(where, "start", start, 0, 2**63)
        v.optional_int(where, "end", end, 0, 2**63)
        if end is not None and (start is None or end < start):
            raise ValueError(f"{where}: end needs a start at or below it")
        headers = {"Accept": "*/*"}
        if start is not None:
            headers["Range"] = f"bytes={start}-{'' if end is None else end}"
        method, path = path_for(where, id=v.require_id(where, "id", id))
        return self._http.send(method, path, headers=headers, raw=True)

    def create_content_link(self, id: str, *, expires_in_sec: Optional[int] = None) -> ContentLink:
        """A link that streams this media's bytes without the API key (for a player), for 60 to 3600 s
        (default 900); ``url`` is absolute. Treat it as a secret until it expires."""
        where = "files.create_content_link"
        v.optional_int(where, "expires_in_sec", expires_in_sec, 60, 3600)
        method, path = path_for(where, id=v.require_id(where, "id", id))
        body: dict[str, Any] = {} if expires_in_sec is None else {"expiresInSec": expires_in_sec}
        link = cast(ContentLink, self._http.request_json(method, path, json_body=body))
        link["url"] = self._http.base_url + link["url"]
        return link

    def events(self, id: str, *, last_event_id: Optional[str] = None, max_reconnects: int = 5,
               idle_timeout: float = 45.0) -> Iterator[MediaEvent]:
        """This media's analysis as it happens: its state first, then each change, until
        ``media.ready`` or ``media.failed``, resuming with ``Last-Event-ID`` across cuts."""
        _, path = path_for("files.events", id=v.require_id("files.events", "id", id))
        done = False
        for sse in reconnecting_stream(self._http, path, last_event_id=last_event_id, max_reconnects=max_reconnects,
                                       idle_timeout=idle_timeout, is_last=lambda _e: done):
            event = _media_event(sse)
            if event is None:
                continue
            done = event["event"] != "media.updated"
            yield event

    def stream(self, *, last_event_id: Optional[str] = None, max_reconnects: int = 5,
               idle_timeout: float = 45.0) -> Iterator[MediaEvent]:
        """Every media of the workspace whose analysis changes, from now on; it has no end: break out."""
        _, path = path_for("files.stream")
        for sse in reconnecting_stream(self._http, path, last_event_id=last_event_id, max_reconnects=max_reconnects,
                                       idle_timeout=idle_timeout):
            event = _media_event(sse)
            if event is not None:
                yield event
