"""The blocks a section of a result document holds (interface-spec.md "Result document"),
told apart by ``type`` (re-exported by ``rapport.types``, where the drift test reads them and
compares them, each member of the union, with the service's document)."""
from __future__ import annotations

from typing import List, Literal, TypedDict, Union


class CardBlock(TypedDict):
    type: Literal["card"]
    title: str
    content: str
    icon: str


class _TextBlockRequired(TypedDict):
    type: Literal["text"]
    content: str


class TextBlock(_TextBlockRequired, total=False):
    title: str


class GridBlock(TypedDict):
    type: Literal["grid"]
    columns: Literal[2, 3, 4]
    items: List[CardBlock]


class IllustrationBlock(TypedDict):
    type: Literal["illustration"]
    variant: Literal["conversation", "growth", "connection", "analysis"]


#: What a section holds, told apart by ``type``.
Block = Union[CardBlock, TextBlock, GridBlock, IllustrationBlock]
