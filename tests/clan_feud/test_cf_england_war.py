"""Clan Feud part 2 (issue 13): England at war. Spawning at the flames, the combined army,
marching on the nearest clan army, English armies in battle, recruits fighting on arrival,
defeat rewards, the track moving back and disbanding, Income skipping occupied land, and
the parameters, views and saved states that show it."""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.interpret import program
from clangames.clan_feud.state import ClanFeudState, EnglishArmy, Task
from clangames.clan_feud.war import spawn_troops
from clangames.engine.errors import InvalidParameterError
from clangames.testing.conformance import check_state

from .cf_rules_helpers import done, invariant, legal_texts, load, play, position, tid

ENGLAND = -1


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


def event_index(game: ClanFeudGame, ident: str) -> int:
    return [e.id for e in game.events.regular].index(ident)


def at_war(
    game: ClanFeudGame,
    tasks: list[Task],
    english: dict[str, tuple[tuple[int, int, int], tuple[int, ...]]] | None = None,
    **kw: Any,
) -> ClanFeudState:
    """A position with English armies (territory name: troops, level tokens), the track at
    14 unless given."""
    armies = tuple(
        sorted(
            (
                EnglishArmy(tid(game, name), troops, tokens)
                for name, (troops, tokens) in (english or {}).items()
            ),
            key=lambda a: a.territory,
        )
    )
    kw.setdefault("england", 14)
    kw.setdefault("track_start", kw["england"])
    return position(game, tasks, english=armies, **kw)


def armies(s: ClanFeudState) -> dict[str, tuple[tuple[int, int, int], tuple[int, ...]]]:
    ids = s.game.board.territories
    return {ids[a.territory].id: (a.troops, a.tokens) for a in s.english}


def march(game: ClanFeudGame, moves: int, **kw: Any) -> ClanFeudState:
    return at_war(game, [Task("emarch", a=moves)], **kw)


# ---------------------------------------------------------------------------------------
# English armies in battle


def test_the_rulebooks_dice_cap_example(game: ClanFeudGame) -> None:
    # 2 cavalry + 4 infantry (CS 8) beat 2 infantry (CS 2) by 6, yet roll 2 + 3 = 5 dice
    s = march(
        game,
        1,
        english={"buchan": ((4, 2, 0), (2,))},
        troops={(1, "banff"): (2, 0, 0)},
        control={"banff": 1},
    )
    b = s.battle
    assert b is not None and b.owners == (ENGLAND, 1) and b.attackers == (4, 2, 0)
    assert b.levels == (2,) and s.english == ()  # the army waits in the battle
    assert s.is_chance and s.tasks[-1] == Task("bhits", a=0, b=5)


def test_an_english_win_ends_its_movement_and_leaves_the_king_alone(
    game: ClanFeudGame,
) -> None:
    banff = tid(game, "banff")
    s = march(
        game,
        3,
        english={"buchan": ((4, 2, 0), (2,))},
        troops={(1, "banff"): (1, 0, 0)},
        control={"banff": 1},
        towers={"banff": 1},
        regent=1,
        king=banff,
        gold_out=True,
    )
    # 8 against 1 + the King's 1: England rolls at most 1 + 3 dice
    assert s.tasks[-1] == Task("bhits", a=0, b=4)
    s = play(s, "hits 4/0")
    assert done(s)  # two moves were left: the win ended them
    assert armies(s) == {"banff": ((4, 2, 0), (2,))}
    assert s.controller[banff] == 1 and s.regent == -1 and s.king == banff
    assert s.feud == (0, 2)  # seat 1: its casualty and the King; England gains nothing
    invariant(s)


