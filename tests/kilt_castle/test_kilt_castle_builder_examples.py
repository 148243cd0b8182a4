"""The Kilt Castle rulebook's illustrations that test_kc_rules.py and test_kc_setup.py pin,
each written again with the scenario builder ``game.position(...)`` and asserting the same
outcome as the original (named in each test's docstring). Card rows are given as they lie
on the table (``{"north0": [...]}``), double cards by the colour they show the board,
towers with the floor letters (a-c red, d-f orange, g-i light grey, j-l dark grey; plain,
1 crest, 2 crests). Moves name positions by number, clockwise from north0 (0).

The overbuilding figure and illustration 8 are twinned in test_kc_position.py.
"""

from __future__ import annotations

import pytest

import clangames
from clangames import IllegalActionError
from clangames.engine.position import PositionError
from clangames.kilt_castle import KiltCastleState

FOUR_ROWS = {
    "north0": ["red", "orange", "light grey", "dark grey"],
    "north1": ["red/orange", "light grey/dark grey", "orange/light grey"],
    "north2": ["red/light grey", "orange/dark grey"],
    "north3": ["red/dark grey"],
}
"""A start-like lay-out for 2 and 4 players (kc_helpers.FOUR_ROWS)."""

EMPTY = [["-"] * 5 for _ in range(5)]


def turn_of(players: int = 4, seat: int = 0, **parts: object) -> KiltCastleState:
    """``seat``'s turn to relocate a card, in the position the parts describe."""
    game = clangames.load("kilt_castle", players=players)
    state = game.position(phase=f"relocate@{seat}", actor=seat, **parts)
    assert isinstance(state, KiltCastleState)
    return state


def texts(state: clangames.State, player: int, starting: str = "") -> list[str]:
    found = (state.action_text(a) for a in state.legal_actions(player))
    return [t for t in found if t.startswith(starting)]


def play(state: clangames.State, *moves: tuple[str, int]) -> KiltCastleState:
    """Apply (action text, player) pairs in order."""
    for text, player in moves:
        state = state.apply_text(text, player)
    assert isinstance(state, KiltCastleState)
    return state


def towers(**spaces: str) -> list[list[str]]:
    """The board with towers at the named spaces (``s2_2="jda"``: space 2.2)."""
    rows = [list(row) for row in EMPTY]
    for key, tower in spaces.items():
        r, c = key.removeprefix("s").split("_")
        rows[int(r)][int(c)] = tower
    return rows


# -- relocation (illustrations 2 to 5) ---------------------------------------------------------


def test_illustration_2_cards_move_clockwise_only() -> None:
    """Twin of test_kc_rules.py::test_a_card_must_move_and_moves_clockwise_round_the_ring."""
    state = turn_of(positions=FOUR_ROWS)
    assert texts(state, 0, "move light grey/dark grey ") == [
        f"move light grey/dark grey to {n}" for n in (2, 3, 4)
    ]
    # a card at 2 reaches 1 only by going on round the ring, past 19 and 0
    assert "move red/light grey to 1" in texts(state, 0)
    with pytest.raises(IllegalActionError, match="at least one position"):
        state.apply_text("move light grey/dark grey to 1", 0)


def test_illustrations_3a_3b_a_lone_card_needs_a_neighbour_behind_it() -> None:
    """Twin of test_kc_rules.py::test_a_lone_card_needs_the_card_behind_it."""
    state = turn_of(positions=FOUR_ROWS)
    legal = texts(state, 0)
    assert "move red/dark grey to 4" not in legal  # 3, behind 4, empties as it leaves
    with pytest.raises(IllegalActionError, match=r"needs a card on the position behind it \(3"):
        state.apply_text("move red/dark grey to 4", 0)
    assert "move red/orange to 4" in legal
    assert "move red/orange to 10" not in legal and "move red/orange to 19" not in legal


def test_illustration_4a_no_fifth_card_in_a_row() -> None:
    """Twin of test_kc_rules.py::test_no_fifth_card_in_a_row."""
    state = turn_of(positions=FOUR_ROWS)
    assert "move red/dark grey to 0" not in texts(state, 0)
    with pytest.raises(IllegalActionError, match="already has 4 cards"):
        state.apply_text("move red/dark grey to 0", 0)


