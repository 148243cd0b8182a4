"""Clan Feud rules, one scenario per rule, on small hand-made positions."""

from __future__ import annotations

import pytest

from clangames.clan_feud.rules import BUILD, FEUD, INCOME, INTRIGUE, MILITARY
from clangames.clan_feud.state import Task
from clangames.engine.errors import IllegalActionError

from .cf_rules_helpers import done, legal_texts, load, play, position, tid

WHITE, BLACK, GOLD = 0, 1, 2


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


# -- assignment ------------------------------------------------------------------------------


def test_a_rolled_one_cannot_go_to_a_level_two_slot(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("assign", 0)], pool={0: {(WHITE, 1): 1}}, control={"moray": 0})
    texts = legal_texts(s)
    assert "assign white 1 to feud I" in texts
    assert not any(t.endswith(" II") or t.endswith(" III") for t in texts)


def test_green_die_goes_only_to_income(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game, [Task("assign", 0)], pool={0: {(3, 3): 1, (WHITE, 1): 1}}, control={"moray": 0}
    )
    assert [t for t in legal_texts(s) if "green" in t] == ["assign green 3 to income I"]


def test_pass_when_nothing_can_be_assigned(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("phase2"), Task("assign", 0)],
        pool={0: {(WHITE, 1): 1}},
        filled={0: ((FEUD, 0), (INCOME, 0), (BUILD, 0), (INTRIGUE, 0), (MILITARY, 0))},
    )
    # seat 0 passed automatically (its only option); seat 1 has no dice and passes too
    assert done(s)
    assert s.passed == 0b11


# -- feud ---------------------------------------------------------------------------------------


def test_feud_levels(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("feud", 0, 1)], pool={0: {(WHITE, 1): 1, (WHITE, 2): 1}})
    assert legal_texts(s) == ["tokens", "raise white 1"]
    assert play(s, "tokens").feud[0] == 1
    s = position(game, [Task("feud", 0, 2)], pool={0: {(WHITE, 2): 1}})
    assert legal_texts(s) == ["tokens", "raise white 2"]
    assert play(s, "raise white 2").pool[0][2] == 1
    s = position(game, [Task("feud", 0, 3)], pool={0: {(WHITE, 1): 2}})
    assert legal_texts(s) == ["tokens", "raise white 1", "white 1 to 3"]
    s = play(s, "raise white 1")
    assert legal_texts(s) == ["stop", "raise white 1"]
    s = play(s, "raise white 1")
    assert s.pool[0][1] == 2 and done(s)


def test_black_die_cannot_rise_past_two_nor_one_to_three(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("feud", 0, 3)], pool={0: {(BLACK, 2): 1, (BLACK, 1): 1}})
    assert legal_texts(s) == ["tokens", "raise black 1"]


# -- income, intrigue ---------------------------------------------------------------------------


def test_income_levels(game) -> None:  # type: ignore[no-untyped-def]
    control = {"moray": 0, "banff": 0, "mar": 0}
    s = position(game, [Task("income", 0, 1)], control=control, money=(0, 0))
    assert s.money[0] == 3
    s = position(game, [Task("income", 0, 3)], control=control, money=(0, 0))
    assert s.money[0] == 6
    s = position(game, [Task("income", 0, 2)], control=control, money=(0, 0))
    outcomes = {s.action_text(a): p for a, p in s.chance_outcomes()}
    assert outcomes == {"total 3": 1 / 8, "total 4": 3 / 8, "total 5": 3 / 8, "total 6": 1 / 8}
    assert play(s, "total 5").money[0] == 5


def test_intrigue_draws_hidden_cards_and_scores(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("intrigue", 0, 2)], money=(0, 0))
    assert s.money[0] == 2 and s.vp[0] == 3 and s.is_chance
    s = play(s, "draw AC01", "draw AC02")
    assert sum(s.hands[0]) == 2 and sum(s.deck) == 48 and done(s)
    assert s.observation(1).hand_sizes == (2, 0) and s.observation(1).hand == s.hands[1]


