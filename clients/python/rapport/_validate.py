"""Argument checks that run before any request, so that a mistake fails at once with a message
naming the argument, instead of as a 400 from the service (or not at all)."""
from __future__ import annotations

from typing import Any, Collection, Optional, Sequence


def require_id(where: str, name: str, value: object) -> str:
    if not isinstance(value, str) or value.strip() == "":
        raise ValueError(f"{where}: {name} must be a non-empty string, not {value!r}")
    return value


def optional_int(where: str, name: str, value: object, low: int, high: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where}: {name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def optional_str(where: str, name: str, value: object) -> Optional[str]:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{where}: {name} must be a string, not {value!r}")
    return value


def one_of(where: str, name: str, value: object, allowed: Collection[str]) -> Optional[str]:
    if value is None:
        return None
    if value not in allowed:
        raise ValueError(f"{where}: {name} must be one of {', '.join(sorted(allowed))}, not {value!r}")
    assert isinstance(value, str)
    return value


def list_params(where: str, limit: object, cursor: object) -> None:
    optional_int(where, "limit", limit, 1, 100)
    optional_str(where, "cursor", cursor)


def speaker_hints(where: str, num: object, low: object, high: object) -> None:
    for name, value in (("num_speakers", num), ("min_speakers", low), ("max_speakers", high)):
        optional_int(where, name, value, 1, 20)
    if num is not None and (low is not None or high is not None):
        raise ValueError(f"{where}: give num_speakers, or a range with min_speakers/max_speakers, not both")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        raise ValueError(f"{where}: min_speakers ({low}) is above max_speakers ({high})")


def members(where: str, name: str, value: object, low: int, high: int) -> Sequence[Any]:
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, Sequence):
        raise ValueError(f"{where}: {name} must be a list of members")
    if not low <= len(value) <= high:
        raise ValueError(f"{where}: {name} must hold {low} to {high} members, not {len(value)}")
    for i, item in enumerate(value):
        member(where, f"{name}[{i}]", item)
    return value


def member(where: str, name: str, value: object) -> None:
    """A member: {"type": "entity_id", "entityId"} or {"type": "media_target", "mediaId", "selector"}."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: {name} must be a dict such as "
                         "{'type': 'media_target', 'mediaId': ..., 'selector': {'strategy': 'dominant'}}")
    kind = value.get("type")
    if kind == "entity_id":
        require_id(where, f"{name}.entityId", value.get("entityId"))
    elif kind == "media_target":
        require_id(where, f"{name}.mediaId", value.get("mediaId"))
        selector = value.get("selector")
        if not isinstance(selector, dict) or not isinstance(selector.get("strategy"), str):
            raise ValueError(f"{where}: {name}.selector must be a dict with a strategy")
    else:
        raise ValueError(f"{where}: {name}.type must be 'entity_id' or 'media_target', not {kind!r}")
