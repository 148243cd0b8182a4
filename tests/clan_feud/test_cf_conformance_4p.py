"""The kernel's conformance harness on Clan Feud with 4 players: 300 seeded random games in
CI with the game's invariants checked at every step; a soak of many more with
CLANGAMES_SOAK=1 (see tests/testing/soak.py). Random play seldom fights a battle, so
test_cf_battle_contract.py checks every state of random walks through battles. England at
war (part 2) is reached by more games from the track's step 10 (``england_start``): 100 in
CI, a tenth of the soak's count with CLANGAMES_SOAK=1."""

from __future__ import annotations

from clangames.testing import check_game
from testing.soak import SOAK_GAMES, SOAK_RATE, soak_test

from .cf_rules_helpers import at_war_invariant, invariant, load


def test_conformance_4_players() -> None:
    game = load(4)
    report = check_game(game, playouts=300, seed=4, invariant=invariant)
    assert report.playouts == 300
    assert report.max_length <= game.info.max_game_length
    assert report.steps >= 300 * 50


@soak_test
def test_conformance_4_players_soak() -> None:
    game = load(4)
    report = check_game(
        game, playouts=SOAK_GAMES, seed=100 + 4, invariant=invariant, rate=SOAK_RATE
    )
    assert report.playouts == SOAK_GAMES
    assert report.max_length <= game.info.max_game_length


def test_conformance_4_players_at_war() -> None:
    game = load(4, england_start=10)
    check, seen = at_war_invariant()
    report = check_game(game, playouts=100, seed=200 + 4, invariant=check)
    assert report.playouts == 100
    assert report.max_length <= game.info.max_game_length
    assert seen["english"] and seen["english battles"]  # war was reached and fought


@soak_test
def test_conformance_4_players_at_war_soak() -> None:
    game = load(4, england_start=10)
    check, seen = at_war_invariant()
    games = max(1, SOAK_GAMES // 10)
    report = check_game(game, playouts=games, seed=300 + 4, invariant=check, rate=SOAK_RATE)
    assert report.playouts == games
    assert report.max_length <= game.info.max_game_length
    assert seen["english"] and seen["english battles"]
