"""The conformance harness for 2 players: 300 playouts (more with CLANGAMES_SOAK=1).

check_game checks the kernel's contract at every step, including the resample leak test
at the simultaneous commit step: a half-committed round must not show anyone else's card.
One file per player count keeps each file well under a minute.
"""

from __future__ import annotations

import os

from clangames.testing import check_game

from .helpers import card_invariant, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"
PLAYOUTS = int(os.environ.get("CLANGAMES_SOAK_GAMES", "3000")) if SOAK else 300


def test_conformance_2_players() -> None:
    game = load(2)
    report = check_game(game, playouts=PLAYOUTS, seed=2, invariant=card_invariant)
    assert report.playouts == PLAYOUTS
    assert report.max_length <= game.info.max_game_length
    assert report.steps >= PLAYOUTS * 10
