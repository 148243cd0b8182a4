"""Clan Feud's ``explain_illegal`` names what stops a move: the die not held, the slot
covered or filled, the coloured die's column, the column that could not act, the price
not affordable, the territory not held or full, the step not adjacent or into a
mountain, the card not held, out of its window or changing nothing, the decision that
is being taken instead; never the kernel's generic "is not legal for player N now".

Its reasons agree with the legal actions both ways (``obstacle`` is None exactly for a
legal action, over seeded playouts at 2-5 players), it never raises for any action of the
table or any seat, and it reads only what the asking seat may see (the same text across
``resample``)."""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames.clan_feud.actions import Assign
from clangames.clan_feud.explain import obstacle
from clangames.clan_feud.rules import BUILD, FEUD, INCOME
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.engine.errors import IllegalActionError
from clangames.engine.rng import Rng
from clangames.rendering.explain import explain_action

from .cf_rules_helpers import load, play, position, tid
from .cf_walk import random_step

WHITE, BLACK, GREEN = 0, 1, 3
GENERIC = "is not legal for player"
"""The kernel's fallback text (``State.explain_illegal``), which Clan Feud never gives."""


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return load(2)


def _said(state: ClanFeudState, text: str, seat: int | None = None) -> str:
    """The reason ``seat`` (default: the one to move) hears for the action ``text``,
    checked to be refused, to name the action once and to be the game's own reason."""
    action = state.game.parse_action(text)
    if seat is None:
        seat = state.to_move[0]
    assert not state.is_legal(action, seat), text
    said = state.explain_illegal(action, seat)
    quoted = repr(text)
    assert said.startswith(f"{quoted} is not legal: "), said
    assert said.count(quoted) == 1, said
    assert GENERIC not in said
    return said.removeprefix(f"{quoted} is not legal: ")


# -- assigning a die ---------------------------------------------------------------------------


def _assign(game: Any, **facts: Any) -> ClanFeudState:
    facts.setdefault("pool", {0: {(WHITE, 1): 1, (WHITE, 2): 1}})
    facts.setdefault("control", {"moray": 0})
    return position(game, [Task("assign", 0)], **facts)


def test_a_die_not_held_is_named_with_the_dice_held(game) -> None:  # type: ignore[no-untyped-def]
    assert _said(_assign(game), "assign white 3 to feud III") == (
        "you hold no unassigned white die showing 3 (your unassigned dice: white 1, white 2)"
    )


def test_a_coloured_die_goes_only_to_its_column(game) -> None:  # type: ignore[no-untyped-def]
    s = _assign(game, pool={0: {(GREEN, 3): 1, (WHITE, 1): 1}})
    assert _said(s, "assign green 3 to feud III") == "a green die goes only to the Income column"
    assert s.is_legal(Assign(GREEN, 3, INCOME, 1), 0)


def test_a_covered_or_filled_slot_is_named(game) -> None:  # type: ignore[no-untyped-def]
    s = _assign(game)
    assert _said(s, "assign white 2 to income II") == (
        "your Income level II slot is still covered by a tower house (a Build buys it for £9)"
    )
    s = _assign(
        game,
        pool={0: {(WHITE, 1): 1, (WHITE, 3): 1}},
        filled={0: ((FEUD, 0), (INCOME, 0))},
    )
    assert _said(s, "assign white 1 to feud I") == (
        "your Feud level I slot already holds a die this turn"
    )
    assert _said(s, "assign white 1 to income I") == (
        "both your Income level I slots are taken: the I-left one already holds a die this"
        " turn, and the I-right one is still covered by a tower house (a Build buys it for £3)"
    )
    assert _said(s, "assign white 3 to income III") == (
        "both your Income level III slots are taken: the III-left one is still covered by a"
        " castle (a Build buys it for £12 once the column's II tower house is built), and the"
        " III-right one is still covered by the green die (a Build buys it for £12 once the"
        " column's II tower house is built)"
    )


