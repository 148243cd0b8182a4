"""Audit of Clan Feud part 3 (the action cards' actions): scenarios the design tests left
out, each on a hand-made position, asserting the outcome the cards specification
(``clan-feud-cards.md`` sections 1.3-1.4 and 2.1) and the rulings give. The two fixes of
this audit each have a test here that fails on the code before the fix (named in its
docstring)."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud.rules import BUILD, MILITARY
from clangames.clan_feud.state import EnglishArmy, Task

from .cf_rules_helpers import (
    after_roll,
    at_assign,
    done,
    legal_texts,
    load,
    play,
    position,
    tid,
    upkeep,
)

WHITE, BLACK, GOLD, TEMPORARY = 0, 1, 2, 6


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


def english(game: Any, **armies: tuple[int, int, int]) -> tuple[EnglishArmy, ...]:
    """English armies of level 1, by territory id."""
    return tuple(
        sorted(
            (EnglishArmy(tid(game, name), troops, (1,)) for name, troops in armies.items()),
            key=lambda a: a.territory,
        )
    )


# -- E14 discount (AC14, AC15) ------------------------------------------------------------


def test_ac15_discount_left_after_the_first_purchase_pays_the_second(game) -> None:  # type: ignore[no-untyped-def]
    """E14: the £ price of the accompanying Build *action* is reduced by n (2.1: one
    discount per Build action, even a LVL III double build). French Gold's £6 on a LVL III
    double build of two £3 tower houses makes the whole action free, whichever is bought
    first. Fails before the fix: the £3 left after the first purchase was lost, so with
    £0 the second tower house was not offered."""
    s = at_assign(
        game, {"AC15": 1}, {(WHITE, 3): 1}, money=(0, 0), uncovered={0: ((BUILD, 2), (BUILD, 3))}
    )
    s = play(s, "play AC15", "assign white 3 to build III", "build income I-right")
    assert s.money[0] == 0
    assert "build intrigue I-right" in legal_texts(s)
    s = play(s, "build intrigue I-right")
    assert done(s) and s.money[0] == 0 and s.towers[tid(game, "moray")] == 2
    # the discount still never goes below a price of 0, nor becomes money: a single £3
    # purchase with £6 off costs nothing and pays nothing back
    s = at_assign(game, {"AC15": 1}, {(WHITE, 2): 1}, money=(1, 0), uncovered={0: ((BUILD, 2),)})
    s = play(s, "play AC15", "build income I-right")
    assert done(s) and s.money[0] == 1


def test_ac14_discount_is_one_per_build_action(game) -> None:  # type: ignore[no-untyped-def]
    """Master Masons' £3 on a LVL III double build of a £9 and a £3 purchase: £3 off
    in all (12 - 3 = 9 paid), never £3 off each."""
    s = at_assign(
        game,
        {"AC14": 1},
        {(WHITE, 3): 1},
        money=(20, 0),
        uncovered={0: ((BUILD, 2), (BUILD, 3))},
    )
    s = play(s, "play AC14", "assign white 3 to build III", "build income II")
    assert s.money[0] == 20 - 6
    s = play(s, "build intrigue I-right")
    assert done(s) and s.money[0] == 20 - 9


# -- E13 bonus Income, E19 the track: with England at war ---------------------------------


def test_ac06_bonus_income_skips_territories_holding_an_english_army(game) -> None:  # type: ignore[no-untyped-def]
    armies = english(game, banff=(3, 1, 0))
    kw: dict[str, Any] = {"england": 11, "track_start": 11, "at_war": True, "money": (0, 0)}
    s = after_roll(game, {"AC06": 1}, control={"moray": 0, "banff": 0}, english=armies, **kw)
    s = play(s, "play AC06")
    assert s.money[0] == 1  # Moray yields, Banff does not
    # the only territory held by England: the card would change nothing
    s = after_roll(game, {"AC06": 1}, control={"banff": 0}, english=armies, **kw)
    assert legal_texts(s) == ["pass"]


def test_ac17_to_ten_in_phase_two_disbands_every_english_army(game) -> None:  # type: ignore[no-untyped-def]
    armies = english(game, banff=(3, 1, 0), orkney=(3, 1, 0))
    s = at_assign(
        game,
        {"AC17": 1},
        {(WHITE, 1): 1},
        england=11,
        track_start=11,
        at_war=True,
        english=armies,
        money=(0, 0),
    )
    s = play(s, "play AC17")
    assert s.england == 10 and s.english == ()
    assert s.is_chance  # then the die's own Intrigue draws


def test_ac31_at_upkeep_disbands_and_spawns_nothing(game) -> None:  # type: ignore[no-untyped-def]
    armies = english(game, banff=(3, 1, 0))
    s = upkeep(
        game,
        {"AC31": 1},
        england=12,
        track_start=12,
        at_war=True,
        english=armies,
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0},
    )
    s = play(s, "play AC31")
    assert s.england == 10 and s.english == () and s.phase.name == "upkeep"
    # above 10 the armies stay: 14 -> 12
    s = upkeep(
        game,
        {"AC31": 1},
        england=14,
        track_start=14,
        at_war=True,
        english=armies,
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0},
    )
    s = play(s, "play AC31")
    assert s.england == 12 and len(s.english) == 1


# -- E8 steal --------------------------------------------------------------------------------


def test_ac09_names_only_victims_holding_money_and_never_overdraws(game) -> None:  # type: ignore[no-untyped-def]
    g3 = load(3)
    s = at_assign(g3, {"AC09": 1}, {(WHITE, 1): 1}, money=(0, 0, 1))
    s = play(s, "play AC09")  # only seat 2 has a pound: named at once
    assert s.money == (1, 0, 0)


def test_ac18_takes_a_card_at_random_from_the_victims_real_hand(game) -> None:  # type: ignore[no-untyped-def]
    """Each card of the victim's hand equally likely (weights = copies held); the
    design is shown to the taker and the victim only; everyone sees the hand sizes."""
    g3 = load(3)
    s = position(
        g3,
        [Task("assign", 0)],
        hands={0: {"AC18": 1}, 1: {"AC10": 2, "AC33": 1}, 2: {"AC02": 1}},
        pool={0: {(WHITE, 1): 1}},
    )
    s = play(s, "play AC18", "seat 1")
    weights = {s.action_text(a): w for a, w in s.chance_weights()}
    assert weights == {"draw AC10": 2, "draw AC33": 1}
    s = play(s, "draw AC33")
    assert s.hands[0][32] == 1 and s.hands[1][32] == 0
    assert s.observation(0).known == s.observation(1).known == ((0, 1, 32),)
    third = s.observation(2)
    assert third.known == ((0, 1, -1),) and third.hand_sizes[:2] == (1, 2)


# -- E17 move boosts -------------------------------------------------------------------------


def test_ac23_speed_boost_still_stops_at_a_mountain(game) -> None:  # type: ignore[no-untyped-def]
    """Ride from Loch Leven adds speed but not ``ignore_mountains``: entering a
    mountain still ends the move."""
    s = at_assign(game, {"AC23": 1}, {(WHITE, 1): 1}, troops={(0, "moray"): (1, 0, 0)})
    s = play(s, "play AC23", "territory badenoch")
    assert done(s) and s.troops_at(0, tid(game, "badenoch")) == (1, 0, 0)


# -- E11 the temporary die --------------------------------------------------------------------


def test_the_temporary_die_is_white_for_every_filter_and_change(game) -> None:  # type: ignore[no-untyped-def]
    """A temporary die showing 1 may become a 3 (it is not black), and the Bawbee's
    ``value=1`` takes it."""
    s = after_roll(game, {"AC07": 1}, pool={0: {(TEMPORARY, 1): 1}})
    s = play(s, "play AC07")
    assert s.pool[0][3 * TEMPORARY + 2] == 1
    s = at_assign(game, {"AC12": 1}, {(TEMPORARY, 1): 1}, money=(0, 0))
    s = play(s, "play AC12", "assign temporary 1 to feud I")
    assert s.money[0] == 3 and s.feud[0] == 1


# -- combinators on a card: "up to N" takes at least one ----------------------------------


def test_ac30_played_for_its_action_returns_at_least_one_token(game) -> None:  # type: ignore[no-untyped-def]
    """A card may be played for its action only if the action changes the game (1.3);
    so, like the die changes and free troops (part 3 ruling 5), Letters of Slains' first
    repetition is not optional once the card is played; the second is. Fails before the
    fix: the first repetition offered ``decline``, which spent the card for nothing."""
    s = play(upkeep(game, {"AC30": 1}, feud=(3, 0)), "play AC30")
    assert s.feud[0] == 2 and s.vp[0] == 1  # the first repetition, made at once
    assert legal_texts(s) == ["accept", "decline"]
    s = play(s, "decline")
    assert done(s) and s.feud[0] == 2 and s.vp[0] == 1
    # one token: the one repetition it can pay, then no question
    s = play(upkeep(game, {"AC30": 1}, feud=(1, 0)), "play AC30")
    assert done(s) and s.feud[0] == 0 and s.vp[0] == 1


def test_an_event_repeat_still_starts_optional(game) -> None:  # type: ignore[no-untyped-def]
    """EV13's objective ``repeat(2) [pay_money(5); gain_vp(2)]`` is a choice from the
    first repetition on: the card rule above is for action cards only."""
    from clangames.clan_feud.interpret import program

    ev13 = [e.id for e in game.events.regular].index("EV13")
    s = position(game, [program(0, game.objective_nodes[ev13])], money=(10, 0))
    assert legal_texts(s) == ["accept", "decline"]
    s = play(s, "decline")
    assert done(s) and s.money[0] == 10


# -- P2: the die's action need be legal only after the card ---------------------------------


def test_a_die_may_go_where_the_cards_money_makes_its_action_possible(game) -> None:  # type: ignore[no-untyped-def]
    """Cards spec 1.1: after ``play <design>``, the assignments offered are those legal
    *after the card*. The Bawbee's £3 (AC12), the Burgh Tolbooth's £1 (AC26) and the
    Voyage to the Isles' Intrigue £1 (AC19) come before the die's action, so with £0 a
    Build or a Military recruit they pay for is offered. Fails before the fix: the die's
    action was judged with the money held before the card."""
    kw: dict[str, Any] = {"castles": ("moray",), "money": (0, 0)}
    s = play(at_assign(game, {"AC12": 1}, {(WHITE, 1): 1}, **kw), "play AC12")
    assert {"assign white 1 to build I", "assign white 1 to military I"} <= set(legal_texts(s))
    s = play(s, "assign white 1 to build I", "build income I-right")
    assert done(s) and s.money[0] == 0 and s.towers[tid(game, "moray")] == 1
    s = play(at_assign(game, {"AC26": 1}, {(BLACK, 1): 1}, **kw), "play AC26")
    assert "assign black 1 to military I" in legal_texts(s)
    s = play(s, "assign black 1 to military I")  # one infantry: the only recruit
    assert done(s) and s.money[0] == 0 and s.vp[0] == 1
    assert s.troops_at(0, tid(game, "moray")) == (1, 0, 0)
    s = at_assign(game, {"AC19": 1}, {(WHITE, 1): 1}, **kw)
    assert "play AC19" in legal_texts(s)  # the Military die recruits with the Intrigue £1
    s = play(s, "play AC19")
    s = s.apply(s.chance_weights()[0][0])  # the Intrigue action's card; then the recruit
    assert done(s) and s.money[0] == 0 and s.vp[0] == 2
    # without the card, neither die could act there
    assert "assign white 1 to build I" not in legal_texts(
        at_assign(game, {}, {(WHITE, 1): 1}, **kw)
    )


def test_only_a_cards_whole_optional_action_is_made_unasked(tmp_path: Any) -> None:
    """A user's card whose action is ``may [...]`` makes it unasked when played; one that
    has acted first (``[gain_vp(1); may [...]]``) still asks, since it already changed
    the game."""
    from .cf_helpers import variant

    (tmp_path / "b").mkdir()
    root = variant(
        tmp_path,
        "actions.toml",
        'action = "reduce_upkeep(3)"',
        'action = "may [pay_money(1); gain_vp(2)]"',
    )
    s = upkeep(load(2, actions=root), {"AC28": 1}, money=(5, 5))
    s = play(s, "play AC28")
    assert done(s) and s.money[0] == 4 and s.vp[0] == 2
    later = variant(
        tmp_path / "b",
        "actions.toml",
        'action = "reduce_upkeep(3)"',
        'action = "[gain_vp(1); may [pay_money(1); gain_vp(2)]]"',
    )
    s = play(upkeep(load(2, actions=later), {"AC28": 1}, money=(5, 5)), "play AC28")
    assert s.vp[0] == 1 and legal_texts(s) == ["accept", "decline"]
    s = play(s, "decline")
    assert done(s) and s.money[0] == 5 and s.vp[0] == 1


def test_ac25_needs_more_troops_than_the_dice_level_moves_armies(game) -> None:  # type: ignore[no-untyped-def]
    """Muster of the Clan adds one army to the move; with no more troops than the die's
    level moves armies it would change nothing, so it is combat only there (part 3
    ruling 4). Fails before the fix: it was offered with a lone infantry."""
    one = {(0, "moray"): (1, 0, 0)}
    s = at_assign(game, {"AC25": 1}, {(WHITE, 1): 1}, troops=one)
    assert "play AC25" not in legal_texts(s)
    # two troops in one stack: a LVL I move takes them as two armies, one after the other
    two = {(0, "moray"): (2, 0, 0)}
    s = play(at_assign(game, {"AC25": 1}, {(WHITE, 1): 1}, troops=two), "play AC25")
    s = play(s, "take 1 infantry", "territory banff")
    assert "territory moray" in legal_texts(s)  # the second army
    s = play(s, "territory moray", "territory inverness")
    moved = (s.troops_at(0, tid(game, "banff")), s.troops_at(0, tid(game, "inverness")))
    assert done(s) and moved == ((1, 0, 0), (1, 0, 0))
    # a LVL II die already moves two armies: the card goes only with the LVL I slot (the
    # one assignment left, made at once)
    s = at_assign(game, {"AC25": 1}, {(WHITE, 2): 1}, troops=two, uncovered={0: ((MILITARY, 2),)})
    assert "assign white 2 to military II" in legal_texts(s)
    s = play(s, "play AC25")
    assert s.phase.name == "army" and s.filled[0] == 1 << (5 * MILITARY)
