"""The conformance harness for 5 players: 300 playouts in CI, a soak of many more with
CLANGAMES_SOAK=1 (see tests/testing/soak.py).

check_game checks the kernel's contract (the cheap checks on every state, the full ones on
a seeded sample that includes the first states of every kind of node), including the
resample leak test at the simultaneous commit step: a half-committed round must not show
anyone else's card.
"""

from __future__ import annotations

from clangames.testing import check_game
from testing.soak import SOAK_GAMES, SOAK_RATE, soak_test

from .helpers import card_invariant, load


def test_conformance_5_players() -> None:
    game = load(5)
    report = check_game(game, playouts=300, seed=5, invariant=card_invariant)
    assert report.playouts == 300
    assert report.max_length <= game.info.max_game_length
    assert report.steps >= 300 * 10


@soak_test
def test_conformance_5_players_soak() -> None:
    game = load(5)
    report = check_game(
        game, playouts=SOAK_GAMES, seed=50, invariant=card_invariant, rate=SOAK_RATE
    )
    assert report.playouts == SOAK_GAMES
    assert report.max_length <= game.info.max_game_length