# -- build --------------------------------------------------------------------------------------


def test_build_prices_and_the_row_two_tower_house_from_level_one(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("build", 0, 1)], control={"moray": 0}, money=(9, 0))
    texts = legal_texts(s)
    assert "build build I-right" in texts and "build income II" in texts
    assert not any("III" in t for t in texts)
    s = play(s, "build build II")
    assert s.money[0] == 0 and done(s) and s.towers[tid(game, "moray")] == 1
    # the slot is free at once
    assert not s.covered[0] >> (5 * BUILD + 2) & 1


def test_castle_and_coloured_die_cost_twelve_after_the_tower_house(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("build", 0, 2)], control={"moray": 0}, money=(12, 0))
    assert not any("III" in t for t in legal_texts(s))
    s = position(
        game,
        [Task("build", 0, 2)],
        control={"moray": 0},
        money=(12, 0),
        uncovered={0: ((INCOME, 2),)},
    )
    texts = legal_texts(s)
    assert "build income III-left" in texts and "build income III-right" in texts
    s = play(s, "build income III-right")
    # the green die took Feud I and its benefit (no die to raise: a feud token)
    assert s.money[0] == 0 and s.filled[0] & 1 and s.feud[0] == 1 and done(s)


def test_level_three_build_twice_and_black_die(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("build", 0, 3)], control={"moray": 0}, money=(6, 0))
    s = play(s, "build build I-right")  # the black die, into Feud I: a feud token
    assert s.feud[0] == 1
    assert legal_texts(s)[0] == "stop"
    s = play(s, "build income I-right")  # moray, the only territory, is chosen at once
    assert s.money[0] == 0 and s.towers[tid(game, "moray")] == 1 and done(s)


def test_third_building_refused(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("build", 0, 1)],
        control={"moray": 0, "banff": 0},
        towers={"moray": 1},
        castles=("moray",),
        money=(3, 0),
    )
    s = play(s, "build income I-right")
    assert done(s) and s.towers[tid(game, "banff")] == 1  # moray was full: banff taken
    with pytest.raises(IllegalActionError):
        position(
            game,
            [Task("build", 0, 1)],
            control={"moray": 0},
            towers={"moray": 1},
            castles=("moray",),
            money=(3, 0),
        ).apply_text("build income I-right")


# -- military -----------------------------------------------------------------------------------


def test_recruit_prices_and_supply(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("recruit", 0, 3, -1)],
        control={"moray": 0},
        castles=("moray",),
        money=(12, 0),
        troops={(0, "moray"): (0, 0, 1)},
    )
    assert legal_texts(s) == ["take 0 artillery", "take 1 artillery"]
    s = play(s, "take 1 artillery")
    assert legal_texts(s) == ["take 0 cavalry", "take 1 cavalry"]
    s = play(s, "take 1 cavalry", "take 1 infantry")
    assert s.money[0] == 0 and s.troops_at(0, tid(game, "moray")) == (1, 1, 2)


def test_mountain_move_is_one_step(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("move", 0, 1)], troops={(0, "moray"): (0, 1, 0)}, control={"moray": 0})
    assert "territory badenoch" in legal_texts(s)
    s = play(s, "territory badenoch")  # mountainous: the move ends there
    assert done(s) and s.controller[tid(game, "badenoch")] == 0


def test_cavalry_crosses_a_sea_lane_and_steps_on(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("move", 0, 1)], troops={(0, "caithness"): (0, 1, 0)})
    assert "territory orkney" in legal_texts(s)
    s = play(s, "territory sutherland")
    assert "territory caithness" not in legal_texts(s)  # never re-enter the origin


