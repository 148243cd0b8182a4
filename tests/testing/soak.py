"""The soak switch of the conformance tests.

Every game's conformance file runs 300 harness playouts per player count in CI and has a
``soak``-marked twin that runs only with ``CLANGAMES_SOAK=1``: ``CLANGAMES_SOAK_GAMES``
playouts (3000 unless set) from another seed, with the full checks at ``SOAK_RATE``. Run
just the soaks with ``CLANGAMES_SOAK=1 pytest -m soak``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

import pytest

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"
SOAK_GAMES = int(os.environ.get("CLANGAMES_SOAK_GAMES", "3000"))
SOAK_RATE = 0.1
"""Ten times the default rate: a soak has the time to check more states fully."""

F = TypeVar("F", bound=Callable[..., object])


def soak_test(test: F) -> F:
    """Mark ``test`` as a soak, skipped unless ``CLANGAMES_SOAK=1``."""
    skipped = pytest.mark.skipif(not SOAK, reason="a long soak: set CLANGAMES_SOAK=1")(test)
    marked: F = pytest.mark.soak(skipped)
    return marked
