"""Issue 12's fourth speed pass (cfspeed4): each shortcut gives what the plain reading gives.

Memos by identity (a clan's territories per controller tuple, troop totals and occupied
territories per row tuple), the draft-built tasks and battles, single writes that replace a
field's tuple, the card offers worked out from the die's own options, and the plays known
to change something in every position, all compared with their definitions on the states
of seeded random games."""

from __future__ import annotations

import attrs
import pytest

import clangames
from clangames.clan_feud import board, playing, rules
from clangames.clan_feud.actions import Assign, PlayAction
from clangames.clan_feud.board import occupied_by, owned_by, plus, put, troop_totals
from clangames.clan_feud.state import Battle, ClanFeudState, Task, battle_with, new_task
from clangames.engine.rng import Rng
from clangames.engine.simultaneous import Commitments


def states(players: int, games: int = 3, seed: int = 40) -> list[ClanFeudState]:
    """Every state of ``games`` seeded random games (the last, terminal one included)."""
    game = clangames.load("clan_feud", players=players)
    out: list[ClanFeudState] = []
    for k in range(games):
        state = game.initial_state()
        # The stream of a loop that draws each step for ``to_move[0]``: the states it visits.
        _, _, moves = clangames.rollout_moves(state, Rng(seed + k), first_mover=True)
        visited = [state]
        for player, action in moves:
            state = state.apply(action, player)
            visited.append(state)
        for state in visited:
            assert isinstance(state, ClanFeudState)
            out.append(state)
    return out


def test_put_and_plus_make_new_tuples_and_leave_the_old_alone() -> None:
    old = (4, 5, 6)
    assert put(old, 1, 9) == (4, 9, 6)
    assert plus(old, 2, -6) == (4, 5, 0)
    assert plus([1, 2], 0, 3) == (4, 2)  # a draft's list in, a tuple out
    assert old == (4, 5, 6)
    rows = ((0, 0), (1, 1))
    assert put(rows, 1, plus(rows[1], 0, 1)) == ((0, 0), (2, 1))
    assert put(rows, 1, rows[1])[0] is rows[0]  # rows nobody wrote stay shared


def test_new_task_is_the_frozen_task_of_those_fields() -> None:
    made = new_task("roll", -1, 1, 2, 3, (0, 2, 1))
    assert type(made) is Task
    assert made == Task("roll", -1, 1, 2, 3, (0, 2, 1))
    assert hash(made) == hash(Task("roll", -1, 1, 2, 3, (0, 2, 1)))
    assert new_task("turn") == Task("turn")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.a = 5  # type: ignore[misc]


def test_battle_with_is_attrs_evolve() -> None:
    b = Battle(3, (0, 1), 2, (2, 1, 0), -1, Commitments.open(2), Commitments.open(2))
    changed = battle_with(b, hits=(1, 2), rounds=4)
    assert type(changed) is Battle
    assert changed == attrs.evolve(b, hits=(1, 2), rounds=4)
    assert b.hits == (0, 0) and b.rounds == 0  # the old battle is untouched
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        changed.rounds = 1  # type: ignore[misc]


@pytest.mark.parametrize("players", [2, 5])
def test_memos_by_identity_agree_with_the_board(players: int) -> None:
    seen = 0
    for state in states(players)[::5]:
        for p in range(players):
            row = state.troops[p]
            plain_totals = (sum(row[0::3]), sum(row[1::3]), sum(row[2::3]))
            plain_occupied = tuple(
                t for t in range(len(state.controller)) if any(row[3 * t : 3 * t + 3])
            )
            plain_owned = tuple(t for t, c in enumerate(state.controller) if c == p)
            for _ in range(2):  # the second answer comes from the memo
                assert troop_totals(row) == plain_totals
                assert occupied_by(row) == plain_occupied
                assert owned_by(state.controller, p) == plain_owned
            # a draft's list (being written) is worked out each time, never remembered
            as_list = list(row)
            as_list[0] += 1
            assert troop_totals(as_list) == (plain_totals[0] + 1, *plain_totals[1:])
            assert id(as_list) not in board._TOTALS
            seen += 1
    assert seen > 50