def test_illustration_5_no_sixth_card_row() -> None:
    """Twin of test_kc_rules.py::test_no_sixth_card_row."""
    five_rows = {
        "north0": FOUR_ROWS["north0"],
        "north1": ["red/orange", "light grey/dark grey"],
        "north2": ["orange/light grey"],
        "north3": ["red/light grey", "orange/dark grey"],
        "north4": ["red/dark grey"],
    }
    state = turn_of(positions=five_rows)
    legal = texts(state, 0)
    assert "move red/orange to 5" not in legal
    with pytest.raises(IllegalActionError, match="more than 5 card rows"):
        state.apply_text("move red/orange to 5", 0)
    assert "move orange/light grey to 5" in legal  # a lone card moves on: still 5 rows
    assert "move red/dark grey to 5" not in legal  # ...but not away from every neighbour


def test_illustrations_4b_5_three_players_three_cards_a_row_four_rows() -> None:
    """Twin of test_kc_rules.py::test_three_player_limits."""
    three_rows = {
        "north0": ["red", "orange", "light grey"],
        "north1": ["red/orange", "orange/light grey"],
        "north2": ["red/light grey"],
    }
    assert "move red/orange to 0" not in texts(turn_of(3, positions=three_rows), 0)
    four_rows = {
        "north0": ["red", "orange"],
        "north1": ["red/orange", "light grey"],
        "north2": ["orange/light grey"],
        "north3": ["red/light grey"],
    }
    state = turn_of(3, positions=four_rows)
    assert "move red/orange to 4" not in texts(state, 0)
    with pytest.raises(IllegalActionError, match="more than 4 card rows"):
        state.apply_text("move red/orange to 4", 0)
    assert "move red/orange to 4" in texts(turn_of(positions=FOUR_ROWS), 0)


# -- double cards and the ducat day's trigger ------------------------------------------------


def test_double_card_figure_turns_over_and_sets_the_build_order() -> None:
    """Twin of test_kc_rules.py::test_a_double_card_turns_over_and_sets_the_build_order."""
    state = turn_of(positions=FOUR_ROWS, inner={"red/orange": "red"})
    moved = play(state, ("move red/orange to 2", 0))
    assert "card=red/orange builders=[orange,red]" in moved.to_position()
    assert moved.inner[moved.game.card_names.index("red/orange")] == 1  # orange faces in
    assert moved.to_move == (1,)
    after = play(moved, ("build plain at 0.2", 1))
    assert after.to_move == (0,)
    spaces = {t.rsplit(" ", 1)[1] for t in texts(after, 0)}
    assert spaces == {"0.2", "1.2"}


def test_empty_row_figure_the_ducat_day_comes_after_the_building() -> None:
    """Twin of test_kc_rules.py::test_emptying_a_card_row_brings_a_ducat_day_after_the_building."""
    state = turn_of(
        positions=FOUR_ROWS, inner={"red/dark grey": "dark grey"}, towers=towers(s2_2="c", s3_2="j")
    )
    moved = play(state, ("move red/dark grey to 2", 0))  # the lone card at 3 leaves its row
    assert moved.ducat_day and "builders=[red,dark_grey]" in moved.to_position()
    after = play(moved, ("build plain at 0.2", 0), ("build plain at 3.2", 3))
    # red: its best area is the 2-crest tower, 3; dark grey 1; orange, light grey nothing
    assert after.money == (13, 10, 10, 11)
    assert after.from_bank == 4 and not after.ducat_day


# -- building (illustrations 6a, 6b) and roofs (7a, 7b) ---------------------------------------


def test_illustration_6a_the_first_space_is_empty() -> None:
    """Twin of test_kc_rules.py::test_every_floor_kind_left_is_offered."""
    moved = play(turn_of(), ("move orange to 2", 0))
    assert texts(moved, 1) == [
        "build plain at 0.2",
        "build 1-crest at 0.2",
        "build 2-crest at 0.2",
    ]


def test_illustration_6b_the_empty_space_nearest_the_card() -> None:
    """Twin of test_kc_rules.py::
    test_free_build_only_on_the_first_empty_space_from_the_cards_side."""
    moved = play(turn_of(towers=towers(s0_2="j", s2_2="j")), ("move orange to 2", 0))
    free = {t.rsplit(" ", 1)[1] for t in texts(moved, 1)} - {"0.2", "2.2"}
    assert free == {"1.2"}
    with pytest.raises(IllegalActionError, match="first empty space"):
        moved.apply_text("build plain at 3.2", 1)


