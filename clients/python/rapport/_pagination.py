"""Cursor pages (``{ data, nextCursor }``, newest first). A list method answers a ``Paginator``:
iterate it for every item of every page, each page fetched only when the loop gets there, or ask
it for ``first_page()`` / ``pages()``.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, List, Optional, TypeVar

T = TypeVar("T")

#: Fetches the page after a cursor (None: the first page) and answers the parsed JSON list.
PageFetcher = Callable[[Optional[str]], Any]


class Page(Generic[T]):
    def __init__(self, answer: Any, fetch: PageFetcher) -> None:
        if not isinstance(answer, dict) or not isinstance(answer.get("data"), list):
            raise TypeError("a list answer must be { data, nextCursor }")
        self.data: List[T] = answer["data"]
        cursor = answer.get("nextCursor")
        self.next_cursor: Optional[str] = cursor if isinstance(cursor, str) else None
        self._fetch = fetch

    def has_next_page(self) -> bool:
        return self.next_cursor is not None

    def get_next_page(self) -> "Page[T]":
        if self.next_cursor is None:
            raise StopIteration("no next page: check has_next_page() first")
        return Page(self._fetch(self.next_cursor), self._fetch)

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


class Paginator(Generic[T]):
    """Lazy: nothing is requested until it is iterated (or ``first_page()`` is called)."""

    def __init__(self, fetch: PageFetcher, cursor: Optional[str] = None) -> None:
        self._fetch = fetch
        self._cursor = cursor

    def first_page(self) -> Page[T]:
        return Page(self._fetch(self._cursor), self._fetch)

    def pages(self) -> Iterator[Page[T]]:
        page: Page[T] = self.first_page()
        yield page
        while page.next_cursor is not None:
            page = page.get_next_page()
            yield page

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.data
