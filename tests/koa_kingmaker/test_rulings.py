"""One scenario per character and per interplay of the rulings, each with its exact outcome.

Houses 0..4 are the players' houses unless a test loads fewer players. Cards are named as
in :mod:`helpers`: characters by name, ``"Royal 1"``..``"Royal 3"``, and a house number for
the nomination of that house.
"""

from __future__ import annotations

from clangames.koa_kingmaker import Discard, KoaState, Recover, RecoverNothing
from clangames.koa_kingmaker.cards import JESTER, ROYAL, SEER

from .helpers import (
    ALL_CHARACTERS,
    ROYALS,
    apply,
    arrange,
    kind,
    names,
    noms,
    play_round,
    start,
)


def _untouched(state: KoaState, house: int, played: str | int) -> None:
    """House kept its court and got its played card back (nomination) or discarded it."""
    assert names(state, "courts", house) == ROYALS
    if isinstance(played, int):
        assert names(state, "hands", house) == ALL_CHARACTERS | noms(house)
        assert names(state, "discards", house) == set()
    else:
        assert names(state, "hands", house) == (ALL_CHARACTERS - {played}) | noms(house)
        assert names(state, "discards", house) == {played}


# -- Jester --------------------------------------------------------------------------------
def test_jester_joins_court_and_scores_court_value() -> None:
    state = play_round(start(), {0: "Jester", 1: "Seer", 2: "Gold", 3: "Thief", 4: "Fanatic"})
    assert state.round == 2 and state.phase.name == "commit"
    assert names(state, "courts", 0) == ROYALS | {"Jester"}
    assert "Jester" not in names(state, "hands", 0)
    # court 3+4+5+2, hand Seer 3 + Marshals 3 + Gold 2 + Thief 2 + Banner 3 + Fanatic 2
    assert state.scores()[0] == 14 + 15


def test_jester_discarded_instead_of_a_royal_goes_to_the_discard_pile() -> None:
    state = arrange(start(), 1, "hands", "courts", "Jester")
    state = play_round(state, {0: 1, 1: "Gold", 2: "Thief", 3: "Marshals", 4: "Fanatic"})
    assert state.phase.name == "discard" and state.to_move == (1,)
    assert state.legal_actions(1) == (Discard(JESTER), *(Discard(ROYAL + i) for i in range(3)))
    state = apply(state, Discard(JESTER), 1)
    assert names(state, "courts", 1) == ROYALS
    assert names(state, "discards", 1) == {"Jester", "Gold"}
    assert names(state, "centre", 1) == set()
    assert state.is_in(1) and state.round == 2


def test_hit_royal_goes_to_the_centre_pile() -> None:
    state = play_round(start(), {0: 1, 1: "Gold", 2: "Thief", 3: "Marshals", 4: "Fanatic"})
    assert state.legal_actions(1) == tuple(Discard(ROYAL + i) for i in range(3))
    state = apply(state, Discard(ROYAL + 2), 1)
    assert names(state, "courts", 1) == {"Royal 1", "Royal 2"}
    assert names(state, "centre", 1) == {"Royal 3"}
    _untouched(state, 0, 1)


# -- Seer ----------------------------------------------------------------------------------
def test_seer_redirects_the_hit_to_the_next_highest() -> None:
    # House 2 has two nominations but plays the Seer; house 4 (one nomination) is hit.
    state = play_round(start(), {0: 2, 1: 2, 2: "Seer", 3: 4, 4: "Gold"})
    assert state.phase.name == "discard" and state.to_move == (4,)
    assert state.hits == ((4, -1),)
    state = apply(state, Discard(ROYAL), 4)
    assert names(state, "courts", 4) == {"Royal 2", "Royal 3"}
    assert names(state, "centre", 4) == {"Royal 1"}
    for house in (0, 1, 3):
        _untouched(state, house, {0: 2, 1: 2, 3: 4}[house])
    _untouched(state, 2, "Seer")


def test_seer_alone_nominated_means_nobody_is_hit() -> None:
    state = play_round(start(), {0: 2, 1: 2, 2: "Seer", 3: "Gold", 4: "Thief"})
    assert state.round == 2 and state.phase.name == "commit"
    assert all(names(state, "courts", h) == ROYALS for h in range(5))