def test_a_clan_defending_against_england_cannot_retreat_into_an_english_army(
    game: ClanFeudGame,
) -> None:
    # seat 1 in Banff, beaten by the army from Buchan; Moray, its own, holds another
    # English army, and the other neighbours are seat 0's: it must fight on
    s = march(
        game,
        1,
        english={"buchan": ((4, 2, 0), (2,)), "moray": ((3, 1, 0), (1,))},
        troops={(1, "banff"): (3, 0, 0)},
        control={"banff": 1, "moray": 1, "buchan": 0, "aberdeen": 0, "mar": 0},
    )
    assert s.tasks[-1] == Task("bhits", a=0, b=5)
    s = play(s, "hits 1/4")  # seat 1 loses one, England four infantry
    assert s.battle is not None and s.battle.rounds == 2  # no retreat was asked


def test_a_clan_army_wiping_out_a_combined_army_is_paid_and_moves_the_track_back(
    game: ClanFeudGame,
) -> None:
    # seat 0 moves 4 cavalry from Moray into Banff, held by a combined L1 + L2 army of one
    # infantry left; another English army stands in Orkney
    banff = tid(game, "banff")
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"banff": ((1, 0, 0), (1, 2)), "orkney": ((3, 1, 0), (1,))},
        troops={(0, "moray"): (0, 4, 0)},
        control={"moray": 0},
        england=14,
        money=(0, 0),
    )
    s = play(s, "take 4 cavalry", "territory banff")
    assert s.battle is not None and s.battle.owners == (0, ENGLAND)
    # 8 against 1: seat 0 chooses its dice; one die that hits the loser ends it
    s = play(s, "roll 1", "hits 1/0")
    assert done(s)
    assert s.vp == (3, 0) and s.money == (6, 0)  # L1 + L2: 1 + 2 VP, £2 + £4
    assert s.england == 11  # back 1 + 2 steps, and nothing spawns
    assert armies(s) == {"orkney": ((3, 1, 0), (1,))}
    assert s.troops_at(0, banff) == (0, 4, 0) and s.controller[banff] == 0
    invariant(s)


def test_no_reward_when_both_sides_are_wiped_out_but_the_track_goes_back(
    game: ClanFeudGame,
) -> None:
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"banff": ((1, 0, 0), (1,))},
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0},
        england=13,
        money=(0, 0),
    )
    s = play(s, "territory banff")  # its one infantry goes unasked
    # 1 against 1: a draw, each side rolls one die; both hit the other
    s = play(s, "hits 1/0", "hits 1/0")
    assert done(s)
    assert s.vp == (0, 0) and s.money == (0, 0)
    assert s.england == 12 and s.english == ()


def test_the_track_back_to_ten_disbands_every_english_army(game: ClanFeudGame) -> None:
    s = at_war(
        game,
        [Task("move", 0, 1)],
        english={"banff": ((1, 0, 0), (1,)), "orkney": ((4, 2, 0), (2,))},
        troops={(0, "moray"): (0, 2, 0)},
        control={"moray": 0},
        england=11,
    )
    s = play(s, "take 2 cavalry", "territory banff", "roll 1", "hits 1/0")
    assert done(s)
    assert s.england == 10 and s.english == ()
    assert s.vp == (1, 0)


def test_recruits_into_an_english_army_fight_at_once_and_cannot_retreat(
    game: ClanFeudGame,
) -> None:
    # seat 0 recruits 4 infantry + 2 cavalry at its castle in Banff, where England stands
    banff = tid(game, "banff")
    s = at_war(
        game,
        [Task("recruit", 0, 3, -1)],
        english={"banff": ((3, 1, 0), (1,))},
        troops={(0, "moray"): (1, 0, 0)},
        control={"banff": 0, "moray": 0},
        castles=("banff",),
        money=(20, 0),
    )
    # Banff is its one territory with a building: chosen unasked
    s = play(s, "take 0 artillery", "take 2 cavalry", "take 4 infantry")
    b = s.battle
    assert b is not None and b.owners == (0, ENGLAND) and b.attackers == (4, 2, 0)
    assert b.origin == -1 and s.troops_at(0, banff) == (0, 0, 0)
    # 8 against England's 5 + the castle's 2 (the recruits have no artillery): 1 die
    assert s.is_chance and s.tasks[-1] == Task("bhits", a=0, b=1)
    s = play(s, "hits 0/1", "lose infantry")  # the die hits the recruits only
    # no retreat question: the next round has begun (the casualty's token is to commit)
    assert s.battle is not None and s.battle.rounds == 2 and s.phase.name == "btokens"
    s = s.apply_text("commit 0", 0)
    assert s.tasks[-1] == Task("bhits", a=0, b=1)  # 3 + 4 against 5 + 2: a draw
    assert s.money == (10, 0)  # £6 for the cavalry, £4 for the infantry
    invariant(s)


