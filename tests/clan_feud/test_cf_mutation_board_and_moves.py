"""Rules of Clan Feud's phases 1 and 2 that a hand-made mutation audit found unpinned.

Each test fails on a named small bug ("mutant") of the rule modules that every older test
let through (docs/games/clan-feud.md, "Mutation audit"): Feud tokens at levels II and III,
the regent in seat 0 breaking a fewest-dice tie, a Build II die bought for a castle or a
coloured die alone with exactly £12, castles only on plain land, the cavalry supply, recruits
only at a building, artillery's speed, the King moving once per Military die, feud tokens per
lost building (none for moving into one's own land), one city die per city per turn (and
its reset in phase 1), phase 1's gathering and recount, the fewest-VP setter among the tied,
Build III's second purchase, a castle as one building, a level II recruit of cavalry when
the infantry is out, retreating attackers marked as moved, casualties that reach every troop
taken without a question, a winning attacker's King, and a defender's retreat by sea lane.
"""

from __future__ import annotations

import pytest

from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.rules import BUILD, FEUD, INCOME, INTRIGUE, MILITARY, dice_owned
from clangames.clan_feud.state import Task

from .cf_rules_helpers import done, invariant, legal_texts, load, play, position, tid

WHITE = 0
ROWS_ONE_AND_TWO = tuple(
    (column, slot) for column in (INCOME, BUILD, INTRIGUE, MILITARY) for slot in (1, 2)
)
"""Every tower house of rows I and II (and the Build column's black die), bought."""


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


# -- Feud -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_feud_slot_gives_as_many_tokens_as_its_level(game: ClanFeudGame, level: int) -> None:
    """Feud I/II/III: 1, 2 or 3 feud tokens (mutant: always 1)."""
    s = position(game, [Task("feud", 0, level)], pool={0: {(WHITE, 1): 1}}, feud=(1, 0))
    s = play(s, "tokens")
    assert done(s) and s.feud == (1 + level, 0)


# -- Phase 1: the turn order ----------------------------------------------------------------------


def test_a_regent_in_seat_zero_names_the_setter_among_tied_players() -> None:
    """A fewest-dice tie is broken by the regent, whichever seat holds him (mutant: a
    regent in seat 0 ignored, the fewest VP deciding instead)."""
    g = load(3)
    s = position(
        g,
        [Task("phase1")],
        regent=0,
        gold_out=True,
        control={"moray": 0},
        troops={(0, "moray"): (1, 0, 0)},
        king=tid(g, "moray"),
        vp=(0, 0, 5),
    )
    # seats 1 and 2 hold 3 dice, seat 0 holds 4 (the gold die)
    assert s.phase.name == "tiebreak" and s.to_move == (0,)
    assert legal_texts(s) == ["seat 1", "seat 2"]


# -- Build ----------------------------------------------------------------------------------------


def test_a_build_two_die_may_go_for_a_coloured_die_alone_with_exactly_twelve(
    game: ClanFeudGame,
) -> None:
    """Every tower house bought, £12: a Build II slot is still offered, for a coloured die
    (mutants: the level judged as Build I, which cannot buy it; £12 judged too little)."""
    s = position(
        game,
        [Task("assign", 0)],
        pool={0: {(WHITE, 2): 1}},
        control={"moray": 0},
        money=(12, 0),
        uncovered={0: ROWS_ONE_AND_TWO},
    )
    assert "assign white 2 to build II" in legal_texts(s)
    s = play(s, "assign white 2 to build II")
    assert "build intrigue III-right" in legal_texts(s)
    s = play(s, "build intrigue III-right")  # the new die's Feud I benefit: a token, unasked
    assert done(s) and s.money[0] == 0 and s.feud[0] == 1


def test_a_castle_is_offered_only_with_plain_land_with_room(game: ClanFeudGame) -> None:
    """A castle needs a controlled territory with room and no castle or city: here the
    only one has a castle, so a tower house is offered but not the castle (mutant: the
    castle offered, with nowhere to stand)."""
    s = position(
        game,
        [Task("build", 0, 2)],
        control={"moray": 0},
        castles=("moray",),
        money=(12, 0),
        uncovered={0: ((INCOME, 2),)},
    )
    texts = legal_texts(s)
    assert "build income I-right" in texts and "build income III-left" not in texts


def test_a_castle_is_never_placed_in_a_city(game: ClanFeudGame) -> None:
    """One castle-or-city per territory: a city with room takes a tower house, not a castle
    (mutant: only a second castle refused)."""
    s = position(game, [Task("place", 0, 2)], control={"moray": 0, "inverness": 0})
    assert done(s) and s.site[tid(game, "moray")] == 2  # the one option, applied at once
    s = position(game, [Task("place", 0, 0)], control={"moray": 0, "inverness": 0})
    assert sorted(legal_texts(s)) == ["territory inverness", "territory moray"]


