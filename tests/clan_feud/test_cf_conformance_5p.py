"""Clan Feud against the kernel's contract for 5 players: 50 playouts by default
(CLANGAMES_SOAK=1 runs CLANGAMES_SOAK_GAMES, 300 unless set), with the game's invariants."""

from __future__ import annotations

import os

from clangames.testing import check_game

from .cf_rules_helpers import invariant, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"
PLAYOUTS = int(os.environ.get("CLANGAMES_SOAK_GAMES", "300")) if SOAK else 50


def test_conformance_5_players() -> None:
    game = load(5)
    report = check_game(game, playouts=PLAYOUTS, seed=5, invariant=invariant)
    assert report.playouts == PLAYOUTS
    assert report.max_length <= game.info.max_game_length
    assert report.steps >= PLAYOUTS * 50
