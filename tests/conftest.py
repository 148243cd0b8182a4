"""Settings shared by the whole suite."""

from __future__ import annotations

import os

import pytest

_LENGTHENED = (
    "CLANGAMES_SOAK",
    "CLANGAMES_SOAK_GAMES",
    "CLANGAMES_FUZZ_SCALE",
    "CLANGAMES_ISMCTS_GAMES",
    "CLANGAMES_ISMCTS_CF_GAMES",
)
"""The variables that make tests run longer than CI's (see tests/testing/soak.py)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Lift the per-test timeout (pyproject.toml) from soaks and from any run lengthened by
    a variable: their length is the user's choice, and one soak alone can take an hour."""
    lengthened = any(os.environ.get(name) for name in _LENGTHENED)
    for item in items:
        if lengthened or item.get_closest_marker("soak") is not None:
            # first, so it wins over a test's own longer limit (closest marker first)
            item.add_marker(pytest.mark.timeout(0), append=False)
