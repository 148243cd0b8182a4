"""The kernel's conformance harness on King's Kilt with 3 players: 300 seeded random games
in CI, with the game's own invariants checked at every step; a soak of many more with
CLANGAMES_SOAK=1 (see tests/testing/soak.py)."""

from __future__ import annotations

from clangames.testing import check_game
from testing.soak import SOAK_GAMES, SOAK_RATE, soak_test

from .helpers import check_invariants, load


def test_conformance_3_players() -> None:
    game = load(3)
    report = check_game(game, playouts=300, seed=3000, invariant=check_invariants)
    assert report.playouts == 300
    assert report.max_length <= game.info.max_game_length
    assert report.steps >= 300 * 60  # setup alone takes 25+ steps; games run much longer


@soak_test
def test_conformance_3_players_soak() -> None:
    game = load(3)
    report = check_game(
        game, playouts=SOAK_GAMES, seed=3001, invariant=check_invariants, rate=SOAK_RATE
    )
    assert report.playouts == SOAK_GAMES
    assert report.max_length <= game.info.max_game_length
