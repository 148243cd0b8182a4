"""A game from outside the library has no SVG picture: ``state.svg()`` says so with a
typed error, Jupyter's ``_repr_svg_`` falls back (None), and the harness's SVG checks pass
it by (they bind only the built-in games)."""

from __future__ import annotations

import pytest

from clangames import load
from clangames.engine.rng import Rng
from clangames.rendering.svg import PictureError
from clangames.testing.svg_checks import check_svg


def test_a_game_without_svg_pictures() -> None:
    state = load("toy_duel").initial_state()
    with pytest.raises(PictureError, match="no SVG picture"):
        state.svg()
    assert state._repr_svg_() is None

    def fail(check: str, message: str) -> Exception:
        return AssertionError(f"{check}: {message}")

    check_svg(state, fail, Rng(0))  # passes: nothing to check
