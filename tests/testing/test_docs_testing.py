"""docs/testing.md stays true: its Python blocks run, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "testing.md"


def test_the_tutorial_code_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 7
    namespace: dict[str, object] = {"__name__": "docs_testing"}
    for i, block in enumerate(blocks):
        # a pseudo file name: Hypothesis must not try to read the Markdown as Python
        exec(compile(block, f"<docs/testing.md block {i}>", "exec"), namespace)
