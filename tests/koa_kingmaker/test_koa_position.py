"""KOA Kingmaker positions: exact round trips over seeded games of every player count and
Hypothesis-drawn states, refusals naming the bad token, the card and house names in the
kernel contract, and a scenario with a sealed card written with the builder."""

from __future__ import annotations

import pytest

from clangames.koa_kingmaker import KoaState
from clangames.koa_kingmaker.position import CARD_NAMES
from position_helpers import assert_round_trips, hypothesis_round_trip, refused

from .helpers import load


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_round_trip_over_seeded_games(players: int) -> None:
    assert assert_round_trips(load(players), range(3)) > 100


def test_round_trip_of_hypothesis_drawn_states() -> None:
    hypothesis_round_trip("koa_kingmaker", max_examples=15)


def test_names_are_in_the_kernel_contract() -> None:
    names = load(3).names
    assert names["card"] == CARD_NAMES
    assert names["card"][:3] == ("Jester", "Seer", "Marshals")
    assert names["card"][7] == "Nomination 0" and names["card"][-1] == "Royal 3"
    assert names["house"] == ("0", "1", "2", "3", "4")


def test_bad_text_is_refused_naming_the_token() -> None:
    game = load(3)
    good = game.initial_state().to_position()
    message = refused(game, good.replace("courts=[[Royal_1,", "courts=[[Royal_9,", 1))
    assert "'Royal_9'" in message and "expected a card (Jester, Seer" in message
    message = refused(game, good.replace("courts=[[Royal_1,", "courts=[[Royal_2,", 1))
    assert "listed twice" in message
    message = refused(game, good.replace("inherit@chance", "inherit"))
    assert "'inherit'" in message and "name@who" in message
    message = refused(game, good.replace("scored=[]", "scored=[5]"))
    assert "'5'" in message and "expected a house" in message


HANDS = (
    "[[Jester,Seer,Marshals,Thief,Banner,Fanatic,Nomination_1,Nomination_2,Nomination_3,"
    "Nomination_4],"
    "[Jester,Seer,Marshals,Gold,Thief,Banner,Fanatic,Nomination_0,Nomination_2,Nomination_3,"
    "Nomination_4],"
    "[Jester,Seer,Marshals,Gold,Thief,Banner,Fanatic,Nomination_0,Nomination_1,Nomination_3,"
    "Nomination_4],"
    "[Jester,Seer,Gold,Thief,Banner,Fanatic],[Jester,Marshals,Gold,Thief,Banner,Fanatic]]"
)


def test_a_sealed_card_scenario_with_the_builder() -> None:
    game = load(3)
    # house 0 has sealed its Gold; houses 1 and 2 still owe a card (3 and 4 are automated)
    state = game.position(
        phase="commit@together:1+2", table="[Gold,-,-,Marshals,Seer]", hands=HANDS
    )
    assert isinstance(state, KoaState)
    assert state.observation(1) != state.observation(0)  # the sealed card is hidden
    texts = [game.action_text(a) for a in state.legal_actions(1)]
    assert "play Gold" in texts and "nominate house 1" not in texts
    after = state.apply_text("play Thief", 1).apply_text("play Banner", 2)
    assert isinstance(after, KoaState)
    assert "played=[Gold,Thief,Banner,Marshals,Seer]" in after.to_position()
    assert after.round == 2 and after.is_chance
