"""Kilt Castle positions: exact round trips over seeded games of every player count and
Hypothesis-drawn states, refusals naming the bad token, the names in the kernel contract,
and the rulebook figures of test_kc_rules.py written again with the scenario builder."""

from __future__ import annotations

import pytest

from clangames.engine.position import PositionError
from clangames.kilt_castle import Build, KiltCastleState, area_values, ducat_day
from position_helpers import assert_round_trips, hypothesis_round_trip, refused

from .kc_helpers import DARK, LIGHT, ORANGE, RED, floor, load, move, table


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip_over_seeded_games(players: int) -> None:
    assert assert_round_trips(load(players), range(3)) > 150


def test_round_trip_of_hypothesis_drawn_states() -> None:
    hypothesis_round_trip("kilt_castle", max_examples=15)


def test_names_are_in_the_kernel_contract() -> None:
    game = load(3)
    names = game.names
    assert names["colour"] == ("red", "orange", "light grey", "dark grey")
    assert names["card"] == game.card_names
    assert names["space"][:3] == ("0.0", "0.1", "0.2")
    assert names["floor"][:3] == ("a", "b", "c")
    assert names["place"][0] == "north0"


def test_bad_text_is_refused_naming_the_token() -> None:
    game = load(3)
    good = game.initial_state().to_position()
    message = refused(game, good.replace("inner=[red,", "inner=[purple,"))
    assert "'purple'" in message and "expected a colour (red, orange, light_grey" in message
    message = refused(game, good.replace("money=[10,10,10]", "money=[10,10,11]"))
    assert "ducats do not add up" in message and "money=[10,10,11]" not in message
    rows = "towers=[[-,-,-,-,-],[-,-,-,-,-],[-,-,-,-,-],[-,-,-,-,-],[-,-,-,-,-]]"
    assert rows in good
    message = refused(game, good.replace(rows, "towers=[[-,-,-,-,-]]"))
    assert "expected 5 rows, got 1" in message
    message = refused(game, good.replace(rows, rows.replace("[-,-,-,-,-]]", "[-,-,-,-]]")))
    assert "expected 5 entries in row 5, got 4" in message


OVERBUILT = "[[-,-,-,-,-],[-,-,-,-,-],[-,-,jda,-,-],[-,-,-,-,-],[-,-,-,-,-]]"
"""Space 2.2 holds a dark grey, an orange and a red floor (j, d, a: no crests)."""


def test_overbuilding_figure_with_the_builder() -> None:
    game = load(4)
    state = game.position(phase="relocate@0", actor=0, towers=OVERBUILT)
    # the same table as the hand-made helper's, in one line
    assert state == table(towers={(2, 2): [floor(DARK), floor(ORANGE), floor(RED)]})
    assert isinstance(state, KiltCastleState)
    s = move(state, "orange", 2)
    s = s.apply(Build(2, 2, 0), 1)
    assert s.money == (13, 7, 10, 10)  # 3 floors overbuilt: 3 ducats to the old top's owner


ILLUSTRATION = "[[g,g,d,-,-],[h,g,-,-,j],[d,-,-,-,-],[-,-,l,k,-],[-,-,a,-,-]]"
"""Rulebook illustration 8: light grey towers, two roofs, dark grey areas, a red tower."""


def test_ducat_day_illustration_with_the_builder() -> None:
    game = load(4)
    state = game.position(phase="relocate@0", actor=0, towers=ILLUSTRATION, roofed=["0.2", "2.0"])
    towers = {
        (0, 0): [floor(LIGHT)],
        (0, 1): [floor(LIGHT)],
        (1, 0): [floor(LIGHT, 1)],
        (1, 1): [floor(LIGHT)],
        (0, 2): [floor(ORANGE)],
        (2, 0): [floor(ORANGE)],
        (3, 2): [floor(DARK, 2)],
        (3, 3): [floor(DARK, 1)],
        (1, 4): [floor(DARK)],
        (4, 2): [floor(RED)],
    }
    assert state == table(towers=towers, roofs=[(0, 2), (2, 0)])
    assert isinstance(state, KiltCastleState)
    assert area_values(game, state.towers, state.roofed, DARK) == [5, 1, 1, 1]
    assert area_values(game, state.towers, state.roofed, LIGHT) == [7]
    assert ducat_day(game, state.towers, state.roofed) == (1, 1, 7, 5)


def test_the_builder_balances_supply_and_bank() -> None:
    game = load(3)
    state = game.position(money=[15, 10, 10])
    assert isinstance(state, KiltCastleState)
    assert state.from_bank == 5
    with pytest.raises(PositionError, match="a is placed 12 times, the game has 11"):
        game.position(towers=[["a" * 12, "-", "-", "-", "-"]] + [["-"] * 5] * 4)
