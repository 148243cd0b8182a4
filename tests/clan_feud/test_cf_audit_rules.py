"""Audit: rules and rulings the first scenarios left untested, one hand-made position each
(moves, assignment limits, the phase-1 recount and turn order, the gold die, phase 3's
records and the last turn, and the rulings in docs/games/clan-feud.md without a test)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import clangames
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.interpret import program
from clangames.clan_feud.rules import BLACK, GOLD, dice_owned
from clangames.clan_feud.scoring import final_count
from clangames.clan_feud.state import ClanFeudState, Task
from clangames.engine.rng import Rng

from .cf_helpers import variant
from .cf_rules_helpers import done, legal_texts, load, play, position, tid
from .cf_walk import random_step

WHITE, PURPLE, RED = 0, 4, 5


@pytest.fixture(scope="module")
def game() -> ClanFeudGame:
    return load(2)


# -- moving ----------------------------------------------------------------------------------


def test_a_step_out_of_a_mountain_ends_the_move(game: ClanFeudGame) -> None:
    s = position(game, [Task("move", 0, 1)], troops={(0, "badenoch"): (0, 1, 0)})
    s = play(s, "territory moray")  # cavalry, but Badenoch is mountainous
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (0, 1, 0)


def test_cavalry_after_one_step_may_not_enter_a_mountain(game: ClanFeudGame) -> None:
    s = position(game, [Task("move", 0, 1)], troops={(0, "banff"): (0, 1, 0)})
    s = play(s, "territory moray")
    # Moray's neighbours: Banff (the origin), Inverness, Badenoch (mountainous)
    assert legal_texts(s) == ["stop", "territory inverness"]


def test_an_army_moves_at_its_slowest_troops_speed(game: ClanFeudGame) -> None:
    s = position(game, [Task("move", 0, 1)], troops={(0, "banff"): (1, 1, 0)})
    s = play(s, "take 1 cavalry", "take 1 infantry", "territory moray")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (1, 1, 0)


def test_the_king_goes_unasked_when_every_troop_leaves(game: ClanFeudGame) -> None:
    banff, moray = tid(game, "banff"), tid(game, "moray")
    s = position(
        game,
        [Task("move", 0, 1)],
        troops={(0, "banff"): (1, 0, 0)},
        control={"banff": 0},
        regent=0,
        king=banff,
        gold_out=True,
    )
    s = play(s, "territory moray")
    assert done(s) and s.king == moray and s.regent == 0


# -- assignment --------------------------------------------------------------------------------


def test_purple_and_red_dice_go_only_to_their_columns(game: ClanFeudGame) -> None:
    s = position(
        game,
        [Task("assign", 0)],
        pool={0: {(PURPLE, 1): 1, (RED, 1): 1}},
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0},
    )
    assert legal_texts(s) == ["assign purple 1 to intrigue I", "assign red 1 to military I"]


def test_build_and_military_offered_only_when_they_can_be_done(game: ClanFeudGame) -> None:
    # £2 buys nothing; no troops, and no building to recruit at
    s = position(
        game, [Task("assign", 0)], pool={0: {(WHITE, 1): 1}}, control={"moray": 0}, money=(2, 0)
    )
    assert legal_texts(s) == [
        "assign white 1 to feud I",
        "assign white 1 to income I",
        "assign white 1 to intrigue I",
    ]
    s = position(
        game,
        [Task("assign", 0)],
        pool={0: {(WHITE, 1): 1}},
        control={"moray": 0},
        castles=("moray",),
        money=(1, 0),
    )
    assert "assign white 1 to military I" in legal_texts(s)  # £1 recruits an infantry


# -- phase 1 -------------------------------------------------------------------------------------


def test_the_recount_drops_a_lost_city_and_a_lone_kings_gold_die(game: ClanFeudGame) -> None:
    s = position(
        game,
        [],
        control={"inverness": 1},
        king=tid(game, "moray"),
        regent=-1,
        gold_out=True,
    )
    # seat 0 holds no city now (whatever it held this turn) and nobody is regent
    assert dice_owned(s, 0)[BLACK] == 0 and dice_owned(s, 0)[GOLD] == 0
    assert dice_owned(s, 1)[BLACK] == 1 and dice_owned(s, 1)[GOLD] == 0
    s = position(game, [], regent=1, gold_out=True, uncovered={0: ((2, 1),)})
    assert dice_owned(s, 1)[GOLD] == 1
    assert dice_owned(s, 0)[BLACK] == 1  # the Build column's black die, once bought


def test_turn_order_without_a_regent(game: ClanFeudGame) -> None:
    g = load(3)
    s = position(g, [Task("roll"), Task("phase1")], vp=(2, 1, 0))
    # all hold 3 dice, no regent: the fewest VP sets the order
    assert s.phase.name == "order" and s.to_move == (2,)
    s = position(g, [Task("roll"), Task("phase1")], vp=(2, 0, 0), order=(1, 2, 0))
    # seats 1 and 2 tie on VP too: the order stays, and the dice are rolled
    assert s.is_chance and s.tasks[-1].kind == "roll" and s.order == (1, 2, 0)


# -- the King and the gold die --------------------------------------------------------------------


def test_the_gold_die_goes_to_a_feud_column_only_at_the_first_claim(game: ClanFeudGame) -> None:
    lothian = tid(game, "lothian")
    s = position(
        game, [Task("move", 0, 1)], troops={(0, "berwick"): (1, 0, 0)}, king=lothian, gold_out=True
    )
    s = play(s, "territory lothian")
    assert done(s) and s.regent == 0
    assert s.filled[0] == 0 and s.feud[0] == 0  # no die, no Feud benefit


def _recruit_beside_the_king(game: ClanFeudGame, gold_out: bool) -> ClanFeudState:
    """Player 0's level I recruit, with £1, at its one castle, Moray, where the King
    stands alone (his gold die already claimed once in the game, or not)."""
    return position(
        game,
        [Task("recruit", 0, 1, -1)],
        control={"moray": 0},
        castles=("moray",),
        money=(1, 0),
        king=tid(game, "moray"),
        gold_out=gold_out,
    )


def test_recruits_beside_a_lone_king_take_him(game: ClanFeudGame) -> None:
    """Ruling 12 of docs/games/clan-feud.md: recruits come to rest in the King's
    territory, so they take a lone King (the issue's invariant: the King is with his
    regent's army or alone and unclaimed)."""
    moray = tid(game, "moray")
    s = _recruit_beside_the_king(game, gold_out=True)
    assert done(s)  # the one territory and the one infantry are chosen at once
    assert s.troops_at(0, moray) == (1, 0, 0) and s.regent == 0
    assert s.filled[0] == 0 and s.feud == (0, 0)  # no gold die, nobody lost him


# -- phase 3 -------------------------------------------------------------------------------------


def test_phase_three_keeps_the_track_start_and_records_war(game: ClanFeudGame) -> None:
    """Ruling 14 of docs/games/clan-feud.md: the track's position when phase 3 begins is
    kept for part 2's spawning, and war is recorded after the top line."""
    s = position(game, [Task("phase3")], england=10, events=(1,), money=(0, 0))
    assert s.is_chance  # the next event
    s = play(s, "event EV01")  # +1, then each player cannot pay £3: +1 each
    assert done(s)
    assert s.track_start == 10 and s.england == 13 and s.at_war


def test_the_last_turn_scores_the_objective_and_ends_without_upkeep(
    game: ClanFeudGame,
) -> None:
    events = (1, 2, 3, 4, 5, 6, 7, 0)  # all eight drawn; EV01's objective is active
    assert len(events) == game.deck_size
    s = position(
        game,
        [Task("phase3")],
        events=events,
        control={"stirling": 0, "moray": 1},
        troops={(0, "stirling"): (3, 0, 0), (1, "moray"): (1, 0, 0)},
        money=(0, 0),
    )
    assert s.is_terminal
    # EV01: Stirling held, 4 VP; then the final count (Stirling: 1 + its castle 3, three
    # troops -3); no upkeep, so no troop was removed for want of £
    assert s.vp[0] == 4 + final_count(s, 0) == 4 + 1 + 3 - 3
    assert s.vp[1] == final_count(s, 1) == 1 - 1
    assert s.troops_at(0, tid(game, "stirling")) == (3, 0, 0)
    assert s.winners() == (0,)


def test_a_cost_outside_any_choice_ends_the_program(tmp_path: Path) -> None:
    """Ruling 4 of docs/games/clan-feud.md: effects before the unpayable cost stand, the
    rest of that player's program does nothing."""
    path = variant(
        tmp_path,
        "events.toml",
        'each_player = "pay_money(3) OR england_track(+1)"',
        'each_player = "[gain_vp(2); pay_money(3); gain_vp(5)]"',
    )
    g = load(2, events=path)
    node = g.each_player_nodes[0]
    s = position(g, [program(0, node)], money=(2, 0))
    assert done(s) and s.vp[0] == 2 and s.money[0] == 2
    s = position(g, [program(0, node)], money=(3, 0))
    assert done(s) and s.vp[0] == 7 and s.money[0] == 0


def test_the_military_die_moves_or_recruits_never_both(game: ClanFeudGame) -> None:
    s = position(
        game,
        [Task("military", 0, 1)],
        troops={(0, "moray"): (1, 0, 0)},
        control={"moray": 0},
        castles=("moray",),
        money=(1, 0),
    )
    assert legal_texts(s) == ["recruit", "move"]
    s = play(s, "recruit")
    assert done(s) and s.troops_at(0, tid(game, "moray")) == (2, 0, 0)


def _armies_stand_on_their_own_ground(state: ClanFeudState) -> None:
    if state.battle is not None or state.tasks[-1].kind == "step":
        return  # a battle's sides, or an army passing through, are not at rest
    size = state.game.board.size
    for p, row in enumerate(state.troops):
        for t in range(size):
            if any(row[3 * t : 3 * t + 3]):
                assert state.controller[t] == p, f"seat {p}'s army in {t} is not at home"
    if state.regent < 0:
        king = state.king
        assert not any(any(row[3 * king : 3 * king + 3]) for row in state.troops), (
            "an army stands with an unclaimed King"
        )


@pytest.mark.parametrize(("players", "seed"), [(2, 7), (3, 8)])
def test_every_army_at_rest_stands_in_its_clans_territory(players: int, seed: int) -> None:
    """Ruling 7 of docs/games/clan-feud.md, and the issue's "the King with an army or
    alone and unclaimed", on random games and on random walks through a battle (where
    retreats happen)."""
    g = load(players)
    starts: list[Any] = [g.initial_state()]
    inverness = tid(g, "inverness")
    for i in range(8):
        king: dict[str, Any] = {"regent": 1, "king": inverness, "gold_out": True} if i % 2 else {}
        starts.append(
            position(
                g,
                [Task("move", 0, 2)],
                troops={(0, "moray"): (6, 2, 0), (1, "inverness"): (3, 1, 0)},
                control={"moray": 0, "inverness": 1},
                feud=(2,) * players,
                **king,
            )
        )
    rng = Rng(seed)
    for state in starts:
        steps = 0
        while not state.is_terminal and steps < 400:
            _armies_stand_on_their_own_ground(state)
            steps += 1
            state, rng = random_step(state, rng)


@pytest.mark.parametrize(("players", "turns"), [(2, 9), (3, 8), (4, 7), (5, 7)])
def test_a_game_lasts_its_fixed_number_of_turns(players: int, turns: int) -> None:
    """The rulings' *Game length*: 8/7/6/6 regular events, then King James Comes of Age."""
    g = load(players)
    state: Any = g.initial_state()
    rng = Rng(players)
    while not state.is_terminal:
        if state.is_chance:
            action, rng = clangames.sample_chance(state, rng)
            state = state.apply(action)
            continue
        player = state.to_move[0]
        legal = state.legal_actions(player)
        k, rng = rng.below(len(legal))
        state = state.apply(legal[k], player)
    assert state.turn == turns and len(state.events) == turns - 1
    assert len(set(state.events)) == turns - 1  # no regular event drawn twice


def test_dice_faces(game: ClanFeudGame) -> None:
    from clangames.clan_feud.rules import roll_weights

    # (ones, twos, threes, weight out of 6**n)
    assert roll_weights(0, 1) == ((1, 0, 0, 3), (0, 1, 0, 2), (0, 0, 1, 1))  # white
    assert roll_weights(BLACK, 1) == ((1, 0, 0, 3), (0, 1, 0, 3))  # no 3
    assert roll_weights(GOLD, 1) == roll_weights(0, 1)
    for coloured in (3, 4, 5):  # green, purple, red
        assert roll_weights(coloured, 1) == ((1, 0, 0, 2), (0, 1, 0, 2), (0, 0, 1, 2))
    assert sum(w for *_, w in roll_weights(BLACK, 3)) == 6**3


def test_turn_one_has_no_turn_order_decision() -> None:
    g = load(3)
    s = clangames.resolve_chance(g.initial_state(), Rng(4))
    assert s.turn == 1 and s.phase.name == "assign"  # straight from the roll to phase 2
    assert s.to_move == (s.order[0],)


def test_phase_two_goes_round_in_turn_order(game: ClanFeudGame) -> None:
    s = position(
        game,
        [Task("phase2")],
        order=(1, 0),
        pool={0: {(WHITE, 1): 1}, 1: {(WHITE, 1): 2}},
    )
    assert s.to_move == (1,)
    s = play(s, "assign white 1 to feud I", "tokens")
    assert s.to_move == (0,)
    s = play(s, "assign white 1 to feud I")  # no die left to raise: a token at once
    assert s.to_move == (1,)  # seat 0 is out of dice; seat 1 goes on alone
    s = play(s, "assign white 1 to intrigue I", "draw AC05")
    assert done(s) and s.passed == 0b11


def test_a_gained_die_with_no_free_feud_slot_gives_nothing(game: ClanFeudGame) -> None:
    s = position(
        game,
        [Task("build", 0, 1)],
        money=(3, 0),
        filled={0: ((0, 0), (0, 2), (0, 3))},
    )
    # the black die (no territory for a tower house) is bought; Feud is full
    assert done(s) and s.money[0] == 0 and s.feud[0] == 0
    assert dice_owned(s, 0)[BLACK] == 1


def test_intrigue_draws_fewer_when_deck_and_discards_are_empty(game: ClanFeudGame) -> None:
    empty = tuple(0 for _ in game.deck.designs)
    one = tuple(1 if d.id == "AC05" else 0 for d in game.deck.designs)
    s = position(game, [Task("intrigue", 0, 3)], deck=empty, discards=one, money=(0, 0))
    # the one discard is reshuffled and drawn (a single outcome); then nothing is left
    assert done(s) and sum(s.hands[0]) == 1 and (s.money[0], s.vp[0]) == (3, 3)


def test_tied_players_share_the_win(game: ClanFeudGame) -> None:
    s = position(
        game,
        [Task("phase3")],
        events=(1, 2, 3, 4, 5, 6, 7, 0),
        control={"moray": 0, "banff": 1},
        money=(0, 0),
    )
    assert s.is_terminal and s.vp == (1, 1)
    assert s.winners() == (0, 1) and s.returns() == (0.5, 0.5)


def test_recruits_taking_the_first_claim_of_the_king_keep_his_gold_die(
    game: ClanFeudGame,
) -> None:
    """The first claim of the game puts the gold die in the claimer's Feud column, whose
    benefit is a task of its own: recruits taking a lone King finish their recruit and
    leave that task to be done (the recruit's end took the gold die's task off the stack
    instead, and the recruit stayed, on a board whose King can stand where a clan
    recruits)."""
    moray = tid(game, "moray")
    s = _recruit_beside_the_king(game, gold_out=False)
    assert s.troops_at(0, moray) == (1, 0, 0) and s.regent == 0 and s.gold_out
    assert s.filled[0] != 0  # the gold die is in a Feud slot ...
    assert s.feud == (1, 0)  # ... and its benefit, level I's feud token, is taken
    assert [t.kind for t in s.tasks] == ["order"]  # the recruit is over
