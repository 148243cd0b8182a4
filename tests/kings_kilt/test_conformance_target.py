"""The conformance harness with the other betrayal reading (``betrayal_match="target"``)
and with a different first player."""

from __future__ import annotations

import pytest

from clangames.testing import check_game

from .helpers import check_invariants, load, playouts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_target_betrayal(players: int) -> None:
    game = load(players, betrayal_match="target", first_player=players - 1)
    count = playouts(40)
    report = check_game(game, playouts=count, seed=7 + players, invariant=check_invariants)
    assert report.playouts == count
    assert report.max_length <= game.info.max_game_length