def test_seer_redirect_ties_at_the_next_highest_hit_all_of_them() -> None:
    state = play_round(start(), {0: 2, 1: 2, 2: "Seer", 3: 4, 4: 3})
    assert state.hits == ((3, -1), (4, -1))


# -- Marshals ------------------------------------------------------------------------------
def test_marshals_block_and_counter_attack_every_nominator() -> None:
    state = play_round(start(), {0: 2, 1: 2, 2: "Marshals", 3: "Gold", 4: "Thief"})
    assert state.phase.name == "discard" and state.to_move == (0,)
    assert state.hits == ((0, 2), (1, 2))
    state = apply(state, Discard(ROYAL), 0)
    state = apply(state, Discard(ROYAL + 1), 1)
    assert names(state, "centre", 0) == {"Royal 1"}
    assert names(state, "centre", 1) == {"Royal 2"}
    assert names(state, "courts", 2) == ROYALS
    _untouched(state, 2, "Marshals")


def test_marshals_not_hit_do_nothing() -> None:
    state = play_round(start(), {0: 3, 1: 3, 2: "Marshals", 3: "Gold", 4: 2})
    assert state.hits == ((3, -1),)


def test_seer_redirects_onto_marshals_who_counter_attack() -> None:
    # House 2's Seer removes its two nominations; house 3 (one) is hit next, but its
    # Marshals block and hit back house 4, the house that nominated it.
    state = play_round(start(), {0: 2, 1: 2, 2: "Seer", 3: "Marshals", 4: 3})
    assert state.hits == ((4, 3),)
    state = apply(state, Discard(ROYAL + 1), 4)
    assert names(state, "courts", 4) == {"Royal 1", "Royal 3"}
    for house in (0, 1, 2, 3):
        assert names(state, "courts", house) == ROYALS


def test_two_marshals_tied_both_counter_attack() -> None:
    state = play_round(start(), {0: 1, 1: "Marshals", 2: 3, 3: "Marshals", 4: "Seer"})
    assert state.hits == ((0, 1), (2, 3))
    state = apply(state, Discard(ROYAL), 0)
    state = apply(state, Discard(ROYAL), 2)
    assert names(state, "centre", 0) == {"Royal 1"}
    assert names(state, "centre", 2) == {"Royal 1"}
    assert names(state, "courts", 1) == ROYALS and names(state, "courts", 3) == ROYALS


def test_counter_attack_adds_to_a_hit_from_a_tie() -> None:
    # Houses 0 and 1 tie at one nomination each; house 1's Marshals block and hit house 0
    # back, so house 0 takes two hits.
    state = play_round(start(), {0: 1, 1: "Marshals", 2: 0, 3: "Gold", 4: "Thief"})
    assert state.hits == ((0, -1), (0, 1))
    state = apply(state, Discard(ROYAL), 0)
    state = apply(state, Discard(ROYAL + 1), 0)
    assert names(state, "courts", 0) == {"Royal 3"}
    assert names(state, "centre", 0) == {"Royal 1", "Royal 2"}


# -- Banner and Fanatic ----------------------------------------------------------------------
def test_banner_joins_court_and_doubles_its_owners_nominations() -> None:
    state = arrange(start(), 0, "hands", "courts", "Banner")
    state = play_round(state, {0: 2, 1: 3, 2: "Gold", 3: "Thief", 4: "Seer"})
    assert state.hits == ((2, -1),)  # 2 against 1


def test_banner_played_this_round_joins_court() -> None:
    state = play_round(start(), {0: "Banner", 1: 3, 2: "Gold", 3: "Thief", 4: "Seer"})
    state = apply(state, Discard(ROYAL), 3)
    assert names(state, "courts", 0) == ROYALS | {"Banner"}
    assert state.scores()[0] == 12 + 1 + 6 + 3 + 3 + 2 + 2 + 2


