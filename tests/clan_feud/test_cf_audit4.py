"""Audit (part 4): rules with no test that failed under a wrong reading.

Found by reading the rulebook, the rulings and the two specs against the code, and by
mutating ``playing.py`` (the action cards' actions, which the earlier mutation audits left
alone): each test here fails on a mutant that changes play with the bundled cards. Also the
map spec's land edges, sea lanes and mountains, which the board tests checked only by their
counts, and a rulebook example without a test (a Build's price paid once).
"""

from __future__ import annotations

from typing import Any

import pytest

from clangames.clan_feud import Board, load_board
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.rules import BUILD, INCOME, INTRIGUE, MILITARY
from clangames.clan_feud.state import Task

from .cf_rules_helpers import at_assign, done, legal_texts, load, play, position, tid, upkeep

WHITE = 0


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


# -- the map (clan-feud-map.md sections 1-3) ---------------------------------------------------

LAND = """
galloway-ayr galloway-nithisdale galloway-dumfries ayr-nithisdale ayr-lanark ayr-glasgow
nithisdale-dumfries nithisdale-annandale nithisdale-lanark dumfries-annandale annandale-lanark
annandale-tweeddale annandale-roxburgh roxburgh-tweeddale roxburgh-berwick berwick-lothian
tweeddale-lanark tweeddale-lothian lothian-edinburgh lothian-edinburgh_castle
lothian-linlithgow edinburgh-edinburgh_castle edinburgh_castle-linlithgow linlithgow-lanark
linlithgow-stirling glasgow-lanark glasgow-the_lennox glasgow-stirling the_lennox-stirling
the_lennox-breadalbane the_lennox-argyll stirling-fife stirling-kinross stirling-perth
stirling-breadalbane fife-kinross fife-perth kinross-perth perth-dundee perth-forfar
perth-atholl perth-breadalbane dundee-forfar forfar-mearns forfar-mar forfar-atholl
mearns-mar mearns-aberdeen aberdeen-mar aberdeen-buchan buchan-banff banff-aberdeen
buchan-mar banff-mar banff-moray moray-inverness moray-badenoch mar-atholl mar-badenoch
atholl-badenoch atholl-breadalbane atholl-lochaber badenoch-inverness badenoch-loch_ness
badenoch-lochaber inverness-loch_ness inverness-dingwall loch_ness-lochaber
loch_ness-applecross lochaber-lorn lochaber-applecross breadalbane-lorn breadalbane-argyll
lorn-argyll argyll-kintyre_arran dingwall-applecross dingwall-sutherland
applecross-sutherland sutherland-caithness
"""
SEA = """
edinburgh-fife linlithgow-fife dundee-fife kintyre_arran-ayr argyll-glasgow lorn-mull
lochaber-mull lochaber-skye applecross-skye skye-lewis applecross-lewis caithness-orkney
"""
MOUNTAINS = {"tweeddale", "breadalbane", "mar", "badenoch", "atholl", "lochaber", "lorn"}
MOUNTAINS |= {"sutherland"}
INLAND = {"nithisdale", "lanark", "roxburgh", "tweeddale", "edinburgh_castle", "stirling"}
INLAND |= {"kinross", "breadalbane", "mar", "loch_ness", "badenoch", "atholl"}


def pairs(text: str) -> set[frozenset[str]]:
    return {frozenset(edge.split("-")) for edge in text.split()}


def test_the_bundled_map_is_the_specs_edge_for_edge() -> None:
    """Every land edge, sea lane, mountain and coast of the map spec (a moved edge keeps
    the counts and degrees the board tests check, and changes every distance near it)."""
    board: Board = load_board()
    name = [t.id for t in board.territories]
    land = {frozenset((name[a], name[b])) for a, b in board.land_edges}
    sea = {frozenset((name[lane.a], name[lane.b])) for lane in board.sea_lanes}
    assert len(pairs(LAND)) == 79 and len(pairs(SEA)) == 12
    assert land == pairs(LAND)
    assert sea == pairs(SEA)
    assert {t.id for t in board.territories if t.mountain} == MOUNTAINS
    assert {t.id for t in board.territories if not t.coast} == INLAND


