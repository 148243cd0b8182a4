"""Kilt Castle against the kernel's contract: the conformance harness with the game's own
invariants, 300 playouts for each of 2, 3 and 4 players in CI, under both readings of
relocation rule I (``relocation_neighbour``, ruling KC-6), and a soak of many more with
CLANGAMES_SOAK=1 (see tests/testing/soak.py)."""

from __future__ import annotations

import pytest

from clangames.testing import check_game
from testing.soak import SOAK_GAMES, SOAK_RATE, soak_test

from .kc_helpers import invariant, load


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    game = load(players)
    report = check_game(game, playouts=300, seed=players, invariant=invariant)
    assert report.playouts == 300
    assert report.max_length <= game.info.max_game_length


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_with_either_neighbour(players: int) -> None:
    game = load(players, relocation_neighbour="either")
    report = check_game(game, playouts=300, seed=20 + players, invariant=invariant)
    assert report.playouts == 300
    assert report.max_length <= game.info.max_game_length


@soak_test
@pytest.mark.parametrize("reading", ["behind", "either"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_soak(players: int, reading: str) -> None:
    game = load(players, relocation_neighbour=reading)
    seed = (10 if reading == "behind" else 30) + players
    report = check_game(game, playouts=SOAK_GAMES, seed=seed, invariant=invariant, rate=SOAK_RATE)
    assert report.playouts == SOAK_GAMES
    assert report.max_length <= game.info.max_game_length
