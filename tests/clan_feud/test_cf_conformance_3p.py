"""The kernel's conformance harness on Clan Feud with 3 players: 300 seeded random games in
CI with the game's invariants checked at every step; a soak of many more with
CLANGAMES_SOAK=1 (see tests/testing/soak.py). Random play seldom fights a battle, so
test_cf_battle_contract.py checks every state of random walks through battles."""

from __future__ import annotations

from clangames.testing import check_game
from testing.soak import SOAK_GAMES, SOAK_RATE, soak_test

from .cf_rules_helpers import invariant, load


def test_conformance_3_players() -> None:
    game = load(3)
    report = check_game(game, playouts=300, seed=3, invariant=invariant)
    assert report.playouts == 300
    assert report.max_length <= game.info.max_game_length
    assert report.steps >= 300 * 50


@soak_test
def test_conformance_3_players_soak() -> None:
    game = load(3)
    report = check_game(
        game, playouts=SOAK_GAMES, seed=100 + 3, invariant=invariant, rate=SOAK_RATE
    )
    assert report.playouts == SOAK_GAMES
    assert report.max_length <= game.info.max_game_length
