"""Audit: battle rules the first scenarios left open, each on a hand-made position.

No rule of the rulebook or the rulings ever forces a side to retreat (a retreat is always
declared; the forced cases are a continue and the retreat's destination). The nearest
forced cases are pinned here: the attacker's retreat always goes back, whole, to where its
move began (not to the territory it last passed), the defender's to its own territory
before a free one, and a retreat always leaves the King behind.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.military import effects
from clangames.clan_feud.state import Task

from .cf_rules_helpers import done, invariant, legal_texts, load, play, position, tid


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


def _battle(game: ClanFeudGame, attackers: Any, defenders: Any, **kw: Any) -> Any:
    """Seat 0's ``attackers`` from Moray have just entered Inverness (a city), held by
    seat 1's ``defenders``."""
    control = {"moray": 0, "inverness": 1, **kw.pop("control", {})}
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): attackers, (1, "inverness"): defenders},
        control=control,
        **kw,
    )
    while s.phase.name == "army":
        s = s.apply(s.legal_actions()[-1])
    return play(s, "territory inverness")


# -- the forced cases nearest a forced retreat ---------------------------------------------------


def test_attacker_retreats_whole_to_where_its_move_began_leaving_the_king(
    game: ClanFeudGame,
) -> None:
    banff, moray, inverness = (tid(game, n) for n in ("banff", "moray", "inverness"))
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "banff"): (0, 2, 0), (1, "inverness"): (3, 0, 0)},
        control={"banff": 0, "inverness": 1},
        regent=0,
        king=banff,
        gold_out=True,
    )
    s = play(s, "take 2 cavalry", "territory moray", "territory inverness")
    # 2 cavalry + the King = 5 against 3 + the city's 1: one die, face 3
    s = play(s, "hits 0/1")
    assert legal_texts(s) == ["continue", "retreat"]
    s = play(s, "retreat")
    assert done(s)
    # back to Banff, not Moray (which the cavalry passed through and did not claim)
    assert s.troops_at(0, banff) == (0, 1, 0) and not any(s.troops_at(0, moray))
    assert s.controller[moray] == -1
    # the King stays in Inverness and the defender takes him; seat 0 gets a token for
    # its casualty and one for the King
    assert s.king == inverness and s.regent == 1 and s.feud == (2, 0)
    invariant(s)


def test_defender_retreating_with_the_king_leaves_him_to_the_attacker(game: ClanFeudGame) -> None:
    inverness = tid(game, "inverness")
    s = _battle(
        game,
        (6, 0, 0),
        (2, 0, 0),
        control={"dingwall": 1},
        regent=1,
        king=inverness,
        gold_out=True,
    )
    # 6 against 2 + city 1 + King 1: seat 0 rolls one of up to two dice
    s = play(s, "roll 1", "hits 0/1", "continue", "retreat")
    assert done(s)
    assert s.troops_at(1, tid(game, "dingwall")) == (2, 0, 0)
    assert s.troops_at(0, inverness) == (5, 0, 0) and s.controller[inverness] == 0
    assert s.regent == 0 and s.king == inverness
    # seat 1: the King lost and the city lost (one building); seat 0: its casualty and
    # the city's black die (Feud I: a token)
    assert s.feud == (2, 2)
    invariant(s)


def test_defender_with_no_own_neighbour_chooses_a_free_one_and_claims_it(
    game: ClanFeudGame,
) -> None:
    dingwall = tid(game, "dingwall")
    s = _battle(game, (6, 0, 0), (2, 0, 0), regent=-1, king=dingwall, gold_out=True)
    s = play(s, "roll 1", "hits 0/1", "continue", "retreat")
    # Moray is the attacker's; Loch Ness, Badenoch and Dingwall are free
    assert sorted(legal_texts(s)) == [
        "territory badenoch",
        "territory dingwall",
        "territory loch_ness",
    ]
    s = play(s, "territory dingwall")
    assert done(s)
    assert s.controller[dingwall] == 1 and s.troops_at(1, dingwall) == (2, 0, 0)
    assert s.regent == 1  # the lone King there is taken by the retreat
    invariant(s)


def test_attackers_wiped_out_end_the_battle_without_asking_the_defender(
    game: ClanFeudGame,
) -> None:
    s = _battle(game, (1, 0, 0), (2, 0, 0))
    # 1 against 2 + 1: the defender rolls one of up to two dice
    s = play(s, "roll 1", "hits 1/0")
    assert done(s) and s.battle is None
    inverness = tid(game, "inverness")
    assert s.controller[inverness] == 1 and s.troops_at(1, inverness) == (2, 0, 0)
    assert not any(s.troops[0]) and s.feud == (1, 0)


# -- strength and combat cards -------------------------------------------------------------------


def test_cs_card_and_feud_tokens_add_strength_and_are_spent(game: ClanFeudGame) -> None:
    s = _battle(game, (2, 0, 0), (2, 0, 0), hands={0: {"AC10": 1}}, feud=(2, 0))
    # seat 1 holds no card and no token: only seat 0 is asked, at both sealed nodes
    assert s.phase.name == "bcards" and s.to_move == (0,)
    s = s.apply_text("card AC10", 0)
    assert s.to_move == (0,) and legal_texts(s, 0) == ["commit 0", "commit 1", "commit 2"]
    s = s.apply_text("commit 1", 0)
    # 2 + cs+2 + 1 token = 5 against 2 + city 1: a margin of 2
    assert legal_texts(s) == ["roll 1", "roll 2"]
    assert s.feud == (1, 0) and s.hands[0] == (0,) * len(s.hands[0])
    assert s.discards[9] == 1


