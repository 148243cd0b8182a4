"""A Military die's choice to recruit and the recruit step reckon the £ one way
(``rules.recruit_money``: the pounds and a card's discount, E14), so the die is never
refused a recruit the step would allow. No bundled card discounts a recruit with a free
choice of move or recruit, so this is checked on a hand-made position holding such a
discount; the bundled game's legal actions are unchanged (golden files and digests)."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud.playing import MOD_DISCOUNT
from clangames.clan_feud.rules import MILITARY, recruit_money, recruit_possible, working
from clangames.clan_feud.state import ClanFeudState, Task

from .cf_rules_helpers import done, legal_texts, load, play, position, tid


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


def _military(game: Any, discount: int) -> ClanFeudState:
    """Seat 0's level I Military die with no £, an infantry to move in Banff, a castle in
    Moray, and (``discount`` > 0) a card's discount pending, the die free to recruit or
    move (no mode)."""
    mods: tuple[int, ...] = ()
    if discount:
        design = [d.id for d in game.deck.designs].index("AC14")
        mods = (0, design, MILITARY, 1, 0, discount, -1, 0, 0, 0, 0, 0)
    return position(
        game,
        [Task("military", 0, 1)],
        troops={(0, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 0},
        castles=("moray",),
        money=(0, 0),
        mods=mods,
    )


def test_a_discount_lets_the_military_die_recruit_what_the_step_offers(game) -> None:  # type: ignore[no-untyped-def]
    s = _military(game, 3)
    assert s.mods[MOD_DISCOUNT] == 3
    w = working(s)
    assert recruit_money(w, 0) == 3 and recruit_possible(w, 0, 1)
    assert s.phase.name == "military" and legal_texts(s) == ["recruit", "move"]
    s = play(s, "recruit")  # Moray, the one building, is chosen at once
    assert legal_texts(s) == ["take 1 infantry", "take 2 infantry", "take 3 infantry"]
    s = play(s, "take 3 infantry")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (3, 0, 0) and s.money == (0, 0)


def test_without_a_discount_no_pound_means_no_recruit(game) -> None:  # type: ignore[no-untyped-def]
    s = _military(game, 0)
    w = working(s)
    assert recruit_money(w, 0) == 0 and not recruit_possible(w, 0, 1)
    # "move", the only choice, was taken at once, and so was the one army's one troop
    assert s.phase.name == "step"
