"""The toy games are registered only while this folder's test modules run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from testing import toys


@pytest.fixture(autouse=True, scope="module")
def _toy_games_registered() -> Iterator[None]:
    with toys.registered():
        yield