def test_recruits_that_win_claim_nothing_new_and_are_not_marked_moved(
    game: ClanFeudGame,
) -> None:
    banff = tid(game, "banff")
    s = at_war(
        game,
        [Task("recruit", 0, 2, -1)],
        english={"banff": ((1, 0, 0), (1,))},
        control={"banff": 0},
        castles=("banff",),
        money=(20, 0),
    )
    s = play(s, "take 0 cavalry", "take 4 infantry", "hits 1/0")  # 4 against 1 + 2
    assert done(s) and s.troops_at(0, banff) == (4, 0, 0) and s.english == ()
    assert s.moved == (0,) * len(s.moved)  # recruits, not a move: free to move later
    assert s.vp == (1, 0) and s.money == (20 - 4 + 2, 0) and s.england == 13


def test_england_defending_a_castle_loses_the_bonus_to_artillery(game: ClanFeudGame) -> None:
    s = at_war(
        game,
        [Task("recruit", 0, 3, -1)],
        english={"banff": ((3, 1, 0), (1,))},
        control={"banff": 0},
        castles=("banff",),
        money=(20, 0),
    )
    s = play(s, "take 1 artillery", "take 0 cavalry", "take 0 infantry")
    # the artillery's two dice: a sum of 6 beats England's 5 (no castle bonus) by 1
    s = play(s, "total 6")
    assert s.tasks[-1] == Task("bhits", a=0, b=1)  # the recruits won the round


def test_recruits_beside_a_lone_king_in_an_english_territory_take_him_only_if_they_win(
    game: ClanFeudGame,
) -> None:
    banff = tid(game, "banff")
    s = at_war(
        game,
        [Task("recruit", 0, 1, -1)],
        english={"banff": ((1, 0, 0), (1,))},
        control={"banff": 0},
        castles=("banff",),
        king=banff,
        gold_out=True,
        money=(20, 0),
    )
    s = play(s, "take 4 infantry")
    assert s.regent == -1 and s.battle is not None and s.battle.king == -1
    # 4 against 1 + the castle's 2: one die, England's infantry falls
    s = play(s, "hits 1/0")
    assert done(s) and s.regent == 0 and s.troops_at(0, banff) == (4, 0, 0)
    assert s.vp == (1, 0) and s.english == ()


# ---------------------------------------------------------------------------------------
# Income


def test_income_skips_a_territory_holding_an_english_army(game: ClanFeudGame) -> None:
    s = at_war(
        game,
        [Task("income", 0, 1)],
        english={"banff": ((3, 1, 0), (1,))},
        control={"banff": 0, "moray": 0, "buchan": 0},
        money=(0, 0),
    )
    assert done(s) and s.money == (2, 0)


# ---------------------------------------------------------------------------------------
# Spawning


@pytest.mark.parametrize("flame", [0, 1, 2, 3, 4])
def test_each_flame_crossed_spawns_its_level(game: ClanFeudGame, flame: int) -> None:
    f = game.england.flames[flame]
    s = at_war(game, [], england=f.step, track_start=f.step - 1)
    troops, tokens = spawn_troops(s)
    assert tokens == (f.level,) and troops == game.england.level(f.level).troops