def test_split_leaves_the_king_with_the_chosen_part(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "edinburgh_castle"): (2, 0, 0)},
        control={"edinburgh_castle": 0},
        regent=0,
        gold_out=True,
    )
    s = play(s, "take 1 infantry")
    assert legal_texts(s) == ["king goes", "king stays"]
    s = play(s, "king stays", "territory lothian")
    assert s.king == tid(game, "edinburgh_castle") and s.regent == 0 and done(s)


def test_claiming_a_city_gives_one_black_die_per_turn(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("move", 0, 2)], troops={(0, "moray"): (2, 0, 0)}, control={"moray": 0})
    s = play(s, "take 1 infantry", "territory inverness")
    assert s.controller[tid(game, "inverness")] == 0 and s.feud[0] == 1
    # lost to seat 1 and retaken in the same turn: no second die
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0, "inverness": 1},
        city_dice=(1 << tid(game, "inverness"), 0),
    )
    s = play(s, "territory inverness")
    assert s.controller[tid(game, "inverness")] == 0 and done(s)
    assert s.feud[1] == 1  # one building lost: one feud token
    # the recount next phase 1 counts the city
    from clangames.clan_feud.rules import dice_owned

    assert dice_owned(s, 0)[BLACK] == 1


def test_taking_the_king_at_edinburgh_castle(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game, [Task("move", 0, 1)], troops={(0, "lothian"): (1, 0, 0)}, control={"lothian": 0}
    )
    s = play(s, "territory edinburgh_castle")
    assert s.regent == 0 and s.gold_out and s.feud[0] == 1 and s.filled[0] & 1


def test_lone_king_taken_by_a_stopping_army_not_a_passing_one(game) -> None:  # type: ignore[no-untyped-def]
    lothian = tid(game, "lothian")
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "berwick"): (0, 1, 0)},
        king=lothian,
        gold_out=True,
    )
    s = play(s, "territory lothian", "territory edinburgh")
    assert s.regent == -1
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "berwick"): (0, 1, 0)},
        king=lothian,
        gold_out=True,
    )
    s = play(s, "territory lothian", "stop")
    assert s.regent == 0


# -- battles ------------------------------------------------------------------------------------


def _battle(game, attackers, defenders, **kw):  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): attackers, (1, "inverness"): defenders},
        control={"moray": 0, "inverness": 1},
        **kw,
    )
    while s.phase.name == "army":
        s = s.apply(s.legal_actions()[-1])
    return play(s, "territory inverness")


def test_battle_with_artillery_against_a_castle(game) -> None:  # type: ignore[no-untyped-def]
    s = _battle(game, (0, 0, 1), (2, 0, 0), castles=("inverness",))
    # the castle's +2 is cancelled by the attacker's artillery
    assert s.phase.name == "bart"
    assert {s.action_text(a) for a, _ in s.chance_outcomes()} == {f"total {k}" for k in range(2, 7)}
    s = play(s, "total 5")  # attacker's artillery: 5 against 2 infantry
    assert s.phase.name == "broll" and legal_texts(s) == ["roll 1", "roll 2", "roll 3"]


def test_a_draw_rolls_one_die_each(game) -> None:  # type: ignore[no-untyped-def]
    s = _battle(game, (2, 0, 0), (1, 0, 0))  # 2 against 1 + city 1
    assert s.phase.name == "bhits" and s.battle is not None and s.battle.roller == -1
    s = play(s, "hits 1/0", "hits 0/1")
    # attacker's 1 hit the defender, the defender's 3 hit itself: capped at its one troop
    assert done(s) and s.controller[tid(game, "inverness")] == 0
    assert s.troops_at(0, tid(game, "inverness")) == (2, 0, 0)


def test_two_is_three_card(game) -> None:  # type: ignore[no-untyped-def]
    s = _battle(game, (4, 0, 0), (1, 0, 0), hands={1: {"AC11": 1}})
    s = s.apply_text("card AC11", 1)
    s = play(s, "roll 1")
    texts = {s.action_text(a): p for a, p in s.chance_outcomes()}
    # faces 1,1,1,2,2,3: with 2 = 3 the 2s hit only the roller
    assert texts == {"hits 0/1": 1 / 2, "hits 1/0": 1 / 2}


