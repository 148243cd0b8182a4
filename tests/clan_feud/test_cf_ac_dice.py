"""Clan Feud part 3: the action cards played with a die in phase (2), one scenario per
design (AC08-AC27): ``play <design>`` at the assignment turn, then only the assignments its
filter allows; the card resolves first, then the die's action. Each is also refused by its
filter, or when it would change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud.rules import BUILD, FEUD, INCOME, INTRIGUE, MILITARY
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.clan_feud.words import told as narrated
from clangames.engine.errors import IllegalActionError

from .cf_rules_helpers import at_assign, done, legal_texts, load, play, position, tid

WHITE, BLACK, GOLD = 0, 1, 2


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


def draw_any(s: ClanFeudState) -> ClanFeudState:
    """Resolve a card draw (chance) with its first outcome."""
    assert s.is_chance
    return s.apply(s.chance_weights()[0][0])


def test_ac08_deadly_feud_with_a_feud_die(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC08": 1}, {(WHITE, 1): 1}, feud=(0, 0))
    assert "play AC08" in legal_texts(s)
    s = play(s, "play AC08")  # one Feud assignment: made at once; then the Feud token
    assert done(s) and s.feud[0] == 3 and s.discards[7] == 1 and s.mods == ()
    # the filter: no free Feud slot, no play
    s = at_assign(game, {"AC08": 1}, {(WHITE, 1): 1}, filled={0: ((FEUD, 0),)})
    assert "play AC08" not in legal_texts(s) and "assign white 1 to income I" in legal_texts(s)


def test_ac09_reiving_raid_steals_money(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC09": 1}, {(WHITE, 1): 1}, money=(0, 2))
    card = next(a for a in s.legal_actions() if s.action_text(a) == "play AC09")
    assert narrated(s, card) == (
        "play Reiving Raid (steal up to £3 from an opponent), with a die you assign next to"
        " the Feud column; then player 0's only option: put a white 1 on the feud column,"
        " level I; player 0's only option: steal up to £3 from player 1; player 0 gains £2;"
        " player 1 loses £2; player 0's only option: take 1 feud token (the Feud benefit);"
        " player 0 gains 1 feud token"
    )
    s = play(s, "play AC09")
    assert done(s) and s.money == (2, 0)
    # nobody has a pound: combat only
    assert "play AC09" not in legal_texts(
        at_assign(game, {"AC09": 1}, {(WHITE, 1): 1}, money=(0, 0))
    )
    # three players: the victim is named, and the sentence names them
    g3 = load(3)
    s = at_assign(g3, {"AC09": 1}, {(WHITE, 1): 1}, money=(0, 5, 1))
    s = play(s, "play AC09")
    assert legal_texts(s) == ["seat 1", "seat 2"]
    assert narrated(s, s.legal_actions()[1]) == (
        "steal up to £3 from player 2; then player 0's only option: take 1 feud token (the"
        " Feud benefit); player 0 gains 1 feud token"
    )
    s = play(s, "seat 1")
    assert s.money == (3, 2, 1)


def test_ac10_salt_pans_with_an_income_die(game) -> None:  # type: ignore[no-untyped-def]
    s = play(at_assign(game, {"AC10": 1}, {(WHITE, 1): 1}, money=(0, 0)), "play AC10")
    assert done(s) and s.money[0] == 3 + 1  # the card, then Income I on one territory
    s = at_assign(game, {"AC10": 1}, {(WHITE, 1): 1}, filled={0: ((INCOME, 0),)})
    assert "play AC10" not in legal_texts(s)


def test_ac11_staple_at_veere_pays_per_city(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC11": 1}, {(WHITE, 1): 1}, money=(0, 0), control={"inverness": 0})
    s = play(s, "play AC11")
    assert done(s) and s.money[0] == 2 + 1
    assert "play AC11" not in legal_texts(at_assign(game, {"AC11": 1}, {(WHITE, 1): 1}))


def test_ac12_the_bawbee_with_a_rolled_one(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC12": 1}, {(WHITE, 1): 1, (WHITE, 2): 1}, money=(0, 0))
    s = play(s, "play AC12")
    texts = legal_texts(s)
    assert texts and all(t.startswith("assign white 1 ") for t in texts)
    with pytest.raises(IllegalActionError):
        s.apply_text("assign white 2 to feud II")
    s = play(s, "assign white 1 to feud I")
    assert s.money[0] == 3 and s.feud[0] == 1
    assert "play AC12" not in legal_texts(at_assign(game, {"AC12": 1}, {(WHITE, 2): 1}))


def test_ac13_barmkin_act_free_tower_house_and_its_slot(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("assign", 0), Task("assign", 0)],
        hands={0: {"AC13": 1}},
        pool={0: {(WHITE, 1): 2}},
        control={"moray": 0},
        filled={0: ((INCOME, 0),)},
        money=(3, 0),
    )
    s = play(s, "play AC13")  # the Build I assignment is the only one: made at once
    assert legal_texts(s) == [
        "build income I-right",
        "build intrigue I-right",
        "build military I-right",
    ]
    s = play(s, "build income I-right")  # placed at once in Moray, the only place
    moray = tid(game, "moray")
    assert s.towers[moray] == 1 and not s.covered[0] >> (5 * INCOME + 1) & 1
    s = play(s, "build intrigue I-right")  # the die's own, paid Build
    assert s.towers[moray] == 2 and s.money[0] == 0
    # the freed slot takes a later die the same turn (Income I-left was filled)
    assert "assign white 1 to income I" in legal_texts(s)
    s = play(s, "assign white 1 to income I")
    assert done(s) and s.filled[0] >> (5 * INCOME + 1) & 1


def test_ac13_refused_when_the_build_could_not_follow(game) -> None:  # type: ignore[no-untyped-def]
    # Moray holds a castle: the free tower house fills it, and with the black die bought
    # no paid Build would be left
    kw: dict[str, Any] = {"castles": ("moray",), "uncovered": {0: ((BUILD, 1),)}, "money": (3, 0)}
    s = at_assign(game, {"AC13": 1}, {(WHITE, 1): 1}, **kw)
    assert "assign white 1 to build I" in legal_texts(s) and "play AC13" not in legal_texts(s)
    # no LVL I tower house left on the board
    gone = {0: ((INCOME, 1), (INTRIGUE, 1), (MILITARY, 1))}
    s = at_assign(game, {"AC13": 1}, {(WHITE, 1): 1}, uncovered=gone)
    assert "play AC13" not in legal_texts(s)


def test_ac14_master_masons_discount_counts_once(game) -> None:  # type: ignore[no-untyped-def]
    # £0: Build is possible only with the discount
    s = at_assign(game, {"AC14": 1}, {(WHITE, 1): 1}, money=(0, 0))
    assert "assign white 1 to build I" not in legal_texts(s) and "play AC14" in legal_texts(s)
    s = play(s, "play AC14", "build income I-right")
    assert done(s) and s.money[0] == 0 and s.towers[tid(game, "moray")] == 1
    # a LVL III double build: the discount comes off once
    s = at_assign(
        game, {"AC14": 1}, {(WHITE, 3): 1}, money=(10, 0), uncovered={0: ((BUILD, 2), (BUILD, 3))}
    )
    s = play(s, "play AC14")
    assert "assign white 3 to build III" in legal_texts(s)
    s = play(s, "assign white 3 to build III", "build income I-right")
    assert s.money[0] == 10
    s = play(s, "build intrigue I-right")
    assert done(s) and s.money[0] == 7


def test_ac15_french_gold_needs_a_level_two_build(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(
        game, {"AC15": 1}, {(WHITE, 2): 1}, money=(6, 0), uncovered={0: ((INCOME, 2), (BUILD, 2))}
    )
    s = play(s, "play AC15")  # of Build I and II, the filter leaves II: made at once
    assert s.phase.name == "build" and s.tasks[-1].a == 2
    s = play(s, "build income III-left")
    assert done(s) and s.money[0] == 0 and s.site[tid(game, "moray")] == 2
    assert "play AC15" not in legal_texts(at_assign(game, {"AC15": 1}, {(WHITE, 1): 1}))


def test_ac16_privy_council_with_an_intrigue_die(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC16": 1}, {(WHITE, 1): 1}, money=(0, 0))
    s = draw_any(play(s, "play AC16"))  # the card's draw
    s = draw_any(s)  # Intrigue I's draw
    assert done(s) and s.vp[0] == 1 + 2 and s.money[0] == 1 and sum(s.hands[0]) == 2


def test_ac17_envoy_to_london_lowers_the_track(game) -> None:  # type: ignore[no-untyped-def]
    s = draw_any(play(at_assign(game, {"AC17": 1}, {(WHITE, 1): 1}, england=5), "play AC17"))
    assert done(s) and s.england == 4
    assert "play AC17" not in legal_texts(at_assign(game, {"AC17": 1}, {(WHITE, 1): 1}))


def test_ac18_casket_letters_steal_a_card(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("assign", 0)],
        hands={0: {"AC18": 1}, 1: {"AC05": 1}},
        pool={0: {(WHITE, 1): 1}},
    )
    s = play(s, "play AC18")  # the victim and the card (one) come at once
    assert s.hands[0][4] == 1 and s.hands[1][4] == 0 and s.known == ((0, 1, 4),)
    assert s.observation(1).known == ((0, 1, 4),)  # the victim knows what was taken
    s = draw_any(s)
    assert done(s)
    lone = at_assign(game, {"AC18": 1}, {(WHITE, 1): 1})
    assert "play AC18" not in legal_texts(lone)  # nobody holds a card


def test_ac19_voyage_to_the_isles_intrigue_with_a_military_die(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(
        game, {"AC19": 1}, {(WHITE, 1): 1}, troops={(0, "moray"): (1, 0, 0)}, money=(0, 0)
    )
    s = draw_any(play(s, "play AC19"))
    assert s.money[0] == 1 and s.vp[0] == 2 and s.phase.name == "step"  # then the move
    s = play(s, "territory banff")
    assert done(s) and s.controller[tid(game, "banff")] == 0


def test_ac20_wappinschaw_free_infantry_with_no_paid_troop(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC20": 1}, {(WHITE, 1): 1}, castles=("moray",), money=(0, 0))
    assert "assign white 1 to military I" not in legal_texts(s)  # no £, no troops
    s = play(s, "play AC20")
    assert legal_texts(s) == ["take 1 infantry", "take 2 infantry"]
    s = play(s, "take 2 infantry")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (2, 0, 0) and s.money[0] == 0
    # the die must recruit: with troops to move, the Military choice is still forced
    s = at_assign(
        game, {"AC20": 1}, {(WHITE, 1): 1}, castles=("moray",), troops={(0, "moray"): (1, 0, 0)}
    )
    s = play(s, "play AC20")
    assert s.phase.name == "free_recruit"
    assert "play AC20" not in legal_texts(at_assign(game, {"AC20": 1}, {(WHITE, 1): 1}))


def test_ac21_border_horse_free_cavalry(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC21": 1}, {(WHITE, 1): 1}, castles=("moray",), money=(1, 0))
    s = play(s, "play AC21")  # one cavalry, free (a LVL I slot recruits no cavalry)
    assert legal_texts(s) == ["take 0 infantry", "take 1 infantry"]
    s = play(s, "take 1 infantry")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (1, 1, 0) and s.money[0] == 0
    full = {(0, "moray"): (0, 4, 0)}  # the cavalry supply is on the board
    s = at_assign(game, {"AC21": 1}, {(WHITE, 1): 1}, castles=("moray",), troops=full)
    assert "play AC21" not in legal_texts(s)


def test_ac22_mons_meg_needs_a_level_three_military_slot(game) -> None:  # type: ignore[no-untyped-def]
    open_iii = {0: ((MILITARY, 2), (MILITARY, 3))}
    s = at_assign(
        game, {"AC22": 1}, {(WHITE, 3): 1}, castles=("moray",), uncovered=open_iii, money=(0, 0)
    )
    s = play(s, "play AC22")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (0, 0, 1)
    s = at_assign(game, {"AC22": 1}, {(WHITE, 2): 1}, castles=("moray",), uncovered=open_iii)
    assert "play AC22" not in legal_texts(s)  # no die reaches LVL III


def move_position(
    game: Any, card: str, troops: dict[tuple[int, str], tuple[int, int, int]], **kw: Any
) -> ClanFeudState:
    control = {name: p for (p, name) in troops}
    return at_assign(game, {card: 1}, {(WHITE, 1): 1}, troops=troops, control=control, **kw)


def test_ac23_ride_from_loch_leven_one_more_step(game) -> None:  # type: ignore[no-untyped-def]
    s = play(move_position(game, "AC23", {(0, "moray"): (1, 0, 0)}), "play AC23")
    s = play(s, "territory banff")
    assert "territory buchan" in legal_texts(s)  # infantry, speed 1 + 1
    s = play(s, "territory buchan")
    assert done(s) and s.troops_at(0, tid(game, "buchan")) == (1, 0, 0)


def test_ac24_light_horse_boosts_cavalry_only_armies(game) -> None:  # type: ignore[no-untyped-def]
    king = {"regent": 0, "gold_out": True, "king": tid(game, "moray")}
    # a cavalry army with the King: speed 3 and no mountain stop
    s = play(move_position(game, "AC24", {(0, "moray"): (0, 2, 0)}, **king), "play AC24")
    s = play(s, "take 2 cavalry", "territory badenoch")  # a mountain: the move goes on
    s = play(s, "territory atholl", "territory perth")
    perth = tid(game, "perth")
    assert done(s) and s.troops_at(0, perth) == (0, 2, 0) and s.king == perth
    # a mixed army: no boost, a mountain ends the move
    s = play(move_position(game, "AC24", {(0, "moray"): (1, 1, 0)}, **king), "play AC24")
    s = play(s, "take 1 cavalry", "take 1 infantry", "territory badenoch")
    assert done(s) and s.troops_at(0, tid(game, "badenoch")) == (1, 1, 0)
    # no cavalry at all: the card would change nothing
    s = move_position(game, "AC24", {(0, "moray"): (1, 0, 0)})
    assert "play AC24" not in legal_texts(s)


def test_ac25_muster_of_the_clan_one_more_army(game) -> None:  # type: ignore[no-untyped-def]
    troops = {(0, "moray"): (1, 0, 0), (0, "buchan"): (1, 0, 0)}
    s = play(move_position(game, "AC25", troops), "play AC25")
    s = play(s, "territory moray", "territory banff")
    assert "territory buchan" in legal_texts(s)  # a LVL I move, a second army
    s = play(s, "territory buchan", "territory aberdeen")
    assert done(s) and s.troops_at(0, tid(game, "aberdeen")) == (1, 0, 0)


def test_ac26_burgh_tolbooth_with_the_black_die(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC26": 1}, {(BLACK, 1): 1, (WHITE, 1): 1}, money=(0, 0))
    s = play(s, "play AC26")
    assert all(t.startswith("assign black 1") for t in legal_texts(s))
    s = play(s, "assign black 1 to feud I", "tokens")
    assert s.money[0] == 1 and s.vp[0] == 1 and s.feud[0] == 1
    assert "play AC26" not in legal_texts(at_assign(game, {"AC26": 1}, {(WHITE, 1): 1}))


def test_ac27_regents_seal_with_the_gold_die(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(game, {"AC27": 1}, {(GOLD, 1): 1}, money=(0, 0))
    s = play(s, "play AC27", "assign gold 1 to feud I")
    assert done(s) and s.money[0] == 2 and s.vp[0] == 2
    assert "play AC27" not in legal_texts(at_assign(game, {"AC27": 1}, {(WHITE, 1): 1}))


def test_a_card_can_be_played_to_make_a_die_usable_yet_passing_stays_allowed(game) -> None:  # type: ignore[no-untyped-def]
    s = at_assign(
        game,
        {"AC14": 1},
        {(WHITE, 1): 1},
        money=(0, 0),
        filled={0: ((FEUD, 0), (INCOME, 0), (INTRIGUE, 0), (MILITARY, 0))},
    )
    assert legal_texts(s) == ["pass", "play AC14"]
