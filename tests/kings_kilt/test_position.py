"""King's Kilt positions: exact round trips over seeded games of every player count and
Hypothesis-drawn states, refusals naming the bad token, the clan names in the kernel
contract, and the rulebook's scoring example written with the scenario builder."""

from __future__ import annotations

import pytest

import clangames
from clangames.engine.errors import ClanGamesError, StateDecodeError
from clangames.engine.position import PositionError
from clangames.kings_kilt import KingsKiltState
from position_helpers import assert_round_trips, hypothesis_round_trip, refused

from .helpers import finish_with_passes, load


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip_over_seeded_games(players: int) -> None:
    assert assert_round_trips(load(players), range(3)) > 200


def test_round_trip_of_hypothesis_drawn_states() -> None:
    hypothesis_round_trip("kings_kilt", max_examples=15)


def test_names_are_in_the_kernel_contract() -> None:
    game = load(3)
    assert game.names == {"clan": game.clans}
    text = game.initial_state().to_position()
    assert text.startswith("kings_kilt deal_family@chance pyramid=[[-,-,-,-,-,-],")
    assert "family_deck=[Macleod,Mackay,Macbeth,Bruce,Buchanan,Douglas,Hamilton,Stewart]" in text


def test_bad_text_is_refused_naming_the_token() -> None:
    game = load(2)
    good = clangames.play_chance(game.initial_state(), clangames.Rng(0))[0].to_position()
    assert "top=Hamilton" in good
    message = refused(game, good.replace("top=Hamilton", "top=Hamish"))
    assert "'Hamish'" in message and "expected a clan (Macleod" in message
    message = refused(game, good.replace("kings_kilt", "koa_kingmaker", 1))
    assert "expected the game name 'kings_kilt'" in message
    message = refused(game, good.replace("turn@0", "turn@7"))
    assert "'turn@7'" in message and "seats 0..1" in message
    message = refused(game, good.replace("turns=1", "turns=one"))
    assert "'one'" in message and "whole number" in message
    message = refused(game, good.replace(" dealt=0", ""))
    assert "missing field(s) dealt" in message
    message = refused(game, good + " colour=red")
    assert "'colour'" in message and "expected a field of kings_kilt" in message
    message = refused(game, good + " turns=2")
    assert "given twice" in message
    message = refused(game, good.replace("pyramid=[[", "pyramid=[[[", 1))
    assert "expected" in message
    # a card too many: the game's own consistency rule, named with the position field
    message = refused(game, good.replace("top=Hamilton", "top=Bruce"))
    assert "clan Bruce has 9 cards accounted for, expected 8" in message
    with pytest.raises(ClanGamesError):
        game.state_from_position(12)  # type: ignore[arg-type]
    assert issubclass(PositionError, StateDecodeError)


# The rulebook's scoring example, bottom row first: two players, the pyramid complete.
EXAMPLE = [
    ["Douglas", "Hamilton", "Stewart", "Douglas", "Hamilton", "Stewart"],
    ["Hamilton", "Stewart", "Douglas", "Hamilton", "Stewart"],
    ["Douglas", "Hamilton", "Stewart", "Douglas"],
    ["Mackay", "Macbeth", "Bruce"],
    ["Mackay", "Mackay"],
    ["Macleod"],
]


def test_the_rulebook_scoring_example_with_the_builder() -> None:
    game = load(2)
    state = game.position(
        phase="turn@0",
        pyramid=EXAMPLE,
        families=[["Buchanan", "Mackay", "Macbeth"], ["Macleod", "Macbeth", "Bruce"]],
        hands=[[], []],
        leaders=[],
        crowned=True,
        nobles_triggered=True,
        guardians_triggered=True,
    )
    assert isinstance(state, KingsKiltState)
    assert state.card_at(6, 0) == "Macleod" and state.card_at(1, 0) == "Douglas"
    # every card not placed went into the hidden member pile: 8 of each clan in all
    assert len(state.members) == 8 * 8 - 21 - 6 - 1  # the base's face-up top card stays
    assert state.scores() == (6, 5)
    end = finish_with_passes(state)
    assert end.winners() == (0,)
    assert end.returns() == (1.0, 0.0)


def test_the_builder_refuses_too_many_cards_of_a_clan() -> None:
    game = load(2)
    with pytest.raises(PositionError, match="Bruce is placed 11 times, the game has 8"):
        game.position(hands=[["Bruce*9"], []], families=[[], []])  # 2 more in the base
    with pytest.raises(PositionError, match="part 'colour'"):
        game.position(colour="red")