def test_landing_counts_and_a_net_fall_crosses_none(game: ClanFeudGame) -> None:
    # 12 -> 13 lands on the 13 flame; 14 -> 13 crosses nothing; 13 -> 13 neither
    assert spawn_troops(at_war(game, [], england=13, track_start=12))[1] == (1,)
    assert spawn_troops(at_war(game, [], england=13, track_start=14))[1] == ()
    assert spawn_troops(at_war(game, [], england=13, track_start=13))[1] == ()
    assert spawn_troops(at_war(game, [], england=12, track_start=10))[1] == (1,)


def spawning(game: ClanFeudGame, card: str, start: int, end: int, **kw: Any) -> ClanFeudState:
    return at_war(
        game,
        [Task("espawn")],
        events=(event_index(game, card),),
        england=end,
        track_start=start,
        **kw,
    )


def test_two_flames_make_one_combined_army_that_does_not_move(game: ClanFeudGame) -> None:
    # EV01: spawn in V (Berwick), 2 moves; 12 -> 14 crosses the L1 at 13 and the L2 at 14
    s = spawning(game, "EV01", 12, 14, troops={(1, "lothian"): (1, 0, 0)}, control={"lothian": 1})
    assert done(s)  # spawned this turn: it stays, though a clan army stands next door
    assert armies(s) == {"berwick": ((7, 3, 0), (1, 2))}


def test_an_empty_supply_stops_spawning_at_the_first_army_that_does_not_fit(
    game: ClanFeudGame,
) -> None:
    # an L2 army (4 inf, 2 cav) is out; 12 -> 17 crosses 13 (L1), 14 (L2), 16 (L3), 17 (L3):
    # after L1 + L2 + L3 only 2 infantry are left, so the last L3 spawns nothing
    s = spawning(game, "EV09", 12, 17, english={"mull": ((4, 2, 0), (2,))})
    assert armies(s)["orkney"] == ((10, 5, 1), (1, 2, 3))


def test_a_spawn_onto_an_english_army_merges_with_it(game: ClanFeudGame) -> None:
    s = spawning(
        game,
        "EV09",
        12,
        13,
        english={"orkney": ((2, 1, 0), (1,))},
        troops={(1, "caithness"): (1, 0, 0)},
        control={"caithness": 1},
    )
    assert done(s)  # merged into: it does not march this turn
    assert armies(s) == {"orkney": ((5, 2, 0), (1, 1))}


def test_a_spawn_onto_a_clan_army_fights_with_england_attacking(game: ClanFeudGame) -> None:
    orkney = tid(game, "orkney")
    s = spawning(game, "EV09", 10, 11, troops={(1, "orkney"): (2, 0, 0)}, control={"orkney": 1})
    b = s.battle
    assert b is not None and b.owners == (ENGLAND, 1) and b.territory == orkney
    assert b.attackers == (3, 1, 0) and b.levels == (1,)
    assert s.tasks[-1] == Task("bhits", a=0, b=3)  # 5 against 2: 3 dice (cap 2 + 3)
    s = play(s, "hits 3/0")
    assert done(s) and armies(s) == {"orkney": ((3, 1, 0), (1,))}
    assert s.controller[orkney] == 1  # England never takes control


def test_a_top_line_that_takes_the_track_down_and_up_disbands_and_spawns_nothing(
    game: ClanFeudGame,
) -> None:
    # EV10: England -1 (11 -> 10 disbands at once), then each player pays 2 feud tokens
    # or +1: both decline, 10 -> 12, but from the start of phase 3 (11) only 12 is
    # reached, which carries no flame
    ev = event_index(game, "EV10")
    s = at_war(
        game,
        [Task("phase3", a=2)],
        english={"orkney": ((3, 1, 0), (1,))},
        events=(ev,),
        england=11,
        track_start=11,
        feud=(0, 0),
    )
    assert s.england == 12 and s.english == ()
    assert s.phase.name == "order"  # the sentinel: upkeep had nothing to ask


