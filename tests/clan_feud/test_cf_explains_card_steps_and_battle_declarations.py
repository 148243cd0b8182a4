"""``explain_illegal`` at the decisions that had no test of their own: the attacker's
continue-or-retreat after a battle round (``bdeclare``), and the steps of the action
cards that ask something after they are played: a die to change (``modify``, The King's
Golf Clubs and Bond of Manrent), dice to reroll (``reroll``, Cunning Folk and North
Berwick Witches), the free tower house (``th1``, Barmkin Act) and the free troops
(``free_recruit``, Wappinschaw). Each is reached in a hand-made position and an illegal
action's reason is asserted word for word."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud.actions import Word
from clangames.clan_feud.rules import INCOME
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.clan_feud.words import told as narrated

from .cf_rules_helpers import after_roll, at_assign, legal_texts, load, play, position
from .test_cf_explains_illegal_moves import _said

WHITE, GOLD, GREEN = 0, 2, 3


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


# -- the attacker's continue or retreat --------------------------------------------------------


def _declaring(game: Any) -> ClanFeudState:
    """Player 0's 3 infantry from Moray won a round against player 1's 2 in Banff, and
    the one casualty die hit the attacker's own side: 2 against 2, the attacker declares."""
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (3, 0, 0), (1, "banff"): (2, 0, 0)},
        control={"moray": 0, "banff": 1},
    )
    s = play(s, "take 3 infantry", "territory banff")  # no cards, no tokens: 3 against 2
    s = play(s, "hits 0/1")  # an infantry of the attacker's falls
    return s


def test_the_attackers_continue_or_retreat(game) -> None:  # type: ignore[no-untyped-def]
    s = _declaring(game)
    assert s.phase.name == "bdeclare" and s.to_move == (0,)
    assert legal_texts(s) == ["continue", "retreat"]
    prompt = "player 0: attacker: continue the battle or retreat"
    assert _said(s, "territory moray") == (
        "naming a territory is for a building, recruits, a move, a retreat or a removal;"
        f" now {prompt} (that takes continue or retreat)"
    )
    assert _said(s, "commit 1") == (
        f"feud tokens are committed in a battle round; now {prompt} (that takes continue"
        " or retreat)"
    )
    assert _said(s, "continue", 1) == (
        "it is player 0's turn (attacker: continue the battle or retreat), not player 1's"
    )
    # and the words of the two legal answers
    assert s.describe(Word("continue")) == "fight another round in Banff"
    assert narrated(s, Word("retreat")) == (
        "retreat from Banff: the attacking army goes back to Moray; then the battle in Banff"
        " is over: player 1's army holds it"
    )


# -- a die to change (E9) -------------------------------------------------------------------


def test_a_die_to_raise_or_to_turn_into_a_three(game) -> None:  # type: ignore[no-untyped-def]
    s = play(after_roll(game, {"AC03": 1}), "play AC03")  # raise one die by 1
    assert s.phase.name == "modify" and legal_texts(s) == ["raise white 1", "raise white 2"]
    assert _said(s, "white 1 to 3") == "this card raises a die by 1"
    assert _said(s, "raise gold 1") == "you hold no unassigned gold die showing 1"
    s = play(after_roll(game, {"AC07": 1}, pool={0: {(WHITE, 1): 1, (GOLD, 1): 1}}), "play AC07")
    assert s.phase.name == "modify" and legal_texts(s) == ["white 1 to 3", "gold 1 to 3"]
    assert _said(s, "raise white 1") == "this card turns a die showing 1 into a 3"
    assert _said(s, "green 1 to 3") == "you hold no unassigned green die showing 1"
    assert _said(s, "stop") == "change at least one die before stopping"


# -- dice to reroll (E10) -------------------------------------------------------------------


def test_own_dice_to_reroll(game) -> None:  # type: ignore[no-untyped-def]
    s = play(after_roll(game, {"AC02": 1}), "play AC02")  # up to 3 of your own dice
    assert s.phase.name == "reroll" and legal_texts(s) == ["reroll white 1", "reroll white 2"]
    assert _said(s, "stop") == "pick at least one die before stopping"
    assert _said(s, "reroll white 3") == "you have no unassigned white die showing 3 left to reroll"
    assert _said(s, "seat 1") == "the dice to reroll are player 0's; now pick one, or stop"


def test_an_opponent_to_reroll() -> None:
    game = load(4)
    s = position(
        game,
        [Task("p1cards", -1, 0, 0)],
        hands={0: {"AC05": 1}},
        order=(0, 1, 2, 3),
        pool={1: {(WHITE, 3): 1}, 2: {(WHITE, 2): 1}},
    )
    s = play(s, "play AC05")  # up to 2 of one opponent's dice
    assert s.phase.name == "reroll" and legal_texts(s) == ["seat 1", "seat 2"]
    assert _said(s, "seat 0") == "this card rerolls an opponent's dice: name another player"
    assert _said(s, "seat 3") == "player 3 has no unassigned dice"
    assert _said(s, "reroll white 3") == "first name the player whose dice are rerolled"


# -- the free tower house (E15) -------------------------------------------------------------


def test_the_free_tower_house_and_its_territory(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("assign", 0), Task("assign", 0)],
        hands={0: {"AC13": 1}},
        pool={0: {(WHITE, 1): 2}},
        control={"moray": 0, "banff": 0},
        filled={0: ((INCOME, 0),)},
        money=(3, 0),
    )
    s = play(s, "play AC13")  # the Build I assignment is the only one: made at once
    assert s.phase.name == "th1"
    assert _said(s, "build build I-right") == (
        "the Build column's I-right slot holds the black die, not a tower house"
    )
    assert _said(s, "build income II") == (
        "this card places a level I tower house (a column's I-right slot)"
    )
    assert _said(s, "territory moray") == "first choose which column's level I tower house to place"
    s = play(s, "build income I-right")
    assert s.phase.name == "th1" and legal_texts(s) == ["territory banff", "territory moray"]
    assert _said(s, "build intrigue I-right") == (
        "the Income column's tower house is chosen; now its territory"
    )
    assert _said(s, "territory buchan") == "you do not control Buchan (nobody does)"


# -- the free troops (E16) ------------------------------------------------------------------


def test_the_free_troops_of_a_recruit(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC20": 1}, {(WHITE, 1): 1}, castles=("moray",), money=(0, 0))
    s = play(s, "play AC20")  # up to 2 infantry free
    assert s.phase.name == "free_recruit"
    assert legal_texts(s) == ["take 1 infantry", "take 2 infantry"]
    assert _said(s, "take 1 cavalry") == "the card gives free infantry only"
    assert _said(s, "take 3 infantry") == (
        "you may take at most 2 (the card gives 2, your supply holds 10)"
    )
    assert _said(s, "take 0 infantry") == "take at least one of the card's free troops"
