"""The kernel's conformance harness on King's Kilt with 3 players (300 seeded random games;
many more with CLANGAMES_SOAK=1), with the game's own invariants checked at every step."""

from __future__ import annotations

from clangames.testing import check_game

from .helpers import check_invariants, load, playouts


def test_conformance_3_players() -> None:
    game = load(3)
    count = playouts(300)
    report = check_game(game, playouts=count, seed=3000, invariant=check_invariants)
    assert report.playouts == count
    assert report.max_length <= game.info.max_game_length
    assert report.steps >= count * 60  # setup alone takes 25+ steps; games run much longer