def test_a_build_die_that_could_buy_nothing_says_why(game) -> None:  # type: ignore[no-untyped-def]
    poor = _assign(game, money=(2, 10))
    assert _said(poor, "assign white 1 to build I") == (
        "a level I Build could buy nothing: the cheapest purchase open to it costs £3, and"
        " you have £2"
    )
    # the black die is bought, and Moray holds 2 buildings: the tower houses have no room
    full = _assign(game, money=(5, 10), towers={"moray": 2}, uncovered={0: ((BUILD, 1),)})
    assert _said(full, "assign white 1 to build I") == (
        "a level I Build could buy nothing: what you can afford is a building, and each"
        " territory you control holds 2 already"
    )


def test_a_military_die_that_could_not_act_says_why(game) -> None:  # type: ignore[no-untyped-def]
    # no troops; Moray has no building (the builder leaves the start castle out)
    s = _assign(game)
    assert _said(s, "assign white 1 to military I") == (
        "a Military die could neither move nor recruit: you have no troops on the board,"
        " and no building to recruit at"
    )
    s = _assign(game, money=(0, 10), castles=("moray",))
    assert _said(s, "assign white 1 to military I") == (
        "a Military die could neither move nor recruit: you have no troops on the board,"
        " and £0: an infantry costs £1"
    )


def test_passing_while_a_die_can_go_somewhere(game) -> None:  # type: ignore[no-untyped-def]
    assert _said(_assign(game), "pass") == (
        "passing is allowed only when none of your dice can be assigned, and some can"
    )


def test_an_action_of_another_decision_says_what_is_decided_now(game) -> None:  # type: ignore[no-untyped-def]
    s = _assign(game)
    assert _said(s, "raise white 1") == (
        "raising a die is a Feud slot's benefit or an action card's change; now player 0:"
        " assign a die to a free slot of your board (that takes assign <colour> <value> to"
        " <column> <level>, play <card>, or pass)"
    )
    assert _said(s, "pay upkeep").startswith(
        "upkeep is paid at the end of the turn (phase 3: upkeep); now player 0: assign"
    )


# -- action cards ------------------------------------------------------------------------------


def test_a_card_not_held_out_of_its_window_or_changing_nothing(game) -> None:  # type: ignore[no-untyped-def]
    # player 1 holds no £ to steal; Sorning is an upkeep card; no AC01 in hand
    s = _assign(game, hands={0: {"AC09": 1, "AC28": 1, "AC10": 1}}, money=(10, 0))
    assert _said(s, "play AC01") == "you hold no Raid of Ruthven (AC01)"
    assert _said(s, "play AC28") == (
        "Sorning (AC28) is played just before your upkeep (phase 3: cards before upkeep),"
        " not when you assign a die"
    )
    assert _said(s, "play AC09") == (
        "Reiving Raid (AC09) would change nothing now: no other player holds any £"
    )
    assert s.is_legal(s.game.parse_action("play AC10"), 0)


def test_a_card_with_no_die_it_goes_with(game) -> None:  # type: ignore[no-untyped-def]
    s = _assign(game, hands={0: {"AC10": 1, "AC26": 1}}, filled={0: ((INCOME, 0),)})
    assert _said(s, "play AC10") == (
        "Salt Pans of the Forth (AC10) goes with a die assigned to the Income column, and no"
        " slot there that your dice could fill is free"
    )
    assert _said(s, "play AC26") == (
        "Burgh Tolbooth (AC26) goes with a black die, and none of your dice (white 1, white 2)"
        " can go there"
    )


def test_after_a_card_the_die_must_fit_it(game) -> None:  # type: ignore[no-untyped-def]
    s = play(_assign(game, hands={0: {"AC10": 1, "AC09": 1}}), "play AC10")
    assert _said(s, "assign white 1 to feud I") == (
        "Salt Pans of the Forth (AC10) goes only with a die assigned to the Income column"
    )
    assert _said(s, "pass") == (
        "you played Salt Pans of the Forth (AC10): a die it goes with must be assigned now"
    )
    assert _said(s, "play AC09") == (
        "one action card goes with a die, and you played Salt Pans of the Forth (AC10) already"
    )


