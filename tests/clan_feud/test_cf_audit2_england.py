"""Second audit of Clan Feud part 2 (England at war): the rules the author's own tests left
open, each on a small hand-made position. England defending a city, the King beside
English armies, a spawn battle the clan wins, marching one territory a move, a defeat that
brings peace partway through a march, Income II and III, control and the final count
ignoring English armies, building in English-held land, and the last event drawn at war."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.scoring import final_count
from clangames.clan_feud.state import Battle, Task

from .cf_helpers import variant
from .cf_rules_helpers import done, invariant, legal_texts, load, play, tid
from .test_cf_england_war import ENGLAND, armies, at_war, event_index, march

WHITE = 0


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


# ---------------------------------------------------------------------------------------
# England's battles


def test_england_defending_a_city_takes_its_bonus(game: ClanFeudGame) -> None:
    # seat 0's 4 cavalry (8) step from Banff into Aberdeen, a city where an L1 army stands:
    # 3 + 2 + the city's 1 = 6, so seat 0 wins by 2 (3 without the bonus); the move ends
    # there although cavalry have a second step
    aberdeen = tid(game, "aberdeen")
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"aberdeen": ((3, 1, 0), (1,))},
        troops={(0, "banff"): (0, 4, 0)},
        control={"banff": 0},
    )
    s = play(s, "take 4 cavalry", "territory aberdeen")
    b = s.battle
    assert b is not None and b.owners == (0, ENGLAND) and b.territory == aberdeen
    assert legal_texts(s) == ["roll 1", "roll 2"]


def test_england_defending_and_winning_rolls_at_most_the_attackers_plus_three(
    game: ClanFeudGame,
) -> None:
    # seat 0's one infantry attacks an L2 army in Buchan: 1 against 8, England rolls
    # 1 + 3 = 4 dice unasked (the margin is 7)
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"buchan": ((4, 2, 0), (2,))},
        troops={(0, "banff"): (1, 0, 0)},
        control={"banff": 0},
    )
    s = play(s, "territory buchan")
    assert s.is_chance and s.tasks[-1] == Task("bhits", a=1, b=4)


def test_english_artillery_takes_a_clan_castles_bonus_away(game: ClanFeudGame) -> None:
    # the L3 in Buchan (3 infantry, 2 cavalry, 1 artillery) marches on seat 1's 4 infantry
    # in its castle in Banff: 7 + the artillery's 2 against 4, no castle bonus, so England
    # wins by 5 and rolls 5 dice (with the bonus: 3)
    s = march(
        game,
        1,
        english={"buchan": ((3, 2, 1), (3,))},
        troops={(1, "banff"): (4, 0, 0)},
        control={"banff": 1},
        castles=("banff",),
    )
    assert s.is_chance and s.phase.name == "bart"
    s = play(s, "total 2")
    assert s.tasks[-1] == Task("bhits", a=0, b=5)


def test_a_saved_state_counts_an_attacking_english_army_in_englands_supply(
    game: ClanFeudGame,
) -> None:
    from clangames.engine.errors import StateDecodeError
    from clangames.engine.simultaneous import Commitments

    def saved(infantry_in_mull: int) -> dict[str, Any]:
        battle = Battle(
            territory=tid(game, "banff"),
            owners=(ENGLAND, 1),
            origin=tid(game, "buchan"),
            attackers=(3, 2, 1),
            king=-1,
            cards=Commitments.open(2),
            tokens=Commitments.open(2),
            levels=(3,),
        )
        s = at_war(
            game,
            [Task("round")],
            english={"mull": ((infantry_in_mull, 6, 1), (1, 1, 2, 3))},
            troops={(1, "banff"): (2, 0, 0)},
            control={"banff": 1},
            battle=battle,
        )
        return s.to_json()

    back: Any = game.state_from_json(saved(13))
    assert back.battle is not None  # 16 / 8 / 2 in all
    with pytest.raises(StateDecodeError, match="beyond"):
        game.state_from_json(saved(14))


def test_the_regents_army_beaten_attacking_england_leaves_the_king_there_alone(
    game: ClanFeudGame,
) -> None:
    banff, moray = tid(game, "banff"), tid(game, "moray")
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"banff": ((4, 2, 0), (2,))},
        troops={(0, "moray"): (2, 0, 0)},
        control={"moray": 0},
        regent=0,
        king=moray,
        gold_out=True,
    )
    s = play(s, "take 2 infantry")  # the King goes unasked: no troop stays with him
    s = play(s, "territory banff")
    b = s.battle
    assert b is not None and b.king == 0 and s.king == banff
    # 2 + the King's 1 against 8: England's margin 5, at most 2 + 3 dice
    assert s.tasks[-1] == Task("bhits", a=1, b=5)
    s = play(s, "hits 5/0")  # five 1s: both infantry fall
    assert done(s)
    assert s.king == banff and s.regent == -1  # England ignores him: he stands alone
    assert s.feud == (3, 0)  # two casualties and the King
    assert armies(s) == {"banff": ((4, 2, 0), (2,))} and s.controller[banff] == -1
    invariant(s)


def test_a_clan_army_beating_england_takes_the_lone_king_standing_with_it(
    game: ClanFeudGame,
) -> None:
    banff = tid(game, "banff")
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"banff": ((1, 0, 0), (1,))},
        troops={(0, "moray"): (0, 4, 0)},
        control={"moray": 0},
        king=banff,
        gold_out=True,
        england=12,
        money=(0, 0),
    )
    s = play(s, "take 4 cavalry", "territory banff", "roll 1", "hits 1/0")
    assert done(s)
    assert s.regent == 0 and s.king == banff and s.controller[banff] == 0
    assert s.vp == (1, 0) and s.money == (2, 0) and s.england == 11 and s.english == ()
    invariant(s)


def test_a_clan_attacker_retreating_from_england_leaves_the_king_behind(
    game: ClanFeudGame,
) -> None:
    banff, moray = tid(game, "banff"), tid(game, "moray")
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"banff": ((4, 2, 0), (2,))},
        troops={(0, "moray"): (3, 4, 0)},
        control={"moray": 0},
        regent=0,
        king=moray,
        gold_out=True,
    )
    s = play(s, "take 4 cavalry", "take 3 infantry", "territory banff")
    # 11 + the King's 1 against 8: seat 0 rolls; one die hits both sides
    s = play(s, "roll 1", "hits 1/1", "lose infantry", "retreat")
    assert done(s)
    assert s.troops_at(0, moray) == (2, 4, 0) and s.king == banff and s.regent == -1
    assert armies(s) == {"banff": ((3, 2, 0), (2,))}  # England lost an infantry first
    invariant(s)


# ---------------------------------------------------------------------------------------
# Spawning and marching


def test_a_spawn_beaten_by_the_clan_pays_the_defender_and_its_defeat_brings_peace(
    game: ClanFeudGame,
) -> None:
    # EV09 spawns in VIII (Orkney), where seat 1 stands; 10 -> 11 crosses the L1 flame.
    # Seat 1 wipes it out: 1 VP and £2, the track back to 10, and every English army
    # (the L2 in Mull too) disbands before any march
    orkney = tid(game, "orkney")
    s = at_war(
        game,
        [Task("espawn")],
        events=(event_index(game, "EV09"),),
        england=11,
        track_start=10,
        english={"mull": ((4, 2, 0), (2,))},
        troops={(1, "orkney"): (6, 4, 0)},
        control={"orkney": 1},
        money=(0, 0),
    )
    b = s.battle
    assert b is not None and b.owners == (ENGLAND, 1) and b.attackers == (3, 1, 0)
    # 5 against 14: seat 1 may roll 1..9 dice
    assert legal_texts(s)[-1] == "roll 9"
    s = play(s, "roll 4", "hits 4/0")
    assert done(s)
    assert s.vp == (0, 1) and s.money == (0, 2) and s.england == 10 and s.english == ()
    assert s.troops_at(1, orkney) == (6, 4, 0) and s.controller[orkney] == 1
    invariant(s)


def test_a_flame_that_does_not_fit_stops_the_higher_ones_that_would(
    game: ClanFeudGame,
) -> None:
    # 13 infantry, 6 cavalry and 1 artillery are out: 3 / 2 / 1 left. 13 -> 16 crosses the
    # L2 at 14 (4 infantry: does not fit) and the L3 at 16 (3 / 2 / 1: would fit); the
    # first that does not fit ends the spawning, so nothing spawns
    s = at_war(
        game,
        [Task("espawn")],
        events=(event_index(game, "EV09"),),
        england=16,
        track_start=13,
        english={"mull": ((13, 6, 1), (1, 1, 2, 3))},
    )
    assert done(s) and armies(s) == {"mull": ((13, 6, 1), (1, 1, 2, 3))}


def test_a_flame_below_the_war_step_spawns_only_once_england_is_at_war(
    tmp_path: Path,
) -> None:
    # a user's track with its first flame at step 9: reaching 9 or 10 spawns nothing (the
    # second line is read only at war); going from 8 to 11 crosses it at war, and it spawns
    path = variant(tmp_path, "england.toml", "step = 11\nlevel = 1", "step = 9\nlevel = 1")
    g = load(2, england=path)
    ev = event_index(g, "EV09")
    s = at_war(g, [Task("phase3", a=3)], events=(ev,), england=10, track_start=8)
    assert s.english == () and s.phase.name == "order"
    s = at_war(g, [Task("phase3", a=3)], events=(ev,), england=11, track_start=8)
    assert armies(s) == {"orkney": ((3, 1, 0), (1,))}


def test_a_spawn_onto_the_lone_king_leaves_him_alone(game: ClanFeudGame) -> None:
    orkney = tid(game, "orkney")
    s = at_war(
        game,
        [Task("espawn")],
        events=(event_index(game, "EV09"),),
        england=11,
        track_start=10,
        king=orkney,
        gold_out=True,
        control={"orkney": 1},
    )
    assert done(s) and armies(s) == {"orkney": ((3, 1, 0), (1,))}
    assert s.king == orkney and s.regent == -1 and s.controller[orkney] == 1
    invariant(s)


def test_a_march_takes_one_territory_a_move(game: ClanFeudGame) -> None:
    # Orkney to seat 1 in Inverness: Caithness, Sutherland, Dingwall, Inverness
    board = game.board
    orkney, inverness = tid(game, "orkney"), tid(game, "inverness")
    assert board.distances[orkney][inverness] == 4
    fields: dict[str, Any] = dict(
        english={"orkney": ((3, 1, 0), (1,))},
        troops={(1, "inverness"): (1, 0, 0)},
        control={"inverness": 1},
    )
    for moves, end in ((1, "caithness"), (2, "sutherland"), (3, "dingwall")):
        s = march(game, moves, **fields)
        assert done(s) and armies(s) == {end: ((3, 1, 0), (1,))}, moves


def test_a_combined_army_marches_by_the_sum_of_its_levels(game: ClanFeudGame) -> None:
    # the rulebook's example: a combined L2 + L3 army counts as level 5, so it marches
    # before a lone L3 with nothing asked (by its highest token the two would tie)
    s = march(
        game,
        1,
        english={"caithness": ((7, 4, 1), (2, 3)), "mull": ((3, 2, 1), (3,))},
        troops={(1, "inverness"): (1, 0, 0)},
        control={"inverness": 1},
        order=(0, 1),
    )
    assert done(s)
    assert armies(s) == {
        "sutherland": ((7, 4, 1), (2, 3)),
        "lochaber": ((3, 2, 1), (3,)),
    }
    # L1 + L1 (level 2) ties with an L2: the first player orders them
    s = march(
        game,
        1,
        english={"caithness": ((6, 2, 0), (1, 1)), "mull": ((4, 2, 0), (2,))},
        troops={(1, "inverness"): (1, 0, 0)},
        control={"inverness": 1},
        order=(0, 1),
    )
    assert s.phase.name == "emarch" and s.to_move == (0,)
    assert sorted(legal_texts(s)) == ["territory caithness", "territory mull"]


def test_each_move_asks_again_when_the_nearest_clan_armies_still_tie(
    game: ClanFeudGame,
) -> None:
    # from Dumfries, seat 0 in Roxburgh and seat 1 in Tweeddale are both two steps away,
    # each only through Annandale; from Annandale they are both next door, so the second
    # move's target is asked again (no regent: the first player, seat 0)
    s = march(
        game,
        2,
        english={"dumfries": ((3, 1, 0), (1,))},
        troops={(0, "roxburgh"): (1, 0, 0), (1, "tweeddale"): (1, 0, 0)},
        control={"roxburgh": 0, "tweeddale": 1},
        order=(0, 1),
    )
    assert s.phase.name == "emove" and s.to_move == (0,)
    assert legal_texts(s) == ["territory roxburgh", "territory tweeddale"]
    s = play(s, "territory roxburgh")  # the one first step, Annandale, is taken unasked
    assert s.phase.name == "emove" and armies(s) == {"annandale": ((3, 1, 0), (1,))}
    assert legal_texts(s) == ["territory roxburgh", "territory tweeddale"]
    s = play(s, "territory tweeddale")
    b = s.battle
    assert b is not None and b.territory == tid(game, "tweeddale") and b.owners == (ENGLAND, 1)


def test_an_english_army_stepping_onto_the_lone_king_ignores_him(game: ClanFeudGame) -> None:
    caithness = tid(game, "caithness")
    s = march(
        game,
        1,
        english={"orkney": ((3, 1, 0), (1,))},
        troops={(1, "sutherland"): (1, 0, 0)},
        control={"sutherland": 1, "caithness": 0},
        king=caithness,
        gold_out=True,
    )
    assert done(s) and armies(s) == {"caithness": ((3, 1, 0), (1,))}
    assert s.king == caithness and s.regent == -1 and s.controller[caithness] == 0
    invariant(s)


def test_a_defeat_that_brings_peace_stops_the_march(game: ClanFeudGame) -> None:
    # the level-2 remnant in Buchan (one infantry) marches first into seat 1's Banff and
    # falls: the track goes 12 -> 10, so the L1 in Orkney disbands before it marches
    s = march(
        game,
        2,
        english={"buchan": ((1, 0, 0), (2,)), "orkney": ((3, 1, 0), (1,))},
        troops={(1, "banff"): (2, 0, 0)},
        control={"banff": 1},
        england=12,
        money=(0, 0),
    )
    b = s.battle
    assert b is not None and b.attackers == (1, 0, 0) and b.levels == (2,)
    s = play(s, "hits 1/0")  # 1 against 2: seat 1's one die
    assert done(s)
    assert s.england == 10 and s.english == () and s.vp == (0, 2) and s.money == (0, 4)
    assert not any(t.kind in ("emarch", "emove") for t in s.tasks)


# ---------------------------------------------------------------------------------------
# Income, control, scoring, building


def test_income_two_and_three_skip_territories_holding_an_english_army(
    game: ClanFeudGame,
) -> None:
    fields: dict[str, Any] = dict(
        english={"banff": ((3, 1, 0), (1,))},
        control={"banff": 0, "moray": 0, "buchan": 0},
        money=(0, 0),
    )
    s = at_war(game, [Task("income", 0, 2)], **fields)
    assert s.is_chance and s.tasks[-1].kind == "income_roll" and s.tasks[-1].a == 2
    s = at_war(game, [Task("income", 0, 3)], **fields)
    assert done(s) and s.money == (4, 0)
    # every territory held by England: nothing to collect
    s = at_war(
        game,
        [Task("income", 0, 3)],
        english={"banff": ((3, 1, 0), (1,))},
        control={"banff": 0},
        money=(0, 0),
    )
    assert done(s) and s.money == (0, 0)


def test_control_and_the_final_count_ignore_english_armies(game: ClanFeudGame) -> None:
    fields: dict[str, Any] = dict(
        control={"banff": 0, "moray": 0}, towers={"banff": 1}, money=(0, 0)
    )
    occupied = at_war(game, [], english={"banff": ((3, 1, 0), (1,))}, **fields)
    free = at_war(game, [], **fields)
    assert final_count(occupied, 0) == final_count(free, 0) == 2 + 2
    assert occupied.scores() == free.scores()


def test_a_tower_house_may_be_built_in_english_held_land(game: ClanFeudGame) -> None:
    # control is England's to ignore, so seat 0 still controls Banff and may build there
    banff = tid(game, "banff")
    s = at_war(
        game,
        [Task("assign", 0)],
        english={"banff": ((3, 1, 0), (1,))},
        control={"banff": 0},
        pool={0: {(WHITE, 1): 1}},
        money=(3, 0),
    )
    assert "assign white 1 to build I" in legal_texts(s)
    s = play(s, "assign white 1 to build I", "build income I-right")
    assert done(s) and s.towers[banff] == 1 and s.money == (0, 0)


# ---------------------------------------------------------------------------------------
# The end of the game at war


def test_the_last_event_drawn_at_war_ends_the_game_without_english_actions(
    game: ClanFeudGame,
) -> None:
    # all eight regular events drawn: King James comes of age. An English army beside seat
    # 1 neither spawns, marches nor fights, and nobody pays upkeep
    events = (1, 2, 3, 4, 5, 6, 7, 0)
    assert len(events) == game.deck_size
    s = at_war(
        game,
        [Task("phase3")],
        events=events,
        english={"buchan": ((4, 2, 0), (2,))},
        troops={(1, "banff"): (2, 0, 0)},
        control={"banff": 1},
        england=12,
        track_start=10,
        money=(0, 0),
    )
    assert s.is_terminal and s.battle is None
    assert armies(s) == {"buchan": ((4, 2, 0), (2,))} and s.england == 12
    assert s.troops_at(1, tid(game, "banff")) == (2, 0, 0)
    assert s.vp[1] == final_count(s, 1) == 1 - 2


# ---------------------------------------------------------------------------------------
# A whole phase 3 at war


def test_phase_three_spawns_then_marches_the_others_then_asks_upkeep(
    game: ClanFeudGame,
) -> None:
    # EV01: England +1, each player £3 or +1 (nobody can pay): 12 -> 15 crosses 13 (L1) and
    # 14 (L2), one combined army in V (Berwick) that stays; the L1 in Orkney takes the
    # card's 2 moves toward seat 1 in Inverness; then seat 0's card window, then upkeep
    s = at_war(
        game,
        [Task("phase3", a=2)],
        events=(event_index(game, "EV01"),),
        england=12,
        track_start=12,
        english={"orkney": ((3, 1, 0), (1,))},
        troops={(1, "inverness"): (1, 0, 0)},
        control={"inverness": 1},
        money=(0, 0),
        feud=(0, 1),
        hands={0: {"AC31": 1}},
    )
    assert s.england == 15
    assert armies(s) == {
        "berwick": ((7, 3, 0), (1, 2)),
        "sutherland": ((3, 1, 0), (1,)),
    }
    assert s.phase.name == "p3cards" and s.to_move == (0,)
    s = play(s, "pass")
    assert s.phase.name == "upkeep" and s.to_move == (1,)