def test_banner_and_fanatic_in_the_same_round() -> None:
    # House 0's Banner would make its nomination count 2; a Fanatic discards it (and the
    # Banner house 2 plays this round) before counting, so houses 2 and 3 tie at 1.
    state = arrange(start(), 0, "hands", "courts", "Banner")
    state = play_round(state, {0: 2, 1: 3, 2: "Banner", 3: "Fanatic", 4: "Jester"})
    assert state.hits == ((2, -1), (3, -1))
    assert names(state, "discards", 0) == {"Banner"}
    assert names(state, "discards", 2) == {"Banner"}
    assert names(state, "courts", 0) == ROYALS
    assert names(state, "courts", 4) == ROYALS | {"Jester"}
    state = apply(state, Discard(ROYAL), 2)
    state = apply(state, Discard(ROYAL), 3)
    assert names(state, "discards", 3) == {"Fanatic"}
    assert state.round == 2


def test_fanatic_discards_its_own_banner_too() -> None:
    state = arrange(start(), 3, "hands", "courts", "Banner")
    state = play_round(state, {0: "Seer", 1: "Gold", 2: "Thief", 3: "Fanatic", 4: "Jester"})
    assert names(state, "courts", 3) == ROYALS
    assert names(state, "discards", 3) == {"Banner", "Fanatic"}


# -- Thief and Gold --------------------------------------------------------------------------
def test_gold_buys_back_a_jester_to_the_hand() -> None:
    state = arrange(start(), 0, "hands", "discards", "Jester")
    state = play_round(state, {0: "Gold", 1: "Seer", 2: "Marshals", 3: "Banner", 4: "Fanatic"})
    assert state.phase.name == "return" and state.to_move == (0,)
    assert state.legal_actions(0) == (Recover(JESTER), RecoverNothing())
    state = apply(state, Recover(JESTER), 0)
    assert names(state, "hands", 0) == (ALL_CHARACTERS - {"Gold"}) | noms(0)
    assert names(state, "courts", 0) == ROYALS
    assert names(state, "discards", 0) == {"Gold"}


def test_gold_may_decline() -> None:
    state = arrange(start(), 0, "hands", "discards", "Seer")
    state = play_round(state, {0: "Gold", 1: "Seer", 2: "Marshals", 3: "Banner", 4: "Fanatic"})
    state = apply(state, RecoverNothing(), 0)
    assert names(state, "discards", 0) == {"Seer", "Gold"}


def test_gold_with_an_empty_discard_pile_asks_nothing() -> None:
    state = play_round(start(), {0: "Gold", 1: "Seer", 2: "Marshals", 3: "Banner", 4: "Fanatic"})
    assert state.round == 2 and names(state, "discards", 0) == {"Gold"}


def test_thief_with_two_golds_steals_both_and_returns_one_card() -> None:
    state = arrange(start(), 0, "hands", "discards", "Marshals")
    state = arrange(state, 1, "hands", "discards", "Seer")
    state = arrange(state, 2, "hands", "discards", "Seer", "Jester")
    state = play_round(state, {0: "Gold", 1: "Gold", 2: "Thief", 3: 4, 4: "Banner"})
    # The two Golds are discarded and give nothing; the Thief decides once.
    assert state.phase.name == "return" and state.to_move == (2,)
    assert state.recovering == (2,)
    assert names(state, "discards", 0) == {"Marshals", "Gold"}
    assert names(state, "discards", 1) == {"Seer", "Gold"}
    assert state.legal_actions(2) == (Recover(JESTER), Recover(SEER), RecoverNothing())
    state = apply(state, Recover(SEER), 2)
    assert state.phase.name == "discard" and state.to_move == (4,)
    state = apply(state, Discard(ROYAL), 4)
    assert names(state, "hands", 2) == (ALL_CHARACTERS - {"Jester", "Thief"}) | noms(2)
    assert names(state, "discards", 2) == {"Jester", "Thief"}
    assert names(state, "hands", 0) == (ALL_CHARACTERS - {"Marshals", "Gold"}) | noms(0)