def test_a_card_in_its_window_that_would_change_nothing(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("p3cards", 0)], hands={0: {"AC28": 1, "AC01": 1, "AC11": 1}})
    assert _said(s, "play AC28") == (
        "Sorning (AC28) would change nothing now: you owe no upkeep to reduce"
    )
    assert _said(s, "play AC01") == (
        "Raid of Ruthven (AC01) is played before the turn order is set (phase 1: cards"
        " before the turn order), not just before your upkeep (phase 3: cards before upkeep)"
    )
    s = position(
        game,
        [Task("assign", 0)],
        pool={0: {(WHITE, 1): 1}},
        control={"moray": 0},
        hands={0: {"AC11": 1}},
    )
    assert _said(s, "play AC11") == (
        "Staple at Veere (AC11) would change nothing now: it would gain £2 per city you"
        " control, which comes to 0 for you"
    )


def test_a_card_played_at_another_decision(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("upkeep", 0)],
        troops={(0, "moray"): (2, 0, 0), (0, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 0},
        money=(0, 0),
        feud=(1, 0),
        hands={0: {"AC10": 1}},
    )
    assert _said(s, "play AC10") == (
        "Salt Pans of the Forth (AC10) is played when you assign a die to the Income column;"
        " now player 0: your upkeep is £3 and you hold £0 and 1 feud token: remove troops"
        " until you can pay"
    )


# -- the Feud benefit --------------------------------------------------------------------------


def test_feud_raises(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("feud", 0, 1)], pool={0: {(WHITE, 1): 1, (WHITE, 2): 1}})
    assert _said(s, "raise white 2") == "a Feud I slot raises only a die showing 1 (to a 2)"
    assert _said(s, "white 1 to 3") == "only the Feud III slot turns a 1 into a 3"
    assert _said(s, "raise black 1") == "you hold no unassigned black die showing 1"
    assert _said(s, "stop") == (
        "stop ends Feud III's second raise; first take tokens or raise a die"
    )
    s = position(game, [Task("feud", 0, 3)], pool={0: {(WHITE, 1): 1, (BLACK, 1): 1}})
    s = play(s, "raise white 1")
    assert _said(s, "raise white 2") == (
        "that white die showing 2 is the die you just raised: a die rises once"
    )
    assert _said(s, "tokens") == "you raised a die already: raise a second one, or stop"
    assert _said(s, "white 1 to 3") == "the second choice of Feud III is a raise by 1, or stop"


# -- building ----------------------------------------------------------------------------------


def test_build_purchases(game) -> None:  # type: ignore[no-untyped-def]
    s = position(game, [Task("build", 0, 1)], control={"moray": 0}, money=(5, 0))
    assert _said(s, "build income II") == "a tower house there costs £9, and you have £5"
    assert _said(s, "build income III-left") == (
        "a level I Build buys only from rows I and II (a tower house or the black die)"
    )
    assert _said(s, "stop") == (
        "stop declines a Build III's second purchase; first choose what to buy"
    )
    s = position(
        game,
        [Task("build", 0, 2)],
        control={"moray": 0},
        castles=("moray",),
        money=(12, 0),
        uncovered={0: ((INCOME, 2), (BUILD, 1))},
    )
    assert _said(s, "build intrigue III-left") == (
        "the Intrigue column's II tower house must be built before its row III"
    )
    assert _said(s, "build income III-left") == (
        "a castle needs a territory of yours without a castle or city and with room, and"
        " you have none"
    )
    assert _said(s, "build build I-right") == "your Build column's I-right slot is bought already"


def test_building_placement(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("place", 0, 2)],
        control={"moray": 0, "aberdeen": 0, "buchan": 0, "forfar": 0, "the_lennox": 1},
        towers={"moray": 2},
    )
    assert _said(s, "territory mar") == "you do not control Mar (nobody does)"
    assert _said(s, "territory the_lennox") == "you do not control The Lennox (player 1 does)"
    assert _said(s, "territory moray") == (
        "Moray already holds 2 buildings, the most a territory takes"
    )
    assert _said(s, "territory aberdeen") == (
        "Aberdeen already has a city, and a territory takes one castle or city"
    )