# -- a rulebook example: a slot's price is paid once ------------------------------------------


def test_a_slot_bought_by_a_build_takes_a_die_at_no_further_cost(game: ClanFeudGame) -> None:
    """The rulebook's example: the £9 of the Income column's LVL II tower house is paid
    when a Build takes it to the board; a die assigned to the Income II slot it uncovers
    then costs nothing and gives the Income action."""
    s = position(
        game,
        [Task("assign", 0), Task("assign", 0)],
        pool={0: {(WHITE, 1): 1, (WHITE, 2): 1}},
        control={"moray": 0},
        money=(9, 0),
    )
    assert "assign white 2 to income II" not in legal_texts(s)  # still covered
    s = play(s, "assign white 1 to build I", "build income II")  # placed in Moray at once
    assert s.money[0] == 0 and s.towers[tid(game, "moray")] == 1
    assert legal_texts(s) == [
        "assign white 2 to feud I",
        "assign white 2 to feud II",
        "assign white 2 to income I",
        "assign white 2 to income II",
        "assign white 2 to intrigue I",
    ]
    s = play(s, "assign white 2 to income II")  # one black die for Moray
    assert s.is_chance
    s = play(s, "total 2")
    assert done(s) and s.money[0] == 2  # nothing paid for the slot


# -- action cards (playing.py's mutants that changed play) ------------------------------------


def move_with(game: ClanFeudGame, card: str, troops: dict[tuple[int, str], Any]) -> Any:
    """Seat 0 to assign a white 1 (a Military I move), holding ``card``."""
    control = {name: p for (p, name) in troops}
    return at_assign(game, {card: 1}, {(WHITE, 1): 1}, troops=troops, control=control)


def test_light_horse_leaves_cavalry_with_artillery_at_the_artillerys_pace(
    game: ClanFeudGame,
) -> None:
    """AC24's boost is for armies made only of cavalry: cavalry moving with artillery keeps
    the artillery's speed 1 and stops at a mountain (mutant: artillery not looked at)."""
    s = play(move_with(game, "AC24", {(0, "moray"): (0, 1, 1)}), "play AC24")
    s = play(s, "take 1 artillery", "take 1 cavalry", "territory banff")
    assert done(s) and s.troops_at(0, tid(game, "banff")) == (0, 1, 1)
    s = play(move_with(game, "AC24", {(0, "moray"): (0, 1, 1)}), "play AC24")
    s = play(s, "take 1 artillery", "take 1 cavalry", "territory badenoch")
    assert done(s) and s.troops_at(0, tid(game, "badenoch")) == (0, 1, 1)
    # the cavalry alone is boosted: speed 3
    s = play(move_with(game, "AC24", {(0, "moray"): (0, 1, 1)}), "play AC24")
    s = play(s, "take 0 artillery", "territory banff", "territory buchan")
    assert "territory aberdeen" in legal_texts(s)


def test_ride_from_loch_leven_is_combat_only_where_the_step_more_is_a_mountains(
    game: ClanFeudGame,
) -> None:
    """AC23 (+1 speed) changes nothing for infantry in Orkney: its one step more, from
    Caithness, could only enter Sutherland, a mountain, which a move enters only as its
    first step (mutant: the reach search let a later step enter a mountain)."""
    s = move_with(game, "AC23", {(0, "orkney"): (1, 0, 0)})
    assert "assign white 1 to military I" in legal_texts(s)
    assert "play AC23" not in legal_texts(s)
    # from Caithness too (a sea lane back to Orkney, or Sutherland); from Moray it helps
    assert "play AC23" not in legal_texts(move_with(game, "AC23", {(0, "caithness"): (1, 0, 0)}))
    s = move_with(game, "AC23", {(0, "moray"): (1, 0, 0)})
    assert "play AC23" in legal_texts(s)


