"""``explain_action`` on an illegal King's Kilt move names the action once and the obstacle
itself: whose turn it is, the Influence card not held, the space that is taken, empty or
missing, the neighbour that is not there, the step the game is at (a vacancy to fill, a
family card to reveal, the game over), never a vague "not allowed now"."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.engine.phases import CHANCE
from clangames.kings_kilt import Advance, Betray, Draw, Fill, KingsKiltState, Pass, Reveal
from clangames.rendering.explain import explain_action
from kings_kilt.helpers import FULL_BASE, do, load, position
from rendering.test_screens import _game

TURN = [". Mk Mb . .", FULL_BASE.strip()]
"""Player 0's turn: row 1 full, Mackay and Macbeth on 2.1 and 2.2."""


def _turn() -> KingsKiltState:
    return position(load(3), TURN, hands=[["Bu", "Do"], ["Ml"], []])


def _said(state: Any, action: object, seat: int) -> str:
    """The explanation, checked to refuse the move and to quote the action exactly once."""
    assert not state.is_legal(action, seat)
    text = explain_action(state, action, seat)
    quoted = repr(state.action_text(action))
    assert text.startswith(f"{quoted} is not legal: ")
    assert text.count(quoted) == 1, text
    return text.removeprefix(f"{quoted} is not legal: ")


def test_another_players_turn() -> None:
    state = _turn()
    assert state.is_legal(Advance(2, 1, "right"), 0)
    turn = "it is player 0's turn (advance a card or betray one)"
    assert _said(state, Advance(2, 1, "right"), 1) == f"{turn}, not player 1's"
    assert _said(state, Betray(0, 1, 0), 2) == f"{turn}, not player 2's"


def test_a_card_not_in_the_hand() -> None:
    # player 1 holds a Macleod, player 0 does not
    assert _said(_turn(), Betray(0, 1, 0), 0) == "player 0 holds no Macleod Influence card"


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Advance(1, 1, "right"), "space 2.1 is taken"),
        (Advance(3, 0, "right"), "space 3.0 is empty"),
        (Advance(1, 0, "left"), "there is no space up-left of 1.0"),
        (Advance(2, 1, "left"), "no neighbouring card on the left supports the move"),
        (Betray(4, 3, 1), "space 3.1 is empty"),
    ],
)
def test_a_space_taken_empty_missing_or_without_a_neighbour(action: object, reason: str) -> None:
    assert _said(_turn(), action, 0) == reason


def test_a_step_that_does_not_come_now() -> None:
    state = _turn()
    assert _said(state, Fill(1, 1), 0) == (
        "no space is waiting to be filled (a space is filled right after the advance or"
        " betrayal that empties it)"
    )
    assert _said(state, Reveal(0), 0) == (
        "no family card is to be turned face up now (that comes when a card first enters"
        " the Noblemen's row and the Guardians' row)"
    )
    assert _said(state, Pass(), 0).startswith("passing is allowed only once a King is crowned")
    assert _said(state, Draw(3), 0) == (
        "cards come off the draw pile by chance; no player chooses them"
    )


def test_the_vacancy_must_be_filled_first_from_beneath_it() -> None:
    # Mackay climbs from 2.1 to 3.1; 2.1 rests on 1.1 and 1.2, both full: player 0 chooses
    state = do(_turn(), "advance 2.1 up-right")
    assert state.phase.name == "fill"
    assert _said(state, Advance(2, 2, "left"), 0) == (
        "the emptied space 2.1 must be filled first, from 1.1 or 1.2"
    )
    assert _said(state, Fill(1, 3), 0) == (
        "1.3 is not beneath the emptied space 2.1; it fills from 1.1 or 1.2"
    )
    assert _said(state, Fill(2, 0), 0) == "space 2.0 is empty"
    assert _said(state, Fill(1, 1), 1) == (
        "it is player 0's turn (choose the card beneath that fills 2.1), not player 1's"
    )


def test_a_reveal_of_a_card_not_face_down() -> None:
    # player 0 (family Macleod, Mackay, Macbeth; Macleod face up) moves the first card into
    # the Noblemen's row and reveals first
    picture = ["Mk Mb . .", ". . . . .", FULL_BASE.strip()]
    start = position(load(3), picture, revealed=[["Ml"], [], []])
    state = do(start, "advance 3.0 up-right")
    assert state.phase.name == "reveal" and state.to_move == (0,)
    assert _said(state, Reveal(3), 0) == "Bruce is not one of player 0's family cards"
    assert _said(state, Reveal(0), 0) == "player 0's Macleod family card is already face up"
    assert _said(state, Pass(), 0) == (
        "player 0 must first turn one of their face-down family cards face up"
    )


def test_the_game_over_and_a_chance_step() -> None:
    steps = _game("kings_kilt", 2, 0)
    final = steps[-1][0]
    assert _said(final, Pass(), 0) == "the game is over"
    chance = next(s for s, p, _ in steps if p == CHANCE and not s.is_terminal)
    assert _said(chance, Pass(), 1) == f"chance decides next ({chance.prompt()}), not player 1"


@pytest.mark.parametrize("seed", [0, 1])
def test_every_illegal_move_of_a_game_gets_a_specific_reason(seed: int) -> None:
    # every action of the table, at a spread of a game's decisions, for every seat
    steps = [s for s, p, _ in _game("kings_kilt", 3, seed) if p != CHANCE]
    table = steps[0].game.actions
    vague = ("not allowed now", "now player", "legal: ")
    for state in steps[:: max(1, len(steps) // 12)]:
        for seat in range(3):
            for i in range(len(table)):
                action = table.get(i)
                if not state.is_legal(action, seat):
                    reason = _said(state, action, seat)
                    assert not any(v in reason for v in vague), reason
