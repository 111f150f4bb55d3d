"""The ``multipart/form-data`` body of an upload, written by hand as a stream of chunks, so that a
file of any size is sent without being read whole into memory, and so that the client can count
the bytes as the connection takes them (the progress callback).
"""
from __future__ import annotations

import io
import os
import secrets
from typing import IO, Callable, Dict, Iterable, Iterator, NamedTuple, Optional, Tuple, Union

#: What ``files.upload`` accepts: a path, bytes, or a binary file object opened by the caller.
Uploadable = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]

CHUNK_SIZE = 256 * 1024


class UploadProgress(NamedTuple):
    """File bytes handed to the connection so far, and the file's size when known."""

    loaded: int
    total: Optional[int]


ProgressCallback = Callable[[UploadProgress], None]


def _quote(value: str) -> str:
    return "".join("%22" if c == '"' else "\\\\" if c == "\\" else " " if c in "\r\n" else c for c in value)


class MultipartBody:
    """One fresh multipart stream per attempt (``open``); a file object that cannot seek is sent once."""

    def __init__(self, source: Uploadable, fields: Dict[str, Optional[str]], filename: Optional[str] = None,
                 content_type: Optional[str] = None, on_progress: Optional[ProgressCallback] = None,
                 chunk_size: int = CHUNK_SIZE) -> None:
        self._fields = {k: v for k, v in fields.items() if v is not None}
        self._content_type = content_type or "application/octet-stream"
        self._on_progress = on_progress
        self._chunk_size = chunk_size
        self._path: Optional[str] = None
        self._bytes: Optional[bytes] = None
        self._file: Optional[IO[bytes]] = None
        self._start = 0
        self.size: Optional[int]
        self._replayable = True
        if isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            if not os.path.isfile(path):
                raise FileNotFoundError(f"files.upload: no file at {path!r}")
            self._path = path
            self.size = os.path.getsize(path)
            default_name = os.path.basename(path)
        elif isinstance(source, (bytes, bytearray, memoryview)):
            self._bytes = bytes(source)
            self.size = len(self._bytes)
            default_name = "upload"
        elif hasattr(source, "read"):
            if isinstance(source, io.TextIOBase):
                raise TypeError("files.upload: open the file in binary mode ('rb'), not text mode")
            self._file = source
            name = getattr(source, "name", None)
            default_name = os.path.basename(name) if isinstance(name, str) and name else "upload"
            seekable = getattr(source, "seekable", None)
            if callable(seekable) and seekable():
                self._start = source.tell()
                self.size = source.seek(0, io.SEEK_END) - self._start
                source.seek(self._start)
            else:
                self.size = None
                self._replayable = False
        else:
            raise TypeError(f"files.upload: pass a path, bytes or a binary file object, not {type(source).__name__}")
        self.filename = filename or default_name or "upload"

    @property
    def replayable(self) -> bool:
        return self._replayable

    def open(self) -> Tuple[Dict[str, str], Iterable[bytes]]:
        boundary = f"----rapport{secrets.token_hex(12)}"
        head = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(k)}"\r\n\r\n{v}\r\n'
                       for k, v in self._fields.items())
        head += f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{_quote(self.filename)}"\r\n'
        head += f"Content-Type: {self._content_type}\r\n\r\n"
        head_bytes = head.encode("utf-8")
        tail = f"\r\n--{boundary}--\r\n".encode("ascii")
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        if self.size is not None:
            headers["Content-Length"] = str(len(head_bytes) + self.size + len(tail))
        return headers, self._chunks(head_bytes, tail)

    def _chunks(self, head: bytes, tail: bytes) -> Iterator[bytes]:
        yield head
        loaded = 0
        self._report(loaded)
        for chunk in self._content():
            yield chunk
            loaded += len(chunk)
            self._report(loaded)
        yield tail

    def _report(self, loaded: int) -> None:
        if self._on_progress is not None:
            self._on_progress(UploadProgress(loaded, self.size))

    def _content(self) -> Iterator[bytes]:
        if self._bytes is not None:
            for i in range(0, len(self._bytes), self._chunk_size):
                yield self._bytes[i:i + self._chunk_size]
            return
        if self._path is not None:
            with open(self._path, "rb") as f:
                yield from _read_all(f, self._chunk_size)
            return
        assert self._file is not None
        if self._replayable:
            self._file.seek(self._start)
        yield from _read_all(self._file, self._chunk_size)


def _read_all(f: IO[bytes], chunk_size: int) -> Iterator[bytes]:
    while True:
        chunk = f.read(chunk_size)
        if not chunk:
            return
        if not isinstance(chunk, (bytes, bytearray)):
            raise TypeError("files.upload: the file object must give bytes (open it with 'rb')")
        yield bytes(chunk)
