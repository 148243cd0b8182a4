"""Saved states that no game can reach are refused (docs/games/kings-kilt.md, *Saved states*).

``check_consistency`` (run on every decoded state) promises that a decision is only asked
with the pile's top card face up, that an open vacancy is an empty space of the step that
fills it (a fill needs a card in both spaces beneath, the pile fills only row 1), that
reveals are owed only while a turn settles, that the game ends with every player passed,
that a card in row 4, 5 or 6 has set its trigger, that the discards are shuffled in only
once the pile ran out, what each setup step has dealt (families, hands, the base, the
leaders still on the pile), that nobody has a turn during the setup and that no hand holds
more than was dealt. A mutation audit found that removing any of these checks
failed no test; each case here builds a reachable state, breaks one thing, and expects the
check's own message.
"""

from __future__ import annotations

import attrs
import pytest

import clangames
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
        position(
            game,
            picture,
            nobles_triggered=False if flag == "nobles_triggered" else None,
            guardians_triggered=False if flag == "guardians_triggered" else None,
            crowned=False if flag == "crowned" else None,
        )


def test_the_discards_are_shuffled_in_only_once_the_pile_ran_out() -> None:
    game = load(3)
    position(game, NOBLES, reshuffled=["Do"], rest="removed", top="St")  # no pile: accepted
    with pytest.raises(StateDecodeError, match="shuffled in only once the pile has run out"):
        position(game, NOBLES, reshuffled=["Do"], top="St")


def _setup_state(phase: str, dealt: int) -> KingsKiltState:
    """The seeded setup of a 3-player game at step ``phase`` with ``dealt`` cards dealt."""
    state: clangames.State = load(3).initial_state()
    rng = clangames.Rng(11)
    while not (state.phase.name == phase and getattr(state, "dealt", -1) == dealt):
        action, rng = clangames.sample_chance(state, rng)
        state = state.apply(action)
    assert isinstance(state, KingsKiltState)
    state.check_consistency()
    return state


def _some_member(state: KingsKiltState) -> int:
    return next(c for c, m in enumerate(state.members.counts) if m)


def test_nobody_has_a_turn_during_the_setup() -> None:
    state = _setup_state("deal_family", 2)
    _refused(attrs.evolve(state, turns=3), "during the setup nobody has a turn")


def test_each_setup_step_has_dealt_what_it_says() -> None:
    state = _setup_state("deal_influence", 4)
    c = _some_member(state)
    broken = attrs.evolve(
        state,
        members=state.members.remove(c),
        hands=(state.hands[0].add(c), *state.hands[1:]),
    )
    _refused(broken, r"in the deal_influence step \(dealt 4\) player 0 should hold")


def test_the_base_holds_the_first_cards_drawn_and_nothing_else() -> None:
    state = _setup_state("build_base", 2)
    pyramid = list(state.pyramid)
    pyramid[1], pyramid[3] = -1, pyramid[1]
    _refused(attrs.evolve(state, pyramid=tuple(pyramid)), "the base holds the first 2 cards")


def test_no_card_is_in_the_pyramid_before_the_base_step() -> None:
    state = _setup_state("deal_influence", 1)
    c = _some_member(state)
    pyramid = (c, *state.pyramid[1:])
    broken = attrs.evolve(state, members=state.members.remove(c), pyramid=pyramid)
    _refused(broken, "the pyramid is built only after the deal_influence step")


def test_the_leaders_stay_in_the_pile_until_the_base() -> None:
    state = _setup_state("deal_influence", 1)
    c = next(c for c, m in enumerate(state.leaders.counts) if m)
    broken = attrs.evolve(state, leaders=state.leaders.remove(c), members=state.members.add(c))
    _refused(broken, "the Clan Leaders stay in the pile until the pyramid is built")


def test_a_clan_has_at_most_its_leaders_left_in_the_pile() -> None:
    game = load(3)
    position(game, NOBLES, leaders={"Br": 2}, top="St")
    with pytest.raises(StateDecodeError, match="at most 2 Clan Leaders of a clan are left"):
        position(game, NOBLES, leaders={"Br": 3}, top="St")


def test_a_hand_never_holds_more_than_was_dealt() -> None:
    game = load(3)
    position(game, NOBLES, hands=[{"Ha": 5}, [], []])
    with pytest.raises(StateDecodeError, match="more than the 5 Influence cards dealt"):
        position(game, NOBLES, hands=[{"Ha": 6}, [], []])


def test_no_reveal_is_owed_once_the_turn_has_passed_on() -> None:
    state = position(load(3), NOBLES, player=2)
    _refused(attrs.evolve(state, reveal_queue=(1,)), "no reveal is owed in the turn step")


def test_the_pile_fills_only_a_vacancy_in_the_bottom_row() -> None:
    state = position(load(3), NOBLES, player=1, top="St")
    empty = pos(state.game, 2, 3)
    assert state.pyramid[empty] < 0
    broken = attrs.evolve(
        state,
        phase=Phase.chance("reveal_top"),
        top=-1,
        members=state.members.add(state.top),
        vacancy=empty,
    )
    _refused(broken, "the pile fills only a vacancy in the bottom row")