def test_skulls_minus_gives_a_round_without_casualty(game) -> None:  # type: ignore[no-untyped-def]
    s = _battle(game, (4, 0, 0), (1, 0, 0), hands={1: {"AC02": 1}})
    s = s.apply_text("card AC02", 1)
    s = play(s, "roll 1", "hits 1/0")
    assert s.troops_at(1, tid(game, "inverness")) == (1, 0, 0)
    assert legal_texts(s) == ["continue", "retreat"]


def test_forced_continue_when_every_defender_is_dead(game) -> None:  # type: ignore[no-untyped-def]
    s = _battle(game, (4, 0, 0), (1, 0, 0))
    s = play(s, "roll 2", "hits 2/0")
    inverness = tid(game, "inverness")
    assert done(s) and s.controller[inverness] == 0
    assert s.troops_at(0, inverness) == (4, 0, 0)
    assert s.feud[1] == 2  # one casualty and one building lost


def test_defender_retreats_to_its_own_territory(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (5, 0, 0), (1, "inverness"): (2, 0, 0)},
        control={"moray": 0, "inverness": 1, "loch_ness": 1},
    )
    s = play(s, "take 5 infantry", "territory inverness", "roll 1", "hits 0/1")
    s = play(s, "continue")
    assert legal_texts(s) == ["continue", "retreat"]
    s = play(s, "retreat")
    assert done(s)  # only one own territory next door: chosen at once
    assert s.troops_at(1, tid(game, "loch_ness")) == (2, 0, 0)
    assert s.troops_at(0, tid(game, "inverness")) == (4, 0, 0)


def test_defender_with_nowhere_to_go_must_continue(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "caithness"): (4, 0, 0), (1, "orkney"): (2, 0, 0)},
        control={"caithness": 0, "orkney": 1},
    )
    s = play(s, "take 4 infantry", "territory orkney", "roll 1", "hits 0/1", "continue")
    # Orkney's one neighbour holds the attacker's home: no question, a new round
    assert s.battle is not None and s.battle.rounds == 2
    assert s.phase.name == "btokens" and s.to_move == (0,)  # the casualty's feud token


def test_defender_not_asked_after_the_attacker_retreats(game) -> None:  # type: ignore[no-untyped-def]
    s = _battle(game, (5, 0, 0), (2, 0, 0))
    s = play(s, "roll 1", "hits 0/1", "retreat")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (4, 0, 0)
    assert s.controller[tid(game, "inverness")] == 1


def test_both_wiped_out_keeps_control_and_leaves_the_king_alone(game) -> None:  # type: ignore[no-untyped-def]
    inverness = tid(game, "inverness")
    s = _battle(game, (1, 0, 0), (1, 0, 0), king=inverness, regent=1, gold_out=True)
    # 1 against 1 + city 1 + King 1: the defender wins by 2
    s = play(s, "roll 1", "hits 1/1")
    assert done(s)
    assert s.controller[inverness] == 1 and s.regent == -1 and s.king == inverness
    assert s.feud[1] == 2  # a casualty and the King lost


# -- phase 3 ------------------------------------------------------------------------------------


def test_upkeep_paid_with_feud_tokens(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game, [Task("upkeep", 0)], troops={(0, "moray"): (2, 1, 0)}, money=(1, 0), feud=(5, 0)
    )
    assert legal_texts(s)[0] == "pay upkeep"
    s = play(s, "pay upkeep")
    assert legal_texts(s) == ["pay 3 feud", "pay 4 feud"]
    s = play(s, "pay 3 feud")
    assert s.money[0] == 0 and s.feud[0] == 2 and done(s)