def test_a_players_payment_midway_through_a_top_line_disbands_at_once(
    game: ClanFeudGame,
) -> None:
    # EV02's line: each player may pay £4 for England -1; seat 0 pays, 11 -> 10
    node = game.each_player_nodes[event_index(game, "EV02")]
    s = at_war(
        game,
        [program(1, node), program(0, node)],
        english={"orkney": ((3, 1, 0), (1,))},
        england=11,
        track_start=11,
        money=(10, 10),
    )
    assert s.to_move == (0,)
    s = play(s, "accept")
    assert s.england == 10 and s.english == ()  # before seat 1 has resolved its line
    assert s.to_move == (1,)


def test_the_track_never_passes_seventeen(game: ClanFeudGame) -> None:
    s = at_war(game, [Task("phase3", a=2)], events=(event_index(game, "EV11"),), england=16)
    assert s.england == 17


# ---------------------------------------------------------------------------------------
# Marching


def test_highest_level_marches_first(game: ClanFeudGame) -> None:
    # an L1 in Orkney and an L2 in Buchan; seat 1 in Banff. The L2 attacks first.
    s = march(
        game,
        1,
        english={"orkney": ((3, 1, 0), (1,)), "buchan": ((4, 2, 0), (2,))},
        troops={(1, "banff"): (2, 0, 0)},
        control={"banff": 1},
    )
    assert s.battle is not None and s.battle.attackers == (4, 2, 0)
    marches = [t for t in s.tasks if t.kind == "emarch"]
    assert marches == [Task("emarch", a=1, data=(tid(game, "banff"),))]


def test_a_tie_of_levels_is_ordered_by_the_regent_else_the_first_player(
    game: ClanFeudGame,
) -> None:
    english = {"orkney": ((3, 1, 0), (1,)), "mull": ((3, 1, 0), (1,))}
    inverness = tid(game, "inverness")
    fields: dict[str, Any] = dict(
        english=english, troops={(1, "inverness"): (2, 0, 0)}, control={"inverness": 1}
    )
    s = march(game, 1, order=(0, 1), **fields)
    assert s.phase.name == "emarch" and s.to_move == (0,)  # no regent: the first player
    assert legal_texts(s) == ["territory mull", "territory orkney"]
    s = march(game, 1, order=(0, 1), regent=1, king=inverness, gold_out=True, **fields)
    assert s.phase.name == "emarch" and s.to_move == (1,)  # the regent
    s = play(s, "territory orkney")
    # Orkney's army steps toward Inverness (its one neighbour, Caithness), then Mull's
    assert armies(s)["caithness"] == ((3, 1, 0), (1,))


def test_the_march_follows_a_sea_lane(game: ClanFeudGame) -> None:
    board = game.board
    mull, lorn = tid(game, "mull"), tid(game, "lorn")
    assert lorn in board.sea[mull] and lorn not in board.land[mull]
    s = march(
        game,
        2,
        english={"mull": ((3, 1, 0), (1,))},
        troops={(1, "lorn"): (1, 0, 0)},
        control={"lorn": 1},
    )
    assert s.battle is not None and s.battle.territory == lorn


def _tie_of_targets(game: ClanFeudGame) -> tuple[int, int, int]:
    """A territory with two others at the same distance 2, neither next to the other."""
    board = game.board
    for t in range(board.size):
        ring = [u for u in range(board.size) if board.distances[t][u] == 2]
        for i, a in enumerate(ring):
            for b in ring[i + 1 :]:
                if board.distances[a][b] > 1 and t not in board.spawns.values():
                    return t, a, b
    raise AssertionError("no tie of targets on the board")