def test_a_full_memo_starts_again() -> None:
    board._TOTALS.clear()
    rows = [tuple([k] * 6) for k in range(board.MEMO_LIMIT + 5)]
    for row in rows:
        assert troop_totals(row) == (2 * row[0],) * 3
    assert len(board._TOTALS) <= board.MEMO_LIMIT
    assert troop_totals(rows[0]) == (0, 0, 0)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_card_offers_from_the_dice_options_equal_the_full_check(players: int) -> None:
    """``plays_with_dice`` (cards whose die needs nothing from them tested against the
    die's own options) offers exactly what ``plays`` (every card's assignments worked out)
    offers, at every assignment turn of a player holding a phase-(2) card."""
    compared = offered = 0
    for seed in range(4):
        for state in states(players, games=2, seed=300 + 10 * seed):
            if state.is_terminal or state.is_chance or not state.tasks:
                continue
            task = state.tasks[-1]
            if task.kind != "assign" or task.a:
                continue
            w = rules.working(state)
            p = task.player
            if not playing.held_of(state.game.window_designs["P2.assign"])(state.hands[p]):
                continue
            dice = [a for a in state.options or () if isinstance(a, Assign)]
            fast = playing.plays_with_dice(w, p, dice)
            assert fast == playing.plays(w, p, "P2.assign")
            assert [a for a in state.options or () if isinstance(a, PlayAction)] == fast
            compared += 1
            offered += bool(fast)
    assert compared > 30 and 0 < offered < compared


@pytest.mark.parametrize("players", [2, 4])
def test_plays_that_always_change_something_do_in_every_position(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    flagged = [d for d in range(len(game.deck.designs)) if game.always_changes[d]]
    unflagged = [d for d in range(len(game.deck.designs)) if not game.always_changes[d]]
    assert flagged and unflagged
    for state in states(players)[::3]:
        w = rules.working(state)
        for p in range(players):
            for d in flagged:
                assert playing.changes(w, p, game.nodes[game.card_info[d].node])


def test_always_changes_reads_only_the_syntax() -> None:
    game = clangames.load("clan_feud", players=3)
    by_id = {card.id: game.always_changes[d] for d, card in enumerate(game.deck.designs)}
    assert by_id["AC08"]  # gain_feud(2)
    assert by_id["AC16"]  # [draw_cards(1); gain_vp(1)]: the VP always change
    assert not by_id["AC11"]  # gain_money(2*cities): none without cities
    assert not by_id["AC09"]  # a steal needs a victim with money
    assert not by_id["AC24"]  # a cavalry-only boost needs cavalry


def test_plus_troops_passes_on_what_the_memos_know() -> None:
    row = tuple([0] * 3 * 6)
    row = put(row, 3 * 2 + 1, 1)  # one cavalry in territory 2
    row = put(row, 3 * 4, 3)  # three infantry in territory 4
    assert troop_totals(row) == (3, 1, 0) and occupied_by(row) == (2, 4)  # remembered
    emptied = board.plus_troops(row, 3 * 2 + 1, -1)
    assert emptied == put(row, 3 * 2 + 1, 0)
    assert board._TOTALS[id(emptied)][1] == (3, 0, 0)  # passed on, not summed again
    assert troop_totals(emptied) == (3, 0, 0) and occupied_by(emptied) == (4,)
    filled = board.plus_troops(emptied, 3 * 0 + 2, 2)
    assert troop_totals(filled) == (3, 0, 2) and occupied_by(filled) == (0, 4)
    same = board.plus_troops(filled, 3 * 4 + 1, 1)
    assert troop_totals(same) == (3, 1, 2) and occupied_by(same) == (0, 4)
    for made in (emptied, filled, same):  # each as the plain reading finds it
        assert occupied_by(made) == tuple(t for t in range(6) if any(made[3 * t : 3 * t + 3]))
        assert troop_totals(made) == (sum(made[0::3]), sum(made[1::3]), sum(made[2::3]))
