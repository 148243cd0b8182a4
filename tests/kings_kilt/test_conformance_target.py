"""The conformance harness with the other betrayal reading (``betrayal_match="target"``)
and with a different first player: 300 playouts per player count, more in the soak."""

from __future__ import annotations

import pytest

from clangames.testing import check_game
from testing.soak import SOAK_GAMES, SOAK_RATE, soak_test

from .helpers import check_invariants, load


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_target_betrayal(players: int) -> None:
    game = load(players, betrayal_match="target", first_player=players - 1)
    report = check_game(game, playouts=300, seed=7 + players, invariant=check_invariants)
    assert report.playouts == 300
    assert report.max_length <= game.info.max_game_length


@soak_test
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_target_betrayal_soak(players: int) -> None:
    game = load(players, betrayal_match="target", first_player=players - 1)
    report = check_game(
        game, playouts=SOAK_GAMES, seed=70 + players, invariant=check_invariants, rate=SOAK_RATE
    )
    assert report.playouts == SOAK_GAMES
    assert report.max_length <= game.info.max_game_length