def test_a_tie_of_targets_and_of_first_steps_is_the_regents(game: ClanFeudGame) -> None:
    board = game.board
    names = [t.id for t in board.territories]
    t, a, b = _tie_of_targets(game)
    s = at_war(
        game,
        [Task("emarch", a=1)],
        english={names[t]: ((3, 1, 0), (1,))},
        troops={(0, names[a]): (1, 0, 0), (1, names[b]): (1, 0, 0)},
        control={names[a]: 0, names[b]: 1},
        regent=1,
        king=b,
        gold_out=True,
    )
    assert s.phase.name == "emove" and s.to_move == (1,)
    assert legal_texts(s) == sorted(f"territory {names[x]}" for x in (a, b))
    assert "target" in s.prompt() or "marches on" in s.prompt()
    s = play(s, f"territory {names[a]}")
    steps = board.toward(t, a)
    if len(steps) > 1:
        assert s.phase.name == "emove" and s.to_move == (1,)
        assert legal_texts(s) == [f"territory {names[x]}" for x in steps]
        s = play(s, f"territory {names[steps[-1]]}")
        assert armies(s) == {names[steps[-1]]: ((3, 1, 0), (1,))}
    else:
        assert armies(s) == {names[steps[0]]: ((3, 1, 0), (1,))}
    assert done(s)


def test_a_tie_of_first_steps_is_asked(game: ClanFeudGame) -> None:
    board = game.board
    names = [t.id for t in board.territories]
    found = next(
        (t, u)
        for t in range(board.size)
        for u in range(board.size)
        if board.distances[t][u] == 2 and len(board.toward(t, u)) >= 2
    )
    t, u = found
    s = march(
        game,
        1,
        english={names[t]: ((3, 1, 0), (1,))},
        troops={(1, names[u]): (1, 0, 0)},
        control={names[u]: 1},
        order=(1, 0),
    )
    assert s.phase.name == "emove" and s.to_move == (1,)  # no regent: the first in order
    assert legal_texts(s) == [f"territory {names[x]}" for x in board.toward(t, u)]


def test_without_a_clan_army_english_armies_stay(game: ClanFeudGame) -> None:
    s = march(game, 3, english={"orkney": ((3, 1, 0), (1,))})
    assert done(s) and armies(s) == {"orkney": ((3, 1, 0), (1,))}


def test_two_english_armies_merge_on_the_march(game: ClanFeudGame) -> None:
    # the L2 in Caithness marches on seat 1 in Inverness and meets the L1 in Sutherland,
    # if that is its one way; the merged army moves no more this turn
    board = game.board
    caithness, sutherland = tid(game, "caithness"), tid(game, "sutherland")
    inverness = tid(game, "inverness")
    assert board.toward(caithness, inverness) == (sutherland,)
    s = march(
        game,
        3,
        english={"caithness": ((4, 2, 0), (2,)), "sutherland": ((3, 1, 0), (1,))},
        troops={(1, "inverness"): (1, 0, 0)},
        control={"inverness": 1},
    )
    assert done(s)
    assert armies(s) == {"sutherland": ((7, 3, 0), (1, 2))}


# ---------------------------------------------------------------------------------------
# Views, saved states, parameters, the kernel's contract


def test_everyone_sees_the_english_armies_and_the_track(game: ClanFeudGame) -> None:
    s = at_war(game, [], english={"orkney": ((3, 1, 0), (1,))}, england=12)
    for view in (s.public_observation(), s.observation(0), s.observation(1)):
        assert view.english == s.english and view.england == 12


def test_english_armies_round_trip_through_json(game: ClanFeudGame) -> None:
    s = march(
        game,
        1,
        english={"buchan": ((4, 2, 0), (2,)), "orkney": ((3, 1, 0), (1,))},
        troops={(1, "banff"): (2, 0, 0)},
        control={"banff": 1},
    )
    back = game.state_from_json(s.to_json())
    assert back == s and back.battle is not None and back.battle.levels == (2,)


