"""The King's Kilt rulebook's examples and lettered figures that the rulings tests pin, each
written again with the scenario builder ``game.position(...)`` and asserting the same
outcome as the original (named in each test's docstring). Pyramids are lists of rows,
bottom row first; the builder sets the reminder flags and the crown from the highest card.

The scoring example's twin is in test_position.py
(``test_the_rulebook_scoring_example_with_the_builder``).
"""

from __future__ import annotations

import pytest

import clangames
from clangames import IllegalActionError
from clangames.kings_kilt import KingsKiltState

from .helpers import finish_with_passes


def load(players: int, **params: object) -> clangames.Game:
    return clangames.load("kings_kilt", players=players, **params)


def texts(state: clangames.State, starting: str = "") -> list[str]:
    """The legal actions' texts that start with ``starting``."""
    return [t for t in map(state.action_text, state.legal_actions()) if t.startswith(starting)]


def play(state: clangames.State, *moves: str) -> KingsKiltState:
    for move in moves:
        state = state.apply_text(move)
    assert isinstance(state, KingsKiltState)
    return state


EMPTY_ABOVE_ROW_1 = [["-"] * 5, ["-"] * 4, ["-"] * 3, ["-"] * 2, ["-"]]


def test_advance_figure_support_on_the_side_it_climbs() -> None:
    """Advancing, figures A-C: a card climbs only towards a neighbour; an empty space beside
    it blocks that direction.
    Twin of test_rulings.py::test_advance_needs_support_on_its_own_side."""
    row_1 = ["Macleod", "-", "Macbeth", "Bruce", "Buchanan", "Douglas"]
    state = load(3).position(pyramid=[row_1, *EMPTY_ABOVE_ROW_1])
    assert texts(state, "advance") == [
        "advance 1.2 up-right",
        "advance 1.3 up-left",
        "advance 1.3 up-right",
        "advance 1.4 up-left",
        "advance 1.4 up-right",
        "advance 1.5 up-left",
    ]


BETRAY = [
    ["Macleod", "Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas"],
    ["Macleod", "Bruce", "Douglas", "-", "-"],
    ["Mackay", "Macbeth", "-", "-"],
    ["Buchanan", "-", "-"],
    ["-", "-"],
    ["-"],
]
"""A Buchanan nobleman (4.0) over a Mackay (3.0) and a Macbeth (3.1)."""


def test_betrayal_figure_the_card_leaves_and_its_space_is_refilled() -> None:
    """Betraying, figures A-D: an Influence card (A) makes a card (B) betray a neighbour
    (C), which leaves the game; the vacancy is filled as usual (D). Twin of
    test_rulings.py::test_betrayal_card_leaves_the_game_influence_goes_to_discards."""
    state = load(3).position(pyramid=BETRAY, hands=[["Mackay", "Buchanan"], [], []], top="Stewart")
    betrayed = play(state, "betray 4.0 with Mackay")
    assert "hands=[[Buchanan],[],[]]" in betrayed.to_position()
    assert "discards=[Mackay] removed=[Buchanan]" in betrayed.to_position()
    assert texts(betrayed) == ["fill from 3.0", "fill from 3.1"]
    after = play(betrayed, "fill from 3.1", "fill from 2.2", "fill from 1.2")
    assert (
        "pyramid=[[Macleod,Mackay,Stewart,Bruce,Buchanan,Douglas],[Macleod,Bruce,Macbeth,-,-],"
        "[Mackay,Douglas,-,-],[Macbeth,-,-],[-,-],[-]]"
    ) in after.to_position()


def test_betrayal_in_the_bottom_three_rows_takes_any_influence_card() -> None:
    """Twin of test_rulings.py::test_betrayal_rows_one_to_three_take_any_influence_card."""
    state = load(3).position(pyramid=BETRAY, hands=[["Hamilton", "Stewart"], [], []])
    assert texts(state, "betray 3.1 ") == ["betray 3.1 with Hamilton", "betray 3.1 with Stewart"]
    assert texts(state, "betray 1.5 ") == ["betray 1.5 with Hamilton", "betray 1.5 with Stewart"]
    assert texts(state, "betray 4.0 ") == []


def test_betrayal_in_the_top_three_rows_needs_the_matching_clan() -> None:
    """Twin of test_rulings.py::test_betrayal_top_rows_match_the_traitor_by_default."""
    state = load(3).position(pyramid=BETRAY, hands=[["Mackay", "Buchanan", "Hamilton"], [], []])
    assert texts(state, "betray 4.0 ") == ["betray 4.0 with Mackay"]
    with pytest.raises(IllegalActionError, match="betraying neighbour's clan"):
        state.apply_text("betray 4.0 with Buchanan")


FULL = [
    ["Macleod", "Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas"],
    ["Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas"],
    ["Douglas", "Hamilton", "Stewart", "Macleod"],
    ["Macleod", "Macbeth", "Bruce"],
    ["Mackay", "Buchanan"],
    ["Mackay"],
]
"""A full pyramid with a Mackay King (the Clan Leaders long since drawn: ``leaders=[]``)."""