# -- recruiting, moving ------------------------------------------------------------------------


def test_recruits(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("recruit", 0, 2, -1)],
        control={"moray": 0, "buchan": 0, "banff": 0},
        castles=("moray",),
        towers={"buchan": 1},
        troops={(0, "buchan"): (0, 3, 0)},
        money=(10, 0),
    )
    assert _said(s, "territory banff") == "Banff has no building to recruit at"
    assert _said(s, "territory mar") == "you do not control Mar (nobody does)"
    assert _said(s, "take 1 infantry") == (
        "first choose the territory (one with your building) the recruits go to"
    )
    s = play(s, "territory moray")  # cavalry first at level II: one is left in supply
    assert _said(s, "take 2 cavalry") == "your supply holds only 1 more cavalry"
    assert _said(s, "take 1 artillery") == "a level II recruit takes only infantry and cavalry"
    assert _said(s, "take 1 infantry") == (
        "troops are recruited artillery, cavalry, infantry: now the cavalry"
    )
    assert _said(s, "territory buchan") == "the recruits go to Moray; now choose how many troops"
    s = play(s, "take 0 cavalry")
    assert _said(s, "take 0 infantry") == (
        "a recruit takes at least one troop, and none can be taken after these"
    )
    assert _said(s, "take 0 cavalry") == "the cavalry were chosen already; now the infantry"


def _mover(game: Any, **facts: Any) -> ClanFeudState:
    return position(
        game,
        [Task("move", 0, 2)],
        troops={(0, "moray"): (2, 1, 0), (0, "banff"): (0, 1, 0)},
        control={"moray": 0, "banff": 0},
        **facts,
    )


def test_an_army_to_move(game) -> None:  # type: ignore[no-untyped-def]
    s = _mover(game)
    assert _said(s, "territory mar") == "you have no troops in Mar"
    assert _said(s, "stop") == "choose at least one army to move before stopping"
    moved = [0] * (3 * game.board.size)
    moved[3 * tid(game, "banff") + 1] = 1
    s = position(
        game,
        [Task("move", 0, 2, 1)],
        troops={(0, "moray"): (2, 1, 0), (0, "banff"): (0, 1, 0)},
        control={"moray": 0, "banff": 0},
        moved=tuple(moved),
    )
    assert _said(s, "territory banff") == "your troops in Banff have already moved in this action"


def test_the_troops_of_an_army(game) -> None:  # type: ignore[no-untyped-def]
    s = play(_mover(game), "territory moray")  # artillery asked of none: cavalry now
    assert _said(s, "take 2 cavalry") == "you have 1 cavalry in Moray that have not moved yet"
    assert _said(s, "take 1 infantry") == (
        "troops are chosen artillery, cavalry, infantry: now the cavalry"
    )
    assert _said(s, "king goes") == "the King is not with your troops in Moray"


def test_the_steps_of_a_move(game) -> None:  # type: ignore[no-untyped-def]
    s = play(_mover(game), "territory banff")  # its one cavalry goes at once: 2 steps
    assert _said(s, "stop") == "the army must take a step before it can stop"
    assert _said(s, "territory skye") == "Skye is not next to Banff by land or sea lane"
    assert _said(s, "territory banff") == (
        "the army stands in Banff now: it steps to a neighbour, or stops"
    )
    s = play(s, "territory aberdeen")
    assert _said(s, "territory mar") == (
        "Mar is mountainous: a step into a mountain must be a move's only step"
    )
    assert _said(s, "territory banff") == (
        "Banff is where this move began, and a move never returns"
    )


# -- upkeep, events, turn order ----------------------------------------------------------------