# -- Recruit --------------------------------------------------------------------------------------


def test_no_fifth_cavalry_is_recruited(game: ClanFeudGame) -> None:
    """Each clan has 4 cavalry: with all four on the board a Military II recruit offers
    infantry only (mutant: a supply of 5)."""
    s = position(
        game,
        [Task("recruit", 0, 2, -1)],
        control={"moray": 0},
        castles=("moray",),
        money=(20, 0),
        troops={(0, "moray"): (0, 4, 0)},
    )
    assert legal_texts(s) == [f"take {k} infantry" for k in range(1, 11)]


def test_recruits_stand_only_at_a_building(game: ClanFeudGame) -> None:
    """Recruits are placed at a building the player controls, not in bare land it holds
    (mutant: any controlled territory)."""
    s = position(
        game,
        [Task("recruit", 0, 1, -1)],
        control={"moray": 0, "banff": 0, "mar": 0},
        castles=("moray",),
        money=(2, 0),
    )
    # Moray, the one territory with a building, was chosen at once
    assert legal_texts(s) == ["take 1 infantry", "take 2 infantry"]
    s = play(s, "take 2 infantry")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (2, 0, 0)


# -- Move -----------------------------------------------------------------------------------------


def test_artillery_moves_one_territory(game: ClanFeudGame) -> None:
    """Artillery has speed 1 (mutant: 2): its move ends after one step."""
    s = position(game, [Task("move", 0, 1)], troops={(0, "moray"): (0, 0, 1)}, control={"moray": 0})
    assert sorted(legal_texts(s)) == [
        "territory badenoch",
        "territory banff",
        "territory inverness",
    ]
    s = play(s, "territory banff")
    assert done(s) and s.troops_at(0, tid(game, "banff")) == (0, 0, 1)


def test_the_king_moves_at_most_once_per_military_die(game: ClanFeudGame) -> None:
    """The King, like a troop, moves once per action: the second army, leaving the
    territory he reached, goes without him and is not asked (mutant: he goes again)."""
    lothian, berwick = tid(game, "lothian"), tid(game, "berwick")
    s = position(
        game,
        [Task("move", 0, 2)],
        troops={(0, "edinburgh_castle"): (1, 0, 0), (0, "lothian"): (1, 0, 0)},
        control={"edinburgh_castle": 0, "lothian": 0},
        regent=0,
        gold_out=True,
        king=tid(game, "edinburgh_castle"),
    )
    s = play(s, "territory edinburgh_castle", "territory lothian")
    assert s.king == lothian
    s = play(s, "territory lothian")
    assert legal_texts(s)[0] == "territory berwick"  # no "king goes" / "king stays"
    s = play(s, "territory berwick")
    assert done(s) and s.king == lothian and s.regent == 0
    assert s.troops_at(0, lothian) == (1, 0, 0) and s.troops_at(0, berwick) == (1, 0, 0)
    invariant(s)


# -- Claiming -------------------------------------------------------------------------------------


def test_the_old_controller_gets_a_token_per_building_lost(game: ClanFeudGame) -> None:
    """A territory with two tower houses changes hands: its old controller gains 2 feud
    tokens (mutant: 1 per territory)."""
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0, "banff": 1},
        towers={"banff": 2},
    )
    s = play(s, "territory banff")
    assert done(s) and s.controller[tid(game, "banff")] == 0 and s.feud == (0, 2)


def test_a_city_gives_its_black_die_once_per_turn(game: ClanFeudGame) -> None:
    """The first claim of a city this turn puts a black die in the Feud column and is
    remembered; a second claim the same turn gives none (mutants: a die at every claim,
    the claim not remembered)."""
    inverness = tid(game, "inverness")
    s = position(game, [Task("move", 0, 1)], troops={(0, "moray"): (1, 0, 0)}, control={"moray": 0})
    s = play(s, "territory inverness")
    assert done(s) and s.feud[0] == 1 and s.filled[0] == 1  # Feud I slot, a token
    assert s.city_dice[0] == 1 << inverness
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0, "inverness": 1},
        city_dice=(1 << inverness, 0),
    )
    s = play(s, "territory inverness")
    assert done(s) and s.controller[inverness] == 0
    assert s.feud[0] == 0 and s.filled[0] == 0  # no second die, no Feud benefit