def test_the_king_and_your_own_clan_can_be_betrayed() -> None:
    """Any card can be betrayed, the King too, even by a card of its own clan. Twin of
    test_rulings.py::test_betrayal_of_own_clan_is_allowed and
    ::test_betrayal_of_the_king_refills_from_beneath."""
    game = load(3)
    state = game.position(pyramid=FULL, hands=[["Mackay"], [], []], leaders=[])
    assert "betray 6.0 with Mackay" in texts(state)
    assert "betray 5.0 with Mackay" in texts(state)
    hands = [["Mackay", "Buchanan", "Hamilton"], [], []]
    state = game.position(pyramid=FULL, hands=hands, leaders=[], top="Stewart")
    assert texts(state, "betray 6.0 ") == ["betray 6.0 with Mackay", "betray 6.0 with Buchanan"]
    after = play(state, "betray 6.0 with Buchanan", "fill from 5.1", "fill from 4.2")
    after = play(after, "fill from 3.3", "fill from 2.4", "fill from 1.5")
    assert after.card_at(6, 0) == "Buchanan" and after.crowned
    assert texts(after, "advance") == []


GUARDIANS = [
    ["Macleod", "Mackay", "Macbeth", "Bruce", "Buchanan", "Douglas"],
    ["Mackay", "Macbeth", "Bruce", "Buchanan", "-"],
    ["Douglas", "Hamilton", "Stewart", "-"],
    ["Buchanan", "Macleod", "-"],
    ["-", "-"],
    ["-"],
]
"""Row 4 reached, row 5 not yet: the next climb from 4.1 triggers the Guardians."""


def test_two_players_the_guardians_leave_one_family_card_face_down() -> None:
    """The rulebook's two-player Guardians reminder. Twin of
    test_rulings.py::test_reveal_two_players_guardians_until_one_face_down (none revealed)."""
    state = load(2).position(
        phase="turn@1",
        actor=1,
        pyramid=GUARDIANS,
        families=[["Macleod", "Mackay", "Macbeth"], ["Mackay", "Macbeth", "Bruce"]],
        top="Stewart",
    )
    s = play(state, "advance 4.1 up-left", "fill from 3.2", "fill from 2.3", "fill from 1.4")
    while s.is_chance:  # the draw pile's next card turns up
        s = play(s, s.action_text(s.legal_actions()[0]))
    assert s.reveal_queue == (1, 1)
    s = play(s, s.action_text(s.legal_actions()[0]))
    s = play(s, s.action_text(s.legal_actions()[0]))
    assert s.revealed[1].bit_count() == 2 and s.revealed[0] == 0
    assert s.to_move == (0,) and s.phase.name == "turn"


def test_ten_points_is_the_perfect_score() -> None:
    """Twin of test_rulings.py::test_scoring_perfect_score_is_ten (its position)."""
    top = [["Mackay", "Macbeth", "Bruce"], ["Mackay", "Mackay"], ["Mackay"]]
    state = load(3).position(
        pyramid=[["-"] * 6, ["-"] * 5, ["-"] * 4, *top],
        families=[["Mackay", "Macbeth", "Bruce"], [], []],
    )
    assert state.scores()[0] == 10


def test_a_tie_goes_to_the_most_influence_cards_left() -> None:
    """Twin of test_rulings.py::test_winner_tie_broken_by_influence_cards_left."""
    top = [["Bruce", "Buchanan", "Douglas"], ["Mackay", "Macbeth"], ["Macleod"]]
    state = load(3).position(
        pyramid=[["-"] * 6, ["-"] * 5, ["-"] * 4, *top],
        families=[
            ["Macleod", "Bruce", "Stewart"],
            ["Mackay", "Macbeth", "Hamilton"],
            ["Bruce", "Hamilton", "Stewart"],
        ],
        hands=[["Hamilton"], ["Hamilton*2"], ["Hamilton*3"]],
        leaders=[],
    )
    end = finish_with_passes(state)
    assert end.scores() == (4, 4, 1)
    assert end.winners() == (1,)
    assert end.returns() == (0.0, 1.0, 0.0)


def test_the_builder_sets_the_reminders_and_crown_the_pyramid_has_reached() -> None:
    """Builder rule: a pyramid given without the flags sets each one its highest card has
    reached; a flag given explicitly (a row emptied by betrayal since) is kept."""
    game = load(3)
    guardians = game.position(pyramid=[*GUARDIANS[:4], ["Mackay", "-"], ["-"]])
    assert guardians.nobles_triggered and guardians.guardians_triggered
    assert not guardians.crowned
    assert not game.position(pyramid=[BETRAY[0], *EMPTY_ABOVE_ROW_1]).nobles_triggered
    earlier = game.position(pyramid=[BETRAY[0], *EMPTY_ABOVE_ROW_1], nobles_triggered=True)
    assert earlier.nobles_triggered and not earlier.guardians_triggered