def test_one_gold_feeds_two_thieves() -> None:
    state = arrange(start(), 1, "hands", "discards", "Seer")
    state = arrange(state, 2, "hands", "discards", "Fanatic")
    state = play_round(state, {0: "Gold", 1: "Thief", 2: "Thief", 3: "Jester", 4: "Banner"})
    assert state.recovering == (1, 2)
    state = apply(state, Recover(SEER), 1)
    state = apply(state, Recover(kind("Fanatic")), 2)
    assert names(state, "discards", 0) == {"Gold"}
    assert names(state, "discards", 1) == {"Thief"}
    assert names(state, "discards", 2) == {"Thief"}
    assert "Fanatic" in names(state, "hands", 2)


def test_thief_with_no_gold_does_nothing() -> None:
    state = arrange(start(), 2, "hands", "discards", "Seer")
    state = play_round(state, {0: "Jester", 1: "Seer", 2: "Thief", 3: "Marshals", 4: "Banner"})
    assert state.round == 2 and state.phase.name == "commit"
    assert names(state, "discards", 2) == {"Seer", "Thief"}
    assert names(state, "hands", 2) == (ALL_CHARACTERS - {"Seer", "Thief"}) | noms(2)


# -- ties, elimination, last hits ---------------------------------------------------------
def test_a_tie_hits_three_houses_at_once() -> None:
    state = play_round(start(), {0: 1, 1: 2, 2: 0, 3: "Seer", 4: "Jester"})
    assert state.hits == ((0, -1), (1, -1), (2, -1))
    for h in (0, 1, 2):
        assert state.to_move == (h,)
        state = apply(state, Discard(ROYAL + 2), h)
    for h in (0, 1, 2):
        assert names(state, "centre", h) == {"Royal 3"}
    assert state.round == 2


def test_elimination_places_the_nominators_cards_in_court() -> None:
    state = arrange(start(), 2, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 2, 1: 2, 2: "Gold", 3: "Thief", 4: 0})
    # House 2 has one Royal: the hit takes it at once and house 2 is out.
    assert not state.is_in(2) and state.out_round[2] == 1
    assert names(state, "centre", 2) == ROYALS
    assert names(state, "courts", 0) == ROYALS | {"nom 2"}
    assert names(state, "courts", 1) == ROYALS | {"nom 2"}
    assert names(state, "hands", 0) == ALL_CHARACTERS | noms(0) - {"nom 2"}
    assert state.scores()[0] == 12 + 3 + 21
    # House 4's nomination of house 0 missed (count 1 against 2): back in hand.
    assert "nom 0" in names(state, "hands", 4)
    # House 2 is no longer a target and no longer commits.
    assert state.to_move == (0, 1, 3, 4)
    assert all(a.house != 2 for a in state.legal_actions(0) if hasattr(a, "house"))


def test_marshals_last_hit_places_its_card_from_hand() -> None:
    # House 3 (one Royal left) nominates house 1, whose Marshals block and hit back:
    # house 3 is out and house 1 puts its own nomination of house 3 in court.
    state = arrange(start(), 3, "courts", "centre", "Royal 2", "Royal 3")
    state = play_round(state, {0: "Jester", 1: "Marshals", 2: "Gold", 3: 1, 4: "Seer"})
    assert state.round == 2
    assert not state.is_in(3)
    assert names(state, "courts", 1) == ROYALS | {"nom 3"}
    assert "nom 3" not in names(state, "hands", 1)
    assert names(state, "centre", 3) == ROYALS
    assert "nom 1" in names(state, "hands", 3)  # the blocked nomination goes back to hand
    assert names(state, "courts", 0) == ROYALS | {"Jester"}


def test_counter_attack_after_a_tie_hit_makes_marshals_the_last_hitter() -> None:
    # House 0 (two Royals) is hit in a tie and then by house 1's counter-attack: the
    # counter-attack is the last hit, so house 1 scores it and house 2 does not.
    state = arrange(start(), 0, "courts", "centre", "Royal 1")
    state = play_round(state, {0: 1, 1: "Marshals", 2: 0, 3: "Gold", 4: "Thief"})
    assert state.hits == ((0, -1), (0, 1))
    state = apply(state, Discard(ROYAL + 1), 0)  # the tie hit
    assert not state.is_in(0)
    assert names(state, "courts", 1) == ROYALS | {"nom 0"}
    assert names(state, "courts", 2) == ROYALS
    assert "nom 0" in names(state, "hands", 2)