def test_saved_states_breaking_englands_rules_are_refused(game: ClanFeudGame) -> None:
    from clangames.engine.errors import StateDecodeError

    s = at_war(game, [], english={"orkney": ((3, 1, 0), (1,))}, england=12)
    data = s.to_json()
    peace = dict(data, state=dict(data["state"], england=10))  # type: ignore[arg-type]
    with pytest.raises(StateDecodeError, match="only while England is at war"):
        game.state_from_json(peace)
    orkney, caithness = tid(game, "orkney"), tid(game, "caithness")
    for english, why in (
        ([{"territory": orkney, "troops": [17, 0, 0], "tokens": [1]}], "beyond"),
        ([{"territory": orkney, "troops": [3, 1, 0], "tokens": [4]}], "level tokens"),
        ([{"territory": orkney, "troops": [0, 0, 0], "tokens": [1]}], "has troops"),
        (
            [
                {"territory": orkney, "troops": [3, 1, 0], "tokens": [1]},
                {"territory": caithness, "troops": [3, 1, 0], "tokens": [1]},
            ],
            "by ascending territory",
        ),
    ):
        bad = dict(data["state"], english=english)  # type: ignore[arg-type]
        with pytest.raises(StateDecodeError, match=why):
            game.state_from_json(dict(data, state=bad))
    beside = at_war(game, [], troops={(1, "caithness"): (1, 0, 0)}, control={"caithness": 1})
    data = beside.to_json()
    bad = dict(
        data["state"], english=[{"territory": caithness, "troops": [3, 1, 0], "tokens": [1]}]
    )  # type: ignore[arg-type]
    with pytest.raises(StateDecodeError, match="clan army stands"):
        game.state_from_json(dict(data, state=bad))


def test_england_start_parameter(game: ClanFeudGame) -> None:
    g = load(3, england_start=10)
    s = g.initial_state()
    assert s.england == 10 and s.track_start == 10 and not s.at_war
    assert load(2).initial_state().england == 0
    with pytest.raises(InvalidParameterError, match="england_start 18"):
        load(2, england_start=18)
    assert g.info.max_game_length > 0


def test_the_kernel_contract_holds_through_marches_and_spawns(game: ClanFeudGame) -> None:
    from clangames.engine.rng import Rng

    for seed in range(6):
        s: Any = spawning(
            game,
            "EV20",  # IX Mull, 3 moves
            12,
            14,
            english={"orkney": ((3, 1, 0), (1,)), "caithness": ((4, 2, 0), (2,))},
            troops={(0, "lorn"): (2, 1, 0), (1, "inverness"): (3, 1, 1)},
            control={"lorn": 0, "inverness": 1},
            feud=(2, 2),
            hands={1: {"AC10": 1}},
        )
        rng, checks = Rng(seed), Rng(seed + 50)
        while not done(s):
            checks = check_state(s, checks, seed=seed, invariant=invariant)
            if s.is_chance:
                outcomes = s.chance_outcomes()
                k, rng = rng.below(len(outcomes))
                s = s.apply(outcomes[k][0])
            else:
                player = s.to_move[0]
                legal = s.legal_actions(player)
                k, rng = rng.below(len(legal))
                s = s.apply(legal[k], player)


def test_the_renderer_shows_english_armies_and_the_track_at_war(game: ClanFeudGame) -> None:
    from rich.console import Console

    from clangames.rendering.text import renderer_for

    s = march(
        game,
        1,
        english={"buchan": ((3, 2, 1), (3,)), "orkney": ((6, 2, 0), (1, 1))},
        troops={(1, "banff"): (2, 0, 0)},
        control={"banff": 1},
        england=15,
        track_start=13,
    )
    console = Console(width=200, record=True, color_system=None)
    console.print(renderer_for(game).board(s.public_observation()))
    text = console.export_text()
    assert "England track 15/17 AT WAR" in text and "phase 3 began on 13" in text
    assert "flames ahead: 16 (L3), 17 (L3)" in text
    assert "England 6i 2c (level 2, tokens L1 and L1)" in text
    assert "Battle at Banff, round 1: England (3i 2c 1a, token L3) attacks clan 1" in text