def test_a_cards_free_troops_stop_at_the_supply_limit(game: ClanFeudGame) -> None:
    """The rulebook: no troops come onto the board by a card beyond the supply limit. With
    nine infantry out, AC20's two free infantry are one (mutant: two were offered)."""
    s = at_assign(
        game,
        {"AC20": 1},
        {(WHITE, 1): 1},
        castles=("moray",),
        troops={(0, "moray"): (9, 0, 0)},
        money=(0, 0),
    )
    s = play(s, "play AC20")  # the recruit in Moray, its one free infantry: all unasked
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (10, 0, 0) and s.money[0] == 0


def test_barmkin_act_offers_only_places_that_leave_the_paid_build_possible(
    game: ClanFeudGame,
) -> None:
    """Part 3 ruling 8: AC13's free tower house goes only where the die's paid Build stays
    possible. The Build II die can buy only a castle, which needs plain land with room: in
    Moray (plain, a tower house) the free one would leave no such place, so Banff (a
    castle, room for one) is the only one offered, and taken unasked (mutant: both)."""
    bought = {0: tuple((c, s) for c in (INCOME, BUILD, INTRIGUE, MILITARY) for s in (1, 2, 4))}
    bought[0] = tuple(x for x in bought[0] if x != (INCOME, 1))  # the one tower house left
    s = at_assign(
        game,
        {"AC13": 1},
        {(WHITE, 2): 1},
        control={"moray": 0, "banff": 0},
        towers={"moray": 1},
        castles=("banff",),
        uncovered=bought,
        money=(12, 0),
    )
    s = play(s, "play AC13")
    moray, banff = tid(game, "moray"), tid(game, "banff")
    assert s.towers[banff] == 1 and s.towers[moray] == 1
    assert legal_texts(s) == [f"build {c} III-left" for c in ("income", "build", "intrigue")] + [
        "build military III-left"
    ]
    s = play(s, "build build III-left")  # the castle, in Moray at once
    assert done(s) and s.site[moray] == 2 and s.money[0] == 0


def test_upkeep_cuts_of_two_cards_add_up(game: ClanFeudGame) -> None:
    """Cards spec E18: several upkeep cuts stack (mutant: the second replaced the first).
    Three infantry and a cavalry owe 5: Sorning cuts 3, Forty Days' Service 3 more."""
    s = upkeep(
        game,
        {"AC28": 1, "AC29": 1},
        troops={(0, "moray"): (3, 1, 0)},
        control={"moray": 0},
        money=(10, 0),
    )
    s = play(s, "play AC28")
    assert s.upkeep_cut == (3, 0) and "play AC29" in legal_texts(s)
    s = play(s, "play AC29")
    assert s.upkeep_cut == (6, 0)
    s = play(s, "pay upkeep")
    assert done(s) and s.money[0] == 10


def test_a_speed_boost_still_stops_at_a_mountain(game: ClanFeudGame) -> None:
    """AC23's step more is not AC24's mountain freedom: infantry at speed 2 that enters a
    mountain ends its move there, as does cavalry moved by AC25's extra army (mutant:
    any move card let a move go on from a mountain)."""
    s = play(move_with(game, "AC23", {(0, "moray"): (1, 0, 0)}), "play AC23")
    s = play(s, "territory badenoch")
    assert done(s) and s.troops_at(0, tid(game, "badenoch")) == (1, 0, 0)
    troops = {(0, "moray"): (0, 1, 0), (0, "buchan"): (1, 0, 0)}
    s = play(move_with(game, "AC25", troops), "play AC25", "territory moray")
    s = play(s, "territory badenoch")  # the cavalry's first army: over at the mountain
    assert legal_texts(s) == ["stop", "territory buchan"]


def test_an_upkeep_cut_lasts_one_phase_three(game: ClanFeudGame) -> None:
    """Part 3 ruling 13: a card's upkeep cut is for this phase 3's upkeep only; the next
    phase 3 starts without it (mutant: last turn's cut carried over). Seat 0 owes 5 for
    three infantry and a cavalry and pays all of it."""
    s = position(
        game,
        [Task("phase3", -1, 3)],
        troops={(0, "moray"): (3, 1, 0)},
        control={"moray": 0},
        money=(10, 0),
        upkeep_cut=(3, 0),
    )
    assert s.upkeep_cut == ()
    s = play(s, "pay upkeep")
    assert done(s) and s.money[0] == 5
