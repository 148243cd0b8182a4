"""Clan Feud part 3: the action cards of phase (1) and phase (3), one scenario per design
(AC01-AC07, AC28-AC33): the action in its window, and the card refused outside it, with a
cost it cannot pay, or when it would change nothing."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from clangames.clan_feud.rules import W, settle
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.clan_feud.words import told as narrated
from clangames.engine.errors import IllegalActionError

from .cf_rules_helpers import after_roll, done, legal_texts, load, play, position, upkeep

WHITE, BLACK, GOLD, TEMPORARY = 0, 1, 2, 6


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


# -- P1.before_order ---------------------------------------------------------------------------


def before_order(game: Any, hands: dict[int, dict[str, int]]) -> ClanFeudState:
    """The P1.before_order window of turn 2, previous order (1, 0). Both seats own 3
    white dice, so they tie for the fewest; with no regent, seat 0 (fewer VP) would set
    the order."""
    return position(
        game,
        [Task("p1order", -1, 0)],
        hands=hands,
        order=(1, 0),
        vp=(0, 5),
    )


def test_ac01_raid_of_ruthven_sets_the_turn_order(game) -> None:  # type: ignore[no-untyped-def]
    s = before_order(game, {1: {"AC01": 1}})
    assert s.to_move == (1,) and legal_texts(s) == ["pass", "play AC01"]
    assert (
        s.describe(s.legal_actions()[1]) == "play Raid of Ruthven (set this turn's order yourself)"
    )
    s = play(s, "play AC01")
    # seat 1, not the fewest-dice seat 0 (tied, fewer VP), arranges the order
    assert s.phase.name == "order" and s.to_move == (1,)
    s = play(s, "seat 1")
    assert s.order == (1, 0) and done(s)
    assert s.discards[0] == 1 and sum(s.hands[1]) == 0
    # without the card the tie goes to the fewer VP: seat 0 sets the order
    s = play(before_order(game, {1: {"AC01": 1}}), "pass")
    assert s.phase.name == "order" and s.to_move == (0,)


def test_ac01_played_by_two_players_only_the_first_counts(game) -> None:  # type: ignore[no-untyped-def]
    s = before_order(game, {0: {"AC01": 1}, 1: {"AC01": 1}})
    assert s.to_move == (1,)  # the previous turn's order: seat 1 is asked first
    s = play(s, "play AC01")
    assert s.phase.name == "order" and s.to_move == (1,)
    s = play(s, "seat 0")
    # the window is closed: seat 0 is never asked and keeps its card
    assert done(s) and s.order == (0, 1) and s.hands[0][0] == 1


def test_ac01_is_refused_outside_its_window(game) -> None:  # type: ignore[no-untyped-def]
    s = after_roll(game, {"AC01": 1})
    assert legal_texts(s) == ["pass"]  # asked (the hand is not empty), but not for AC01
    with pytest.raises(IllegalActionError):
        s.apply_text("play AC01")
    s = upkeep(game, {"AC01": 1}, troops={(0, "moray"): (1, 0, 0)}, control={"moray": 0})
    assert legal_texts(s) == ["pass"]


# -- P1.after_roll --------------------------------------------------------------------------------


def test_ac02_cunning_folk_rerolls_up_to_three_own_dice(game) -> None:  # type: ignore[no-untyped-def]
    s = after_roll(game, {"AC02": 1})
    s = play(s, "play AC02")
    assert legal_texts(s) == ["reroll white 1", "reroll white 2"]
    s = play(s, "reroll white 1")
    # a picked die leaves the pool until it is rolled again: it cannot be picked twice
    assert legal_texts(s) == ["stop", "reroll white 1", "reroll white 2"]
    s = play(s, "reroll white 1", "stop")
    assert s.is_chance and s.pool[0][:3] == (0, 1, 0)
    s = play(s, "rolled white 0x1 0x2 2x3")
    assert s.pool[0][:3] == (0, 1, 2)
    # the window goes round: seat 1 has no card, seat 0 none left, so it closes
    assert done(s)


def test_ac02_is_refused_outside_its_window(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("assign", 0)], pool={0: {(WHITE, 1): 1}}, hands={0: {"AC02": 1}})
    assert "play AC02" not in legal_texts(s)


def test_ac03_kings_golf_clubs_raises_a_die(game) -> None:  # type: ignore[no-untyped-def]
    s = play(after_roll(game, {"AC03": 1}), "play AC03")
    assert legal_texts(s) == ["raise white 1", "raise white 2"]
    s = play(s, "raise white 2")
    assert s.pool[0][:3] == (2, 0, 1)
    # would change nothing: every die already at its highest face
    s = after_roll(game, {"AC03": 1}, pool={0: {(WHITE, 3): 2, (BLACK, 2): 1}})
    assert legal_texts(s) == ["pass"]


def test_ac04_redshank_mercenaries_temporary_die(game) -> None:  # type: ignore[no-untyped-def]
    s = play(after_roll(game, {"AC04": 1}), "play AC04")
    assert s.is_chance
    s = play(s, "rolled temporary 0x1 0x2 1x3")
    assert s.pool[0][3 * TEMPORARY + 2] == 1
    assert s.order == (0, 1)  # the temporary die does not change this turn's order
    # it is assigned like a white die
    a = position(game, [Task("assign", 0)], pool={0: {(TEMPORARY, 3): 1}})
    assert "assign temporary 3 to feud III" in legal_texts(a)
    # one temporary die at a time: a second card would change nothing
    s2 = after_roll(game, {"AC04": 1}, pool={0: {(TEMPORARY, 1): 1}})
    assert legal_texts(s2) == ["pass"]


def test_ac04_die_goes_back_to_the_supply_at_the_next_phase_one(game) -> None:  # type: ignore[no-untyped-def]
    s = play(after_roll(game, {"AC04": 1}), "play AC04", "rolled temporary 1x1 0x2 0x3")
    assert done(s) and s.pool[0][3 * TEMPORARY] == 1
    w = W(attrs.evolve(s, tasks=(*s.tasks, Task("roll"), Task("phase1")), options=None))
    s = settle(w)
    roll = next(t for t in reversed(s.tasks) if t.kind == "roll")
    assert roll.data[7 * 0 + TEMPORARY] == 0 and roll.data[7 * 0 + WHITE] == 3
    assert not any(s.pool[0])  # gathered; only the owned dice will be rolled


def test_ac05_north_berwick_witches_reroll_an_opponents_dice(game) -> None:  # type: ignore[no-untyped-def]
    s = play(after_roll(game, {"AC05": 1}), "play AC05")
    # the only opponent is named at once, and its one kind of die picked at once (single
    # options apply themselves); seat 0 may pick a second
    assert legal_texts(s) == ["stop", "reroll white 3"]
    s = play(s, "reroll white 3")
    assert s.is_chance and s.pool[1][:3] == (0, 0, 1)
    s = play(s, "rolled white 2x1 0x2 0x3")
    assert s.pool[1][:3] == (2, 0, 1)
    # three players: the victim is named
    g3 = load(3)
    s = position(
        g3,
        [Task("p1cards", -1, 0, 0)],
        hands={0: {"AC05": 1}},
        order=(0, 1, 2),
        pool={1: {(WHITE, 3): 1}, 2: {(WHITE, 2): 1}},
    )
    s = play(s, "play AC05")
    assert legal_texts(s) == ["seat 1", "seat 2"]
    assert narrated(s, s.legal_actions()[1]) == (
        "reroll dice of player 2; then player 0's only option: reroll a white die showing 2"
    )
    # would change nothing: no opponent has an unassigned die
    s = after_roll(game, {"AC05": 1}, pool={0: {(WHITE, 1): 1}})
    assert legal_texts(s) == ["pass"]


def test_ac06_martinmas_rents_income_one_without_a_die(game) -> None:  # type: ignore[no-untyped-def]
    s = after_roll(game, {"AC06": 1}, control={"moray": 0, "banff": 0}, money=(0, 0))
    s = play(s, "play AC06")
    assert s.money[0] == 2 and s.filled[0] == 0  # no slot used
    s = after_roll(game, {"AC06": 1}, money=(0, 0))  # no territory: nothing to collect
    assert legal_texts(s) == ["pass"]


def test_ac07_bond_of_manrent_turns_a_one_into_a_three(game) -> None:  # type: ignore[no-untyped-def]
    s = play(after_roll(game, {"AC07": 1}), "play AC07")  # the white 1 is the only choice
    assert s.pool[0][:3] == (1, 1, 1)
    s = after_roll(game, {"AC07": 1}, pool={0: {(BLACK, 1): 1, (WHITE, 2): 1}})
    assert legal_texts(s) == ["pass"]  # never a black die; no white 1


def test_window_goes_round_until_everyone_passes_in_succession(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("p1cards", -1, 0, 0)],
        hands={0: {"AC03": 1}, 1: {"AC03": 1, "AC07": 1}},
        order=(1, 0),
        pool={0: {(WHITE, 1): 1}, 1: {(WHITE, 1): 2}},
    )
    assert s.to_move == (1,)  # the new order
    s = play(s, "pass", "play AC03")  # seat 0 plays (one die to raise): passes start again
    assert s.to_move == (1,) and s.pool[0][:3] == (0, 1, 0)
    s = play(s, "play AC07")  # seat 1 turns a 1 into a 3
    assert s.to_move == (1,) and s.pool[1][:3] == (1, 0, 1)  # seat 0 has no card left
    s = play(s, "pass")
    assert done(s)


# -- P3.upkeep -------------------------------------------------------------------------------


ARMY = {(0, "moray"): (3, 1, 0)}  # upkeep 3 + 2 = 5


def test_ac28_sorning_cuts_upkeep_by_three(game) -> None:  # type: ignore[no-untyped-def]
    s = upkeep(game, {"AC28": 1}, troops=ARMY, control={"moray": 0}, money=(10, 10))
    s = play(s, "play AC28")
    assert s.upkeep_cut == (3, 0)
    s = play(s, "pay upkeep")
    assert s.money[0] == 8 and done(s)
    # would change nothing: no troops, no upkeep
    s = upkeep(game, {"AC28": 1})
    assert legal_texts(s) == ["pass"]


def test_ac29_forty_days_service_cuts_upkeep_per_infantry(game) -> None:  # type: ignore[no-untyped-def]
    s = upkeep(game, {"AC29": 1}, troops=ARMY, control={"moray": 0}, money=(10, 10))
    s = play(s, "play AC29", "pay upkeep")
    assert s.money[0] == 8  # 5 less 3 infantry
    # an all-infantry host pays nothing; a cut beyond the due is no credit
    s = upkeep(game, {"AC29": 2}, troops={(0, "moray"): (2, 0, 0)}, control={"moray": 0})
    s = play(s, "play AC29")
    assert legal_texts(s) == ["pass"]  # a second copy would change nothing
    s = play(s, "pass", "pay upkeep")
    assert done(s) and s.money[0] == 10
    # no infantry: the cut is 0
    s = upkeep(game, {"AC29": 1}, troops={(0, "moray"): (0, 1, 0)}, control={"moray": 0})
    assert legal_texts(s) == ["pass"]


def test_ac30_letters_of_slains_return_tokens_for_vp(game) -> None:  # type: ignore[no-untyped-def]
    s = upkeep(game, {"AC30": 1}, feud=(3, 0))
    s = play(s, "play AC30")  # the first repetition is not optional (the card must act)
    assert legal_texts(s) == ["accept", "decline"] and s.feud[0] == 2
    s = play(s, "accept")
    assert s.feud[0] == 1 and s.vp[0] == 2
    s = play(upkeep(game, {"AC30": 1}, feud=(1, 0)), "play AC30")
    assert s.feud[0] == 0 and s.vp[0] == 1  # the second repetition cannot be paid
    # unpayable: no feud token
    assert legal_texts(upkeep(game, {"AC30": 1}, feud=(0, 0))) == ["pass"]


def test_ac31_treaty_of_berwick_moves_england_down(game) -> None:  # type: ignore[no-untyped-def]
    s = play(upkeep(game, {"AC31": 1}, england=7), "play AC31")
    assert s.england == 5
    s = play(upkeep(game, {"AC31": 1}, england=1), "play AC31")
    assert s.england == 0  # held within the track
    assert legal_texts(upkeep(game, {"AC31": 1}, england=0)) == ["pass"]


def test_ac32_stirling_palace_vp_per_castle(game) -> None:  # type: ignore[no-untyped-def]
    s = upkeep(game, {"AC32": 1}, castles=("moray", "banff"), control={"moray": 0, "banff": 0})
    s = play(s, "play AC32")
    assert s.vp[0] == 2
    assert legal_texts(upkeep(game, {"AC32": 1})) == ["pass"]


def test_ac33_honours_of_scotland_needs_the_regent(game) -> None:  # type: ignore[no-untyped-def]
    regent = {
        "troops": {(0, "edinburgh_castle"): (1, 0, 0)},
        "control": {"edinburgh_castle": 0},
        "regent": 0,
        "gold_out": True,
    }
    s = play(upkeep(game, {"AC33": 1}, **regent), "play AC33")
    assert s.vp[0] == 3
    assert legal_texts(upkeep(game, {"AC33": 1})) == ["pass"]  # not regent


def test_p3_cards_are_refused_in_phase_two(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game, [Task("assign", 0)], pool={0: {(WHITE, 1): 1}}, hands={0: {"AC31": 1}}, england=5
    )
    assert "play AC31" not in legal_texts(s)
