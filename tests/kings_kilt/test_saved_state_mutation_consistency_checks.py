"""Saved states that no game can reach are refused (docs/games/kings-kilt.md, *Saved states*).

``check_consistency`` (run on every decoded state) promises that a decision is only asked
with the pile's top card face up, that an open vacancy is an empty space of the step that
fills it (a fill needs a card in both spaces beneath), that the game ends with every player
passed, that a card in row 4, 5 or 6 has set its trigger and that the discards are shuffled
in only once the pile ran out. A mutation audit found that removing any of these checks
failed no test; each case here builds a reachable state, breaks one thing, and expects the
check's own message.
"""

from __future__ import annotations

import attrs
import pytest

from clangames import Phase, StateDecodeError
from clangames.kings_kilt import KingsKiltState

from .helpers import do, load, pos, position

NOBLES = """
.
. .
. . .
Do Ha . .
Mk Mb Br . .
Ml Mk Mb Br Bu Do
"""


def _fill_step() -> KingsKiltState:
    state = do(position(load(3), NOBLES, player=1, top="St"), "advance 3.1 up-left")
    assert state.phase == Phase.turn("fill", 1)
    return state


def _reveal_step() -> KingsKiltState:
    state = do(_fill_step(), "fill from 2.2", "fill from 1.3")
    state = do(state, state.action_text(state.legal_actions()[0]))
    assert state.phase == Phase.turn("reveal", 1)
    return state


def _refused(state: KingsKiltState, message: str) -> None:
    with pytest.raises(StateDecodeError, match=message):
        state.check_consistency()
    # the decoder runs the same check
    with pytest.raises(StateDecodeError, match=message):
        state.game.state_from_json(state.to_json())


def test_a_fill_needs_a_card_in_both_spaces_beneath() -> None:
    state = _fill_step()
    state.check_consistency()
    right = pos(state.game, 2, 2)
    broken = attrs.evolve(
        state,
        pyramid=tuple(-1 if i == right else c for i, c in enumerate(state.pyramid)),
        removed=state.removed.add(state.pyramid[right]),
    )
    _refused(broken, "the fill step needs a card in both spaces beneath the vacancy")


def test_a_decision_is_asked_only_with_the_top_card_face_up() -> None:
    state = _fill_step()
    broken = attrs.evolve(state, top=-1, members=state.members.add(state.top))
    _refused(broken, "the pile's top card lies face up whenever a player decides")


def test_no_vacancy_is_open_while_a_player_reveals() -> None:
    state = _reveal_step()
    state.check_consistency()
    empty = pos(state.game, 5, 0)
    assert state.pyramid[empty] < 0
    _refused(attrs.evolve(state, vacancy=empty), "no vacancy is open in the reveal step")


def test_the_game_is_over_only_once_everyone_has_passed() -> None:
    state = position(load(3), NOBLES, player=2, passed=[0, 1])
    broken = attrs.evolve(state, phase=Phase.over())
    _refused(broken, "the game ends once every player has passed")
    attrs.evolve(state, phase=Phase.over(), passed=0b111).check_consistency()


@pytest.mark.parametrize(
    ("picture", "flag", "row"),
    [
        (". . Mk\n. Br . .", "nobles_triggered", 4),
        (". Mk\n. . Do\n. Br . .", "guardians_triggered", 5),
        ("Mk\n. Bu\n. . Do\n. Br . .", "crowned", 6),
    ],
)
def test_a_card_in_a_trigger_row_has_set_its_flag(picture: str, flag: str, row: int) -> None:
    game = load(3)
    position(game, picture)  # the flags follow the picture: accepted
    with pytest.raises(StateDecodeError, match=f"{flag}: a card has reached row {row}"):
        position(game, picture, **{flag: False})


def test_the_discards_are_shuffled_in_only_once_the_pile_ran_out() -> None:
    game = load(3)
    position(game, NOBLES, reshuffled=["Do"], rest="removed", top="St")  # no pile: accepted
    with pytest.raises(StateDecodeError, match="shuffled in only once the pile has run out"):
        position(game, NOBLES, reshuffled=["Do"], top="St")