def test_illustration_7a_the_second_builder_on_the_space_takes_an_unused_roof() -> None:
    """Twin of test_kc_rules.py::test_second_builder_on_the_same_space_gets_an_unused_roof."""
    state = turn_of(positions=FOUR_ROWS, inner={"red/orange": "red"})
    moved = play(state, ("move red/orange to 2", 0))
    roofed = play(moved, ("build plain at 0.2", 1), ("build plain at 0.2", 0))
    assert roofed.money == (9, 11, 10, 10)  # red overbuilt orange's floor: 1 ducat
    assert "roofed=[0.2]" in roofed.to_position()
    again = play(roofed, ("move orange to 2", 1))
    assert all(not t.endswith(" 0.2") for t in texts(again, 1))
    with pytest.raises(IllegalActionError, match="roof cannot be overbuilt"):
        again.apply_text("build plain at 0.2", 1)


def test_illustration_7b_both_roofs_placed_the_second_builder_moves_one() -> None:
    """Twin of test_kc_rules.py::test_both_roofs_placed_the_second_builder_moves_one."""
    state = turn_of(
        positions=FOUR_ROWS,
        inner={"red/orange": "red"},
        towers=towers(s4_1="j", s3_3="g"),
        roofed=["4.1", "3.3"],
    )
    moved = play(state, ("move red/orange to 2", 0))
    asked = play(moved, ("build plain at 0.2", 1), ("build plain at 0.2", 0))
    assert asked.phase.name == "roof" and asked.to_move == (0,)
    assert len(texts(asked, 0)) == 2
    roof_from_4_1 = next(t for t in texts(asked, 0) if "4.1" in t)
    after = play(asked, (roof_from_4_1, 0))
    assert "roofed=[0.2,3.3]" in after.to_position()
    assert after.phase.name == "relocate" and after.to_move == (1,)


# -- who opens (the single card's example) ------------------------------------------------------


def test_the_lone_cards_outer_colour_opens() -> None:
    """The rulebook's opening example: the card laid out alone is the dark grey and red
    one, red facing away from the board, so red opens. Twin, on that very lay-out, of
    test_kc_setup.py::test_the_start_player_owns_the_outer_colour_of_the_lone_card."""
    game = clangames.load("kilt_castle", players=4)
    waiting = {row: cards for row, cards in FOUR_ROWS.items() if row != "north3"}
    laying = game.position(phase="layout@chance", positions=waiting, actor="-", turns=0)
    assert [laying.action_text(a) for a, _ in laying.chance_outcomes()] == [
        "lay red/dark grey with red inside",
        "lay red/dark grey with dark grey inside",
    ]
    red_outside = laying.apply_text("lay red/dark grey with dark grey inside")
    assert red_outside.to_move == (0,) and red_outside.phase.name == "relocate"
    grey_outside = laying.apply_text("lay red/dark grey with red inside")
    assert grey_outside.to_move == (3,)


# -- the builder's table forms ------------------------------------------------------------------


def test_the_builder_takes_card_rows_and_inner_colours_by_name() -> None:
    """Builder rule: ``positions`` as card rows, ``inner`` as the double cards that matter
    (the rest show their first colour); bad names are refused naming them."""
    state = turn_of(positions=FOUR_ROWS, inner={"light grey/dark grey": "dark grey"})
    text = state.to_position()
    places = "north0,north0,north0,north0,north1,north2,north3,north1,north2,north1"
    assert f"positions=[{places}]" in text
    assert "inner=[red,orange,light_grey,dark_grey,red,red,red,orange,orange,dark_grey]" in text
    game = state.game
    with pytest.raises(PositionError, match="card 'red' is given two places"):
        game.position(positions={"north0": ["red"], "north1": ["red"]})
    with pytest.raises(PositionError, match="token 'purple': expected a card"):
        game.position(positions={"north0": ["purple"]})
    with pytest.raises(PositionError, match="a list of card names"):
        game.position(positions={"north0": "red"})
    with pytest.raises(PositionError, match="token 'redd': expected a card"):
        game.position(inner={"redd": "red"})
    with pytest.raises(PositionError, match="one of the card's colours"):
        game.position(inner={"red": "orange"})
