"""The Python code blocks of README.md and docs/python.md, read from the files themselves."""
from __future__ import annotations

import re
from typing import List

from tests._service import ROOT


def python_blocks(markdown: str, section: str) -> List[str]:
    """The ```python blocks of the ``## section`` of a Markdown text (a prefix of its title)."""
    part = next((s for s in re.split(r"^## ", markdown, flags=re.M) if s.startswith(section)), None)
    if part is None:
        raise AssertionError(f'no "## {section}" section')
    return re.findall(r"```python\n([\s\S]*?)```", part)


def readme_example() -> str:
    blocks = python_blocks((ROOT / "README.md").read_text(), "Python client")
    if len(blocks) != 1:
        raise AssertionError(f"the README's Python client section has {len(blocks)} python blocks, not 1")
    return blocks[0]


def docs_receiver() -> str:
    blocks = python_blocks((ROOT / "docs" / "python.md").read_text(), "Webhooks")
    if len(blocks) != 1:
        raise AssertionError(f"docs/python.md's Webhooks section has {len(blocks)} python blocks, not 1")
    return blocks[0]