def test_phase_one_forgets_last_turns_city_dice(game: ClanFeudGame) -> None:
    """'Once per city per turn': phase 1 clears the record, so a city retaken next turn
    gives its die again (mutant: the record kept for the whole game)."""
    inverness = tid(game, "inverness")
    s = position(game, [Task("roll"), Task("phase1")], city_dice=(1 << inverness, 0), turn=1)
    assert s.city_dice == (0, 0)


# -- Battles --------------------------------------------------------------------------------------


def test_attackers_that_retreat_have_moved(game: ClanFeudGame) -> None:
    """A retreating attacking army is back where its move began and has moved: a Military
    II die cannot move it again (mutant: it is offered a second move)."""
    moray = tid(game, "moray")
    s = position(
        game,
        [Task("move", 0, 2)],
        troops={(0, "moray"): (3, 0, 0), (1, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 1},
    )
    s = play(s, "take 3 infantry", "territory banff")  # 3 against 1: one of up to two dice, face 3
    s = play(s, "roll 1", "hits 0/1", "retreat")
    # the move is over (only "stop" was left, applied at once)
    assert done(s) and s.troops_at(0, moray) == (2, 0, 0)


def test_casualties_that_reach_every_troop_take_them_all_unasked(game: ClanFeudGame) -> None:
    """Once a side's casualties reach its troops, all die without a question (mutant:
    the owner asked to pick the order)."""
    banff = tid(game, "banff")
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (6, 0, 0), (1, "banff"): (1, 1, 0)},
        control={"moray": 0, "banff": 1},
    )
    s = play(s, "take 6 infantry", "territory banff", "roll 2", "hits 2/0")
    assert done(s) and s.troops_at(0, banff) == (6, 0, 0) and not any(s.troops_at(1, banff))
    assert s.controller[banff] == 0 and s.feud == (0, 2)


# -- Phase 1: gathering and the recount -----------------------------------------------------------


def test_phase_one_gathers_every_die_and_everyone_plays_again(game: ClanFeudGame) -> None:
    """Phase 1 takes every die off the boards and nobody has passed (mutants: slots left
    filled from last turn; last turn's passes kept)."""
    s = position(
        game,
        [Task("roll"), Task("phase1")],
        filled={0: ((FEUD, 0), (INCOME, 0)), 1: ((MILITARY, 0),)},
        passed=0b11,
        turn=1,
    )
    assert s.filled == (0, 0) and s.passed == 0


def test_the_recount_gives_each_coloured_die_to_its_own_column(game: ClanFeudGame) -> None:
    """A bought Income III-right slot gives the green die, not the purple (mutant:
    swapped)."""
    s = position(game, [Task("roll"), Task("phase1")], uncovered={0: ((INCOME, 2), (INCOME, 4))})
    assert dice_owned(s, 0) == (3, 0, 0, 1, 0, 0, 0)


def test_fewest_vp_among_the_tied_players_sets_the_order() -> None:
    """No regent: the tied player with the fewest VP sets the order, whatever the VP of
    a player outside the tie (mutant: the fewest VP over every seat)."""
    g = load(3)
    s = position(
        g,
        [Task("roll"), Task("phase1")],
        vp=(0, 3, 2),
        uncovered={0: ((BUILD, 1),)},  # seat 0 bought the black die: 4 dice
    )
    assert s.phase.name == "order" and s.to_move == (2,)


# -- Build ----------------------------------------------------------------------------------------


def test_a_build_threes_second_purchase_is_a_build_one_option(game: ClanFeudGame) -> None:
    """After a first tower house, Build III's second purchase is another Build-I option
    (a tower house of row I or II, the black die), never a castle or a coloured die
    (mutant: the whole level III list again)."""
    s = position(
        game,
        [Task("build", 0, 3, 1)],
        control={"moray": 0},
        money=(30, 0),
        uncovered={0: ((INCOME, 2),)},
    )
    texts = legal_texts(s)
    assert texts[0] == "stop" and "build intrigue II" in texts and "build build I-right" in texts
    assert not any(t.endswith("III-left") or t.endswith("III-right") for t in texts)


def test_a_castle_placed_is_one_building(game: ClanFeudGame) -> None:
    """A castle fills the territory's castle-or-city place and adds no tower house (mutant:
    counted as both)."""
    moray = tid(game, "moray")
    s = position(game, [Task("place", 0, 2)], control={"moray": 0})
    assert done(s) and s.site[moray] == 2 and s.towers[moray] == 0


# -- Battles --------------------------------------------------------------------------------------


