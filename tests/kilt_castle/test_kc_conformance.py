"""Kilt Castle against the kernel's contract: the conformance harness with the game's own
invariants, for 2, 3 and 4 players (set CLANGAMES_SOAK=1 for long soaks)."""

from __future__ import annotations

import os

import pytest

from clangames.testing import check_game

from .kc_helpers import invariant, load

SOAK = os.environ.get("CLANGAMES_SOAK") == "1"
PLAYOUTS = int(os.environ.get("CLANGAMES_SOAK_GAMES", "3000")) if SOAK else 300


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    game = load(players)
    report = check_game(game, playouts=PLAYOUTS, seed=players, invariant=invariant)
    assert report.playouts == PLAYOUTS
    assert report.max_length <= game.info.max_game_length