def test_upkeep(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("upkeep", 0)],
        troops={(0, "moray"): (2, 0, 0), (0, "banff"): (1, 0, 0)},
        control={"moray": 0, "banff": 0},
        money=(0, 0),
        feud=(1, 0),
    )
    assert _said(s, "pay upkeep") == (
        "you owe 3 in upkeep and hold £0 and 1 feud token: remove troops until you can pay"
    )
    assert _said(s, "territory mar") == "you have no troops in Mar"
    assert _said(s, "lose infantry") == "first name the territory the troop leaves"
    s = position(game, [Task("upkeep_pay", 0, 3)], money=(2, 0), feud=(2, 0))
    assert _said(s, "pay 0 feud") == "you have £2, so at least 1 must be paid in feud tokens"
    assert _said(s, "pay 3 feud") == "you hold 2 feud tokens"
    assert _said(s, "pay 4 feud") == "only 3 is due"


def test_an_event_choice_and_its_discard(game) -> None:  # type: ignore[no-untyped-def]
    ev = [e.id for e in game.events.regular]
    node = game.each_player_nodes[ev.index("EV03")]  # discard 1 card OR +1 England
    s = position(game, [Task("prog", 0, 0, data=(node, -1))], money=(5, 0), hands={0: {"AC02": 1}})
    assert _said(s, "option 3") == "this choice has only 2 options"
    s = play(s, "option 1")
    assert _said(s, "discard AC03") == "you hold no The King's Golf Clubs (AC03)"


def test_the_turn_order_and_its_tie_break() -> None:
    game = load(3)
    s = position(game, [Task("order", 0, data=(1,))])
    assert _said(s, "seat 1") == "player 1 already has place 1 of the turn order"
    assert _said(s, "seat 4") == "there is no player 4 in this 3-player game"
    s = position(game, [Task("tiebreak", 0, data=(1, 2))])
    assert _said(s, "seat 0") == (
        "player 0 is not among the players tied for fewest dice (player 1, player 2)"
    )


def test_a_steal_names_a_player_with_something_to_take() -> None:
    game = load(4)
    s = position(game, [Task("steal", 0, 0, 3)], money=(5, 0, 4, 4))
    assert _said(s, "seat 1") == "player 1 holds no £"
    assert _said(s, "seat 0") == "you cannot steal from yourself"


# -- battles -----------------------------------------------------------------------------------


def test_a_battle_round(game) -> None:  # type: ignore[no-untyped-def]
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "moray"): (2, 0, 0), (1, "banff"): (1, 1, 0)},
        control={"moray": 0, "banff": 1},
        feud=(3, 2),
        hands={0: {"AC10": 1}},
    )
    s = play(s, "take 2 infantry", "territory banff")  # the army from Moray, its one origin
    assert s.phase.name == "bcards" and s.to_move == (0,)  # player 1 holds no card
    assert _said(s, "play AC10") == (
        "Salt Pans of the Forth (AC10) is played when you assign a die to the Income column;"
        " now player 0: commit an action card for the battle round, sealed (in battle it is"
        " committed as card AC10)"
    )
    assert _said(s, "card AC02") == "you hold no Cunning Folk (AC02)"
    assert _said(s, "card AC10", 1) == "you hold no action card to commit to this battle round"
    s = s.apply_text("card AC10", 0)  # its combat effect: +2 strength
    assert s.phase.name == "btokens" and s.to_move == (0, 1)
    assert _said(s, "commit 4", 0) == "you hold 3 feud tokens"
    s = s.apply_text("commit 1", 0)
    assert _said(s, "commit 0", 0) == (
        "you have already committed your feud tokens for this battle round"
    )
    s = s.apply_text("commit 0", 1)  # 2 + 2 + 1 against 3: the attacker rolls 1 or 2 dice
    assert _said(s, "roll 3") == (
        "you may roll 1 to 2 casualty dice (your winning margin, at most 30)"
    )
    s = play(s, "roll 1", "hits 1/0")  # one of the defender's two troops dies
    assert s.phase.name == "bloss" and s.to_move == (1,)
    assert _said(s, "lose artillery") == "your side has no artillery left in this battle"


# -- whose move, chance, the end ---------------------------------------------------------------