def test_a_winning_attacker_brings_its_king_into_the_territory(game: ClanFeudGame) -> None:
    """The King moving with a winning attacking army enters the conquered territory with it
    (mutant: he stays where the move began, alone)."""
    banff = tid(game, "banff")
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (3, 0, 0), (1, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 1},
        regent=0,
        gold_out=True,
        king=tid(game, "moray"),
    )
    # 3 + the King against 1: one of up to three dice, face 1 kills the defender
    s = play(s, "take 3 infantry", "territory banff", "roll 1", "hits 1/0")
    assert done(s) and s.king == banff and s.regent == 0
    assert s.troops_at(0, banff) == (3, 0, 0) and s.controller[banff] == 0
    invariant(s)


def test_a_recruit_whose_infantry_is_all_out_must_take_cavalry(game: ClanFeudGame) -> None:
    """At least one troop is recruited: with every infantry on the board, a Military II
    recruit offers 1 or more cavalry, not 0 (mutant: 0 offered, leaving no infantry to
    take and no legal action)."""
    s = position(
        game,
        [Task("recruit", 0, 2, -1)],
        control={"moray": 0, "banff": 0},
        castles=("moray",),
        money=(6, 0),
        troops={(0, "banff"): (10, 0, 0)},
    )
    assert legal_texts(s) == ["take 1 cavalry", "take 2 cavalry"]
    s = play(s, "take 2 cavalry")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (0, 2, 0) and s.money[0] == 0


def test_the_recount_gives_the_build_columns_white_die(game: ClanFeudGame) -> None:
    """The Build III-right slot bought gives a fourth white die; the Build castle slot
    bought gives none (mutant: the white die read from the castle's slot)."""
    s = position(game, [Task("roll"), Task("phase1")], uncovered={0: ((BUILD, 2), (BUILD, 4))})
    assert dice_owned(s, 0)[WHITE] == 4
    s = position(game, [Task("roll"), Task("phase1")], uncovered={0: ((BUILD, 2), (BUILD, 3))})
    assert dice_owned(s, 0)[WHITE] == 3


def test_a_full_infantry_supply_still_lets_a_level_two_die_recruit(game: ClanFeudGame) -> None:
    """A Military die may recruit when some type its level allows is affordable and in
    supply: all 10 infantry out, £3 buys a cavalry at level II (mutant: only infantry
    judged, so the die could only move)."""
    s = position(
        game,
        [Task("military", 0, 2)],
        troops={(0, "banff"): (10, 0, 0)},
        control={"moray": 0, "banff": 0},
        castles=("moray",),
        money=(3, 0),
    )
    assert legal_texts(s) == ["recruit", "move"]


def test_moving_into_ones_own_territory_claims_nothing(game: ClanFeudGame) -> None:
    """An army ending its move in its own clan's land changes nothing: no feud tokens for
    the buildings, no city die (mutant: a claim of one's own territory)."""
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0, "inverness": 0},
        towers={"inverness": 1},
    )
    s = play(s, "territory inverness")
    assert done(s) and s.feud == (0, 0) and s.filled == (0, 0) and s.city_dice == (0, 0)


def test_the_king_is_offered_only_to_an_army_leaving_his_territory(game: ClanFeudGame) -> None:
    """The regent's other army, away from the King, moves without a King question
    (mutant: asked, and the King could jump to it)."""
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (1, 0, 0), (0, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 0},
        regent=0,
        gold_out=True,
        king=tid(game, "moray"),
    )
    s = play(s, "territory banff")
    assert s.phase.name == "step" and "territory moray" in legal_texts(s)
    s = play(s, "territory mar")
    assert done(s) and s.king == tid(game, "moray")


def test_a_defender_may_retreat_across_a_sea_lane(game: ClanFeudGame) -> None:
    """A defender's retreat goes to an adjacent territory by land edge or sea lane: Fife's
    land neighbours are the attacker's, Edinburgh across the Forth is its own (mutant:
    land edges only, so it could not retreat)."""
    fife, edinburgh = tid(game, "fife"), tid(game, "edinburgh")
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "kinross"): (3, 0, 0), (1, "fife"): (1, 0, 0)},
        control={"kinross": 0, "stirling": 0, "perth": 0, "fife": 1, "edinburgh": 1},
    )
    # 3 against 1: one die of up to two, face 3 (an attacker falls)
    s = play(s, "take 3 infantry", "territory fife", "roll 1", "hits 0/1", "continue")
    assert s.phase.name == "bdefend" and legal_texts(s) == ["continue", "retreat"]
    s = play(s, "retreat")  # Edinburgh, the one place to go, at once
    assert done(s) and s.troops_at(1, edinburgh) == (1, 0, 0)
    assert s.troops_at(0, fife) == (2, 0, 0) and s.controller[fife] == 0
