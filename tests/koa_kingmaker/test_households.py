"""Automated households, the inheritance deal, player counts and the end of the game."""

from __future__ import annotations

from fractions import Fraction

from clangames.engine.phases import CHANCE
from clangames.koa_kingmaker import Discard, Inherit, Nominate, Play, Seal
from clangames.koa_kingmaker.cards import GOLD, JESTER, ROYAL

from .helpers import (
    ALL_CHARACTERS,
    ROYALS,
    apply,
    arrange,
    kind,
    load,
    names,
    noms,
    play_round,
    start,
)


def test_inheritance_is_dealt_uniformly_without_repeats() -> None:
    state = load(3).initial_state()
    assert state.to_move == (CHANCE,)
    assert state.chance_outcomes() == tuple((Inherit(k), Fraction(1, 5)) for k in range(1, 6))
    state = apply(state, Inherit(3))
    assert state.chance_outcomes() == tuple((Inherit(k), Fraction(1, 4)) for k in (1, 2, 4, 5))
    assert state.inheritance == (3, 0, 0, 0, 0)


def test_two_players_play_with_four_houses() -> None:
    state = start(2)
    assert state.game.houses == 4
    assert state.inheritance == (1, 2, 3, 4, 0)
    assert state.out_round == (0, 0, 0, 0, -1)
    assert state.alive == 0b1111
    # Houses 2 and 3 are automated: they seal first, then the two players commit.
    state = apply(state, Seal(JESTER))
    state = apply(state, Seal(GOLD))
    assert state.phase.name == "commit" and state.to_move == (0, 1)
    # The nomination of the absent house 4 stays in the box, like an automated
    # household's: a player holds one nomination per other house at the table (13 cards).
    legal = state.legal_actions(0)
    assert legal == (*(Play(c) for c in range(7)), Nominate(1), Nominate(2), Nominate(3))
    for h in (0, 1):
        assert "nom 4" not in names(state, "hands", h)
        assert names(state, "hands", h) == ALL_CHARACTERS | noms(h, houses=4)
        assert (state.hands[h] | state.courts[h]).bit_count() == 13
    assert state.observation(0).hand_sizes[:2] == (10, 10)  # public: 7 characters, 3 nominations


def test_automated_households_hold_no_nominations() -> None:
    state = start(3)
    for h in (3, 4):
        assert names(state, "hands", h) == ALL_CHARACTERS
        assert names(state, "courts", h) == ROYALS
    for h in (0, 1, 2):
        assert names(state, "hands", h) == ALL_CHARACTERS | noms(h)


def test_automated_card_is_a_uniform_chance_node() -> None:
    state = start(3)
    assert state.phase.name == "seal"
    outcomes = state.chance_outcomes()
    assert outcomes == tuple((Seal(c), Fraction(1, 7)) for c in range(7))
    state = apply(state, Seal(kind("Marshals")))
    state = arrange(state, 4, "hands", "discards", "Seer", "Gold", "Thief")
    assert state.chance_outcomes() == tuple((Seal(c), Fraction(1, 4)) for c in (0, 2, 5, 6))


def test_automated_household_with_an_empty_hand_commits_nothing() -> None:
    state = start(3)
    state = arrange(state, 3, "hands", "discards", *sorted(ALL_CHARACTERS))
    assert state.phase.name == "seal"
    state = apply(state, Seal(kind("Seer")))  # house 4 seals; house 3 has nothing
    assert state.phase.name == "commit"
    assert state.table.ids[3] == -1


def test_automated_household_gives_up_its_jester_first() -> None:
    state = arrange(start(3), 3, "hands", "courts", "Jester")
    state = play_round(state, {0: 3, 1: 3, 2: "Gold", 3: "Gold", 4: "Fanatic"})
    # House 3 is hit and decides by its fixed rule: the lowest court value, the Jester.
    assert state.round == 2
    assert names(state, "courts", 3) == ROYALS
    assert names(state, "discards", 3) == {"Jester", "Gold"}


def test_automated_household_takes_back_its_most_valuable_card() -> None:
    state = arrange(start(3), 4, "hands", "discards", "Jester", "Seer", "Thief")
    state = play_round(state, {0: "Seer", 1: "Seer", 2: "Seer", 3: "Seer", 4: "Gold"})
    # No Thief: house 4's Gold takes back the Jester (hand value 6) without asking.
    assert state.round == 2
    assert names(state, "discards", 4) == {"Seer", "Thief", "Gold"}
    assert "Jester" in names(state, "hands", 4)


def test_automated_household_loses_a_royal_by_its_rule() -> None:
    state = play_round(start(3), {0: 4, 1: 4, 2: "Gold", 3: "Seer", 4: "Fanatic"})
    assert state.round == 2
    assert names(state, "centre", 4) == {"Royal 1"}  # lowest court value


def test_player_with_one_option_is_not_asked() -> None:
    state = arrange(start(), 1, "courts", "centre", "Royal 1", "Royal 2")
    state = arrange(state, 1, "hands", "discards", "Jester")
    state = play_round(state, {0: 1, 1: "Gold", 2: "Thief", 3: "Seer", 4: "Fanatic"})
    assert state.phase.name == "commit" and not state.is_in(1)


def test_no_player_left_the_last_eliminated_compete() -> None:
    # Two players, each with one Royal, hit each other: both are out in round 1 and the
    # two automated households remain. The players compete on points, then inheritance.
    state = start(2, inheritance=(2, 1, 3, 4))
    for h in (0, 1):
        state = arrange(state, h, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 1, 1: 0, 2: "Seer", 3: "Thief"})
    assert state.is_terminal
    assert state.out_round == (1, 1, 0, 0, -1)
    assert state.scores() == (24, 24)
    assert state.winners() == (1,)
    assert state.returns() == (0.0, 1.0)


def test_a_surviving_player_beats_a_richer_eliminated_one() -> None:
    state = start(3)
    state = arrange(state, 0, "courts", "centre", "Royal 1", "Royal 2")
    state = arrange(state, 1, "courts", "centre", "Royal 1", "Royal 2")
    state = arrange(state, 2, "courts", "centre", "Royal 1", "Royal 2")
    state = arrange(state, 2, "hands", "discards", "Jester", "Seer", "Marshals", "Gold")
    state = arrange(state, 3, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 1, 1: 0, 2: 3, 3: "Banner", 4: "Fanatic"})
    assert state.is_terminal
    assert state.out_round == (1, 1, 0, 1, 0)
    # Houses 0 and 1: a nomination in court (3) and seven characters (21). House 2: its
    # last Royal (5), the nomination of house 3 (3), Thief, Banner and Fanatic (7).
    assert state.scores() == (24, 24, 15)
    assert state.winners() == (2,)


def test_discard_actions_list_jester_then_royals() -> None:
    state = arrange(start(), 2, "hands", "courts", "Jester")
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: "Seer", 4: "Fanatic"})
    assert state.legal_actions(2) == (
        Discard(JESTER),
        Discard(ROYAL),
        Discard(ROYAL + 1),
        Discard(ROYAL + 2),
    )