def test_tie_hit_that_eliminates_leaves_the_counter_attack_void() -> None:
    state = arrange(start(), 0, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 1, 1: "Marshals", 2: 0, 3: "Gold", 4: "Thief"})
    assert not state.is_in(0) and state.round == 2
    assert names(state, "courts", 2) == ROYALS | {"nom 0"}
    assert names(state, "courts", 1) == ROYALS
    assert "nom 0" in names(state, "hands", 1)


def test_jester_keeps_a_house_in_the_game() -> None:
    state = arrange(start(), 2, "courts", "centre", "Royal 1", "Royal 2")
    state = arrange(state, 2, "hands", "courts", "Jester")
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: "Gold", 4: "Seer"})
    state = apply(state, Discard(ROYAL + 2), 2)
    assert state.is_in(2)
    assert names(state, "courts", 2) == {"Jester"}


def test_game_ends_when_three_houses_fall_in_one_round() -> None:
    state = start()
    for h in (0, 1, 2):
        state = arrange(state, h, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: 0, 4: 1})
    assert state.is_terminal
    assert state.alive == 0b11000
    assert state.out_round == (1, 1, 1, 0, 0)
    # House 0: nomination of house 2 in court (3) + its seven characters (21). Houses 1
    # and 2: their characters but the Gold or the Thief. Houses 3 and 4: Royals (12),
    # the nomination in court (3) and seven characters (21).
    assert state.scores() == (24, 19, 19, 36, 36)
    assert state.winners() == (3,)  # tie at 36: house 3 holds inheritance 4, house 4 holds 5
    assert state.returns() == (0.0, 0.0, 0.0, 1.0, 0.0)


def test_tie_broken_by_the_lower_inheritance_number() -> None:
    state = start(inheritance=(1, 2, 3, 5, 4))
    for h in (0, 1, 2):
        state = arrange(state, h, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: 0, 4: 1})
    assert state.is_terminal
    assert state.scores()[3:] == (36, 36)
    assert state.winners() == (4,)


def test_most_points_wins_before_inheritance() -> None:
    state = start()  # house 3 holds the lower inheritance number, 4
    for h in (0, 1, 2):
        state = arrange(state, h, "courts", "centre", "Royal 1", "Royal 2")
    state = arrange(state, 3, "courts", "centre", "Royal 1")  # lost earlier
    state = play_round(state, {0: 2, 1: "Gold", 2: "Thief", 3: 0, 4: 1})
    assert state.is_terminal
    assert state.scores()[3:] == (33, 36)
    assert state.winners() == (4,)


def test_gold_can_take_back_a_banner_the_fanatic_just_discarded() -> None:
    # Step 1 (Fanatic) comes before step 6 (Gold): the Banner is already in the discard
    # pile when house 0 chooses; the cards played this round are not.
    state = arrange(start(), 0, "hands", "courts", "Banner")
    state = play_round(state, {0: "Gold", 1: "Seer", 2: "Jester", 3: "Fanatic", 4: "Marshals"})
    assert state.legal_actions(0) == (Recover(kind("Banner")), RecoverNothing())
    state = apply(state, Recover(kind("Banner")), 0)
    assert names(state, "hands", 0) == (ALL_CHARACTERS - {"Gold"}) | noms(0)
    assert names(state, "courts", 0) == ROYALS


def test_fanatic_also_clears_a_banner_left_in_an_eliminated_court() -> None:
    state = arrange(start(), 1, "hands", "courts", "Banner")
    state = arrange(state, 1, "courts", "centre", "Royal 1", "Royal 2")
    state = play_round(state, {0: 1, 1: "Gold", 2: "Thief", 3: "Seer", 4: "Jester"})
    assert not state.is_in(1) and names(state, "courts", 1) == {"Banner"}
    state = play_round(state, {0: "Fanatic", 2: "Seer", 3: "Gold", 4: "Seer"})
    assert names(state, "courts", 1) == set()
    assert names(state, "discards", 1) == {"Gold", "Banner"}