def test_a_seat_not_to_move_chance_and_the_end(game) -> None:  # type: ignore[no-untyped-def]
    s = _assign(game)
    assert _said(s, "assign white 1 to feud I", 1) == (
        "it is player 0's turn (assign a die to a free slot of your board), not player 1's"
    )
    assert _said(s, "draw AC01") == "it is a chance outcome: no player chooses it"
    chance = position(game, [Task("income", 0, 2)], control={"moray": 0})
    assert chance.is_chance
    assert _said(chance, "pass", 0) == (
        "chance decides next (Black dice are rolled for Income), not player 0"
    )
    final, _, _ = clangames.rollout(game.initial_state(), Rng(3))
    assert _said(final, "pass", 0) == "the game is over"


def test_the_refusal_of_apply_and_the_front_end_give_the_reason(game) -> None:  # type: ignore[no-untyped-def]
    s = _assign(game)
    action = game.parse_action("assign white 3 to feud III")
    with pytest.raises(IllegalActionError) as refused:
        s.apply(action, 0)
    assert str(refused.value) == s.explain_illegal(action, 0)
    assert explain_action(s, action, 0) == s.explain_illegal(action, 0)


# -- over seeded games -------------------------------------------------------------------------


def _decisions(players: int, seed: int, england_start: int) -> list[ClanFeudState]:
    """A spread of the decisions of a seeded random game (England at war sooner from step
    10): the first few of each kind, then every tenth of the common ones."""
    game = load(players, england_start=england_start)
    state, rng = game.initial_state(), Rng(100 * players + seed)
    out: list[ClanFeudState] = []
    seen: dict[str, int] = {}
    while not state.is_terminal:
        if not state.is_chance:
            kind = state.phase.name
            seen[kind] = seen.get(kind, 0) + 1
            if seen[kind] <= 3 or seen[kind] % 10 == 0:
                out.append(state)
        state, rng = random_step(state, rng)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("england_start", [0, 10])
def test_the_reasons_agree_with_the_legal_actions(players: int, england_start: int) -> None:
    # every action of the table at a spread of decisions: legal ones have no obstacle,
    # illegal ones a reason of their own that names the action once; every seat answered
    for seed in (0, 1, 2):
        for state in _decisions(players, seed, england_start):
            table = state.game.actions.actions
            for seat in range(players):
                legal = set(map(id, state.legal_actions(seat)))
                # a seat not to move hears whose move it is: a sample of the table suffices
                for action in table if seat in state.to_move else table[seat::25]:
                    reason = obstacle(state, action, seat)
                    if id(action) in legal:
                        assert reason is None, (state.phase.name, action, reason)
                        continue
                    assert reason, (state.phase.name, action)
                    said = state.explain_illegal(action, seat)
                    quoted = repr(state.action_text(action))
                    assert said == f"{quoted} is not legal: {reason}"
                    assert said.count(quoted) == 1 and GENERIC not in said


def test_the_games_walked_meet_every_common_decision_and_most_rare_ones() -> None:
    # what the agreement above covers: battles, England's marches, the cards' own steps
    kinds = {
        s.phase.name
        for p in (2, 3, 4, 5)
        for e in (0, 10)
        for seed in (0, 1, 2)
        for s in _decisions(p, seed, e)
    }
    assert kinds >= {
        "assign", "feud", "build", "place", "military", "recruit", "move", "army", "step",
        "bcards", "btokens", "broll", "bdefend", "upkeep", "upkeep_pay", "prog", "order",
        "tiebreak", "p1order", "p1cards", "p3cards", "steal", "modify", "reroll", "th1",
        "free_recruit", "emarch", "emove",
    }  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_an_explanation_reads_only_what_its_seat_may_see(players: int) -> None:
    # another deal of the hands and deck the seat cannot see changes no explanation
    for i, state in enumerate(_decisions(players, 1, 10)):
        table = state.game.actions.actions
        for seat in range(players):
            other = state.resample(seat, Rng(1000 * i + seat))
            for action in table[i % 3 :: 3]:
                assert state.explain_illegal(action, seat) == other.explain_illegal(action, seat), (
                    state.phase.name,
                    seat,
                    action,
                )
