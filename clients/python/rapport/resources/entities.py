"""``/v1/entities``: the people followed across recordings; list (by tag or text), label, tag,
untag, merge, and their measurements."""
from __future__ import annotations

from typing import Literal, Optional, Sequence, Union, cast, overload

from .. import _validate as v
from .._endpoints import path_for
from .._http import HttpClient
from .._pagination import Paginator
from ..types import Entity, EntityMetrics


def _tags(where: str, tags: Sequence[str]) -> list[str]:
    if isinstance(tags, str) or not isinstance(tags, Sequence) or not tags or not all(isinstance(t, str) and t for t in tags):
        raise ValueError(f"{where}: tags must be a non-empty list of non-empty strings, not {tags!r}")
    return list(tags)


class Entities:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def list(self, *, tag: Optional[str] = None, q: Optional[str] = None, include: Optional[Literal["empty"]] = None,
             limit: Optional[int] = None, cursor: Optional[str] = None) -> Paginator[Entity]:
        """The people found, newest first: ``tag`` only those with it, ``q`` a text search of the names,
        ``include="empty"`` also entities with no appearance left."""
        where = "entities.list"
        v.optional_str(where, "tag", tag)
        v.optional_str(where, "q", q)
        v.one_of(where, "include", include, ("empty",))
        v.list_params(where, limit, cursor)
        method, path = path_for(where)
        return Paginator(lambda c: self._http.request_json(
            method, path, query={"tag": tag, "q": q, "include": include, "limit": limit, "cursor": c}), cursor)

    def retrieve(self, id: str) -> Entity:
        method, path = path_for("entities.retrieve", id=v.require_id("entities.retrieve", "id", id))
        return cast(Entity, self._http.request_json(method, path))

    @overload
    def metrics(self, id: str) -> EntityMetrics: ...
    @overload
    def metrics(self, id: str, format: Literal["json"]) -> EntityMetrics: ...
    @overload
    def metrics(self, id: str, format: Literal["csv"]) -> str: ...

    def metrics(self, id: str, format: Literal["json", "csv"] = "json") -> Union[EntityMetrics, str]:
        """The entity's profile over its analysed media and each appearance's measurements."""
        v.one_of("entities.metrics", "format", format, ("json", "csv"))
        method, path = path_for("entities.metrics", id=v.require_id("entities.metrics", "id", id))
        if format == "json":
            return cast(EntityMetrics, self._http.request_json(method, path))
        return self._http.send(method, path, query={"format": "csv"}, headers={"Accept": "text/csv"}).read().decode("utf-8")

    def update(self, id: str, *, label: Optional[str]) -> Entity:
        """Sets the label (None clears it)."""
        where = "entities.update"
        v.optional_str(where, "label", label)
        method, path = path_for(where, id=v.require_id(where, "id", id))
        return cast(Entity, self._http.request_json(method, path, json_body={"label": label}))

    def tag(self, id: str, tags: Sequence[str], *, idempotency_key: Optional[str] = None) -> Entity:
        where = "entities.tag"
        method, path = path_for(where, id=v.require_id(where, "id", id))
        return cast(Entity, self._http.request_json(method, path, json_body={"tags": _tags(where, tags)},
                                                    idempotency_key=idempotency_key))

    def untag(self, id: str, tag: str) -> Entity:
        where = "entities.untag"
        method, path = path_for(where, id=v.require_id(where, "id", id), tag=v.require_id(where, "tag", tag))
        return cast(Entity, self._http.request_json(method, path))

    def merge(self, *, into: str, from_: Sequence[str], idempotency_key: Optional[str] = None) -> Entity:
        """Folds the ``from_`` entities into ``into``: their appearances and tags move, they disappear."""
        where = "entities.merge"
        v.require_id(where, "into", into)
        if isinstance(from_, str) or not isinstance(from_, Sequence) or not from_:
            raise ValueError(f"{where}: from_ must be a non-empty list of entity ids")
        for i, item in enumerate(from_):
            v.require_id(where, f"from_[{i}]", item)
        method, path = path_for(where)
        return cast(Entity, self._http.request_json(method, path, json_body={"into": into, "from": list(from_)},
                                                    idempotency_key=idempotency_key))