def test_cancel_voids_the_other_card_and_two_cancels_void_each_other(
    game: ClanFeudGame,
) -> None:
    s = _battle(game, (2, 0, 0), (2, 0, 0), hands={0: {"AC10": 1}, 1: {"AC01": 1}})
    s = s.apply_text("card AC10", 0).apply_text("card AC01", 1)
    b = s.battle
    assert b is not None and effects(s, b) == (None, None)
    # without the attacker's cs+2 it is 2 against 3: the defender wins the round
    assert b.roller == 1 and s.discards[0] == 1 and s.discards[9] == 1
    s = _battle(game, (2, 0, 0), (2, 0, 0), hands={0: {"AC05": 1}, 1: {"AC01": 1}})
    s = s.apply_text("card AC05", 0).apply_text("card AC01", 1)
    b = s.battle
    assert b is not None and effects(s, b) == (None, None)
    assert s.discards[0] == 1 and s.discards[4] == 1


def test_skulls_plus_hurts_the_round_winner(game: ClanFeudGame) -> None:
    s = _battle(game, (4, 0, 0), (1, 0, 0), hands={1: {"AC09": 1}})  # skulls+1
    s = s.apply_text("card AC09", 1)
    s = play(s, "roll 1", "hits 1/0")
    # the winner's die hit only the defender; the card still kills one attacker
    inverness = tid(game, "inverness")
    assert done(s) and s.troops_at(0, inverness) == (3, 0, 0)
    # seat 0: a casualty and the city's black die (its Feud I slot: a token); seat 1: a
    # casualty and the city lost
    assert s.feud == (2, 2)


def test_owners_choose_their_casualties_attacker_first(game: ClanFeudGame) -> None:
    s = _battle(game, (2, 1, 0), (2, 1, 0))
    # 4 against 4 + the city: the defender wins by 1, one die, face 2 (one casualty each)
    s = play(s, "hits 1/1")
    assert s.phase.name == "bloss" and s.to_move == (0,)
    assert legal_texts(s) == ["lose infantry", "lose cavalry"]
    s = play(s, "lose cavalry")
    assert s.to_move == (1,) and legal_texts(s) == ["lose infantry", "lose cavalry"]
    s = play(s, "lose infantry")
    b = s.battle
    assert b is not None and b.attackers == (2, 0, 0)
    assert s.troops_at(1, tid(game, "inverness")) == (1, 1, 0)
    assert s.feud == (1, 1)


def test_scores_mid_battle_count_the_attackers_as_troops(game: ClanFeudGame) -> None:
    """Ruling 13 of docs/games/clan-feud.md: the attackers stand outside every territory
    while the battle lasts, yet they are their clan's troops."""
    s = _battle(game, (2, 0, 0), (2, 0, 0), money=(0, 0))
    assert s.battle is not None and not any(s.troops[0])
    # seat 0: Moray 1, two troops -2; seat 1: Inverness 1 + its city 4, two troops -2
    assert s.scores() == (1 - 2, 1 + 4 - 2)


def test_the_castle_bonus_returns_once_the_attackers_artillery_is_gone(
    game: ClanFeudGame,
) -> None:
    s = _battle(game, (2, 0, 1), (3, 0, 0), castles=("inverness",))
    # round 1: the artillery cancels the castle: 2 + 2 (its dice) against 3; one die,
    # face 3: the attacker loses its artillery
    s = play(s, "total 2", "hits 0/1")
    assert s.phase.name == "bloss" and s.to_move == (0,)
    s = play(s, "lose artillery", "continue", "continue")
    b = s.battle
    assert b is not None and b.rounds == 2 and b.attackers == (2, 0, 0)
    # round 2 (the casualty's feud token is not committed): 2 against 3 + the castle's 2
    s = s.apply_text("commit 0", 0)
    assert s.phase.name == "broll" and s.to_move == (1,)
    assert legal_texts(s) == ["roll 1", "roll 2", "roll 3"]


def test_a_level_two_move_goes_on_after_a_battle_without_the_attackers(
    game: ClanFeudGame,
) -> None:
    s = position(
        game,
        [Task("move", 0, 2)],
        troops={(0, "moray"): (4, 0, 0), (0, "banff"): (1, 0, 0), (1, "inverness"): (1, 0, 0)},
        control={"moray": 0, "banff": 0, "inverness": 1},
    )
    s = play(s, "territory moray", "take 4 infantry", "territory inverness")
    s = play(s, "roll 1", "hits 1/0")  # 4 against 1 + the city: the defender falls
    assert s.battle is None and s.phase.name == "move"
    # the attackers moved already: only Banff's infantry may make the second move
    assert legal_texts(s) == ["stop", "territory banff"]
    s = play(s, "territory banff", "territory buchan")
    assert done(s) and s.troops_at(0, tid(game, "inverness")) == (4, 0, 0)


def test_casualty_and_artillery_dice_have_the_white_dice_odds(game: ClanFeudGame) -> None:
    s = _battle(game, (0, 0, 1), (2, 0, 0), castles=("inverness",))
    # one artillery: the sum of two white dice (faces 1,1,1,2,2,3)
    odds = {s.action_text(a): p for a, p in s.chance_outcomes()}
    assert odds == {
        "total 2": Fraction(9, 36),
        "total 3": Fraction(12, 36),
        "total 4": Fraction(10, 36),
        "total 5": Fraction(4, 36),
        "total 6": Fraction(1, 36),
    }
    s = play(s, "total 3")  # 3 against 2 (no castle bonus): one die, rolled at once
    odds = {s.action_text(a): p for a, p in s.chance_outcomes()}
    # face 1: the loser; 2: both; 3: the winner
    assert odds == {
        "hits 1/0": Fraction(1, 2),
        "hits 1/1": Fraction(1, 3),
        "hits 0/1": Fraction(1, 6),
    }