def test_upkeep_with_troops_removed_by_choice(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("upkeep", 0)], troops={(0, "moray"): (1, 1, 0)}, money=(1, 0))
    # £1 cannot pay 3: the only territory with troops is chosen at once
    assert legal_texts(s) == ["lose infantry", "lose cavalry"]
    s = play(s, "lose cavalry", "pay upkeep")  # now £1 pays for the infantry
    assert done(s) and s.money[0] == 0 and s.troops_at(0, tid(game, "moray")) == (1, 0, 0)


def test_an_event_choice_forced_by_an_unaffordable_payment(game) -> None:  # type: ignore[no-untyped-def]
    from clangames.clan_feud.interpret import program

    node = game.each_player_nodes[0]  # EV01: pay £3 OR England +1
    s = position(game, [program(0, node)], money=(2, 0), england=5)
    assert done(s) and s.england == 6
    s = position(game, [program(0, node)], money=(3, 0), england=5)
    assert legal_texts(s) == ["option 1", "option 2"]
    s = play(s, "option 1")
    assert s.money[0] == 0 and s.england == 5


def test_the_final_count(game) -> None:  # type: ignore[no-untyped-def]
    from clangames.clan_feud.scoring import final_count

    s = position(
        game,
        [],
        control={"moray": 0, "inverness": 0, "banff": 1},
        towers={"moray": 2},
        troops={(0, "moray"): (2, 1, 0)},
        money=(11, 4),
        feud=(3, 0),
        regent=0,
        king=tid(game, "moray"),
        gold_out=True,
    )
    # 2 territories + city 4 + 2 tower houses 4 + King 5 + £11 -> 2 - 3 feud - 3 troops
    assert final_count(s, 0) == 2 + 4 + 4 + 5 + 2 - 3 - 3
    assert final_count(s, 1) == 1
    assert s.scores() == (11, 1)


# -- turn order ---------------------------------------------------------------------------------


def test_turn_order_set_seat_by_seat_and_the_regent_tie_break() -> None:
    g = load(3)
    s = position(
        g,
        [Task("phase1")],
        regent=2,
        gold_out=True,
        control={"moray": 2},
        troops={(2, "moray"): (1, 0, 0)},
        king=tid(g, "moray"),
    )
    # seats 0 and 1 hold 3 dice, seat 2 holds 4 (gold): the regent names the setter
    assert s.phase.name == "tiebreak" and s.to_move == (2,)
    assert legal_texts(s) == ["seat 0", "seat 1"]
    s = play(s, "seat 1")
    assert s.phase.name == "order" and s.to_move == (1,)
    s = play(s, "seat 2", "seat 0")
    assert s.order == (2, 0, 1)


def test_intrigue_levels_one_and_three(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("intrigue", 0, 1)], money=(0, 0))
    assert (s.money[0], s.vp[0]) == (1, 2)
    s = play(s, "draw AC05")
    assert s.hands[0][4] == 1 and done(s)
    s = position(game, [Task("intrigue", 0, 3)], money=(0, 0))
    assert (s.money[0], s.vp[0]) == (3, 3)
    s = play(s, "draw AC05", "draw AC05", "draw AC06")
    assert s.hands[0][4] == 2 and s.hands[0][5] == 1 and done(s)


def test_intrigue_reshuffles_the_discards() -> None:
    g = load(2)
    empty = tuple(0 for _ in g.deck.designs)
    s = position(
        g, [Task("intrigue", 0, 1)], deck=empty, discards=tuple(d.copies for d in g.deck.designs)
    )
    assert s.is_chance and sum(s.deck) == 50 and sum(s.discards) == 0


def test_recruit_level_one_is_infantry_only(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("recruit", 0, 1, -1)],
        control={"moray": 0, "banff": 0},
        castles=("moray", "banff"),
        money=(3, 0),
    )
    assert legal_texts(s) == ["territory banff", "territory moray"]
    s = play(s, "territory banff")
    assert legal_texts(s) == ["take 1 infantry", "take 2 infantry", "take 3 infantry"]


def test_move_level_two_moves_two_armies_once_each(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("move", 0, 2)],
        troops={(0, "moray"): (1, 0, 0), (0, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 0},
    )
    assert legal_texts(s) == ["territory banff", "territory moray"]
    s = play(s, "territory banff", "territory moray")
    # the troop that arrived in moray moved already: only moray's own infantry may go
    assert legal_texts(s) == ["stop", "territory moray"]
    s = play(s, "territory moray", "territory inverness")
    assert done(s) and s.troops_at(0, tid(game, "inverness")) == (1, 0, 0)
    assert s.troops_at(0, tid(game, "moray")) == (1, 0, 0) and not any(s.moved)


def test_a_sea_lane_step_then_a_land_step(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("move", 0, 1)], troops={(0, "mull"): (0, 1, 0)})
    assert legal_texts(s) == ["territory lochaber", "territory lorn"]
    s = play(s, "territory lorn")  # Lorn is mountainous: the move ends on it
    assert done(s) and s.controller[tid(game, "lorn")] == 0
    s = position(game, [Task("move", 0, 1)], troops={(0, "ayr"): (0, 1, 0)})
    s = play(s, "territory kintyre_arran")  # across the Firth of Clyde
    assert "territory argyll" in legal_texts(s)
    s = play(s, "territory argyll")
    assert done(s) and s.controller[tid(game, "argyll")] == 0


def test_build_level_two_offers_row_one_and_two_and_the_castle(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("build", 0, 2)],
        control={"banff": 0},
        money=(12, 0),
        uncovered={0: ((MILITARY, 2),)},
    )
    texts = legal_texts(s)
    assert "build income I-right" in texts and "build income II" in texts
    assert "build military III-left" in texts and "build military III-right" in texts
    s = play(s, "build military III-left")  # the castle, into banff (the only choice)
    assert s.site[tid(game, "banff")] == 2 and s.money[0] == 0 and done(s)


def test_recruit_level_two_takes_cavalry_then_infantry(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("recruit", 0, 2, -1)],
        control={"moray": 0},
        castles=("moray",),
        money=(4, 0),
    )
    assert legal_texts(s) == ["take 0 cavalry", "take 1 cavalry"]
    s = play(s, "take 1 cavalry")
    assert legal_texts(s) == ["take 0 infantry", "take 1 infantry"]
    s = play(s, "take 0 infantry")
    assert s.troops_at(0, tid(game, "moray")) == (0, 1, 0) and s.money[0] == 1 and done(s)


def test_a_gained_die_may_raise_a_pool_die_instead(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("build", 0, 1)],
        money=(3, 0),
        pool={0: {(WHITE, 1): 1}},
        filled={0: ((FEUD, 0),)},
    )
    # no territory for a tower house: the black die is the only purchase, made at once;
    # Feud I is taken, so the die goes to Feud II
    assert s.phase.name == "feud" and legal_texts(s) == ["tokens", "raise white 1"]
    s = play(s, "raise white 1")
    assert s.pool[0][1] == 1 and s.filled[0] & (1 << 2) and done(s)


def test_move_level_three_and_the_objective_of_an_event(game) -> None:  # type: ignore[no-untyped-def]
    from clangames.clan_feud.interpret import program

    s = position(
        game,
        [Task("move", 0, 3)],
        troops={(0, "moray"): (1, 0, 0), (0, "banff"): (1, 0, 0), (0, "mar"): (1, 0, 0)},
        control={"moray": 0, "banff": 0, "mar": 0},
    )
    s = play(s, "territory banff", "territory buchan", "territory mar", "territory aberdeen")
    s = play(s, "territory moray", "territory inverness")
    assert done(s) and sum(s.controller[t] == 0 for t in range(game.board.size)) == 6
    node = game.objective_nodes[1]  # EV02: most territories, 4 VP
    s = position(game, [program(0, node), program(1, node)], control={"moray": 0, "banff": 1})
    assert s.vp == (4, 4)  # tied players both score
