"""Issue 11's fourth Clan Feud speed round (cffast): each shortcut gives what the plain
reading it replaced gives, on every state of seeded random games.

The plain readings are kept here as oracles, as they stood before the round: a card's free
tower house judged on a read-only copy of the board with the house in place (``_shim``),
a move boost's reach searched with the occupant test at every step, and the card-effect
test as one chain of ``if`` branches. Every design is asked about in every position (not
only the cards a hand holds), so positions the random games pass through test designs
they never drew."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import clangames
from clangames.clan_feud import playing, rules, war
from clangames.clan_feud.effects import Expr, If, May, Or, Primitive, Repeat, Seq
from clangames.clan_feud.interpret import amount, available, holds
from clangames.clan_feud.military import SPEED
from clangames.clan_feud.state import ClanFeudState
from clangames.engine.rng import Rng


def states(players: int, games: int = 3, seed: int = 70) -> list[ClanFeudState]:
    """Every state of ``games`` seeded random games."""
    game = clangames.load("clan_feud", players=players)
    out: list[ClanFeudState] = []
    for k in range(games):
        state = game.initial_state()
        _, _, moves = clangames.rollout_moves(state, Rng(seed + k), first_mover=True)
        out.append(state)
        for player, action in moves:
            state = state.apply(action, player)
            assert isinstance(state, ClanFeudState)
            out.append(state)
    return out


# -- the plain readings (the code before the round) -------------------------------------


def _with(seq: Any, i: int, delta: int) -> list[int]:
    out = list(seq)
    out[i] += delta
    return out


def _shim(w: Any, **changed: Any) -> Any:
    fields = {
        "covered": w.covered,
        "money": w.money,
        "site": w.site,
        "towers": w.towers,
        "controller": w.controller,
    }
    fields.update(changed)
    return SimpleNamespace(**fields)


def plain_build_ok_placing(w: Any, p: int, level: int, before: int) -> bool:
    money = _with(w.money, p, before)
    for column in playing._th1_left(w, p):
        covered = _with(w.covered, p, -(1 << (5 * column + 1)))
        for t in playing._th1_places(w, p):
            view = _shim(w, money=money, covered=covered, towers=_with(w.towers, t, 1))
            if rules._build_possible(view, p, level):
                return True
    return False


def plain_reach(w: Any, p: int, start: int, speed: int, free: bool) -> set[int]:
    board = w.game.board
    mountains = 0 if free else board.mountain_mask
    seen = {start}
    frontier = [start]
    for step in range(speed):
        after = []
        for pos in frontier:
            for n in board.neighbours[pos]:
                if n in seen or (step and mountains >> n & 1):
                    continue
                seen.add(n)
                battle = rules.working(w).occupant(n, p) >= 0 or war.holds(w, n)
                if not battle and not (mountains >> n & 1 or mountains >> pos & 1):
                    after.append(n)
        frontier = after
    return seen


def plain_speed_helps(w: Any, p: int, bonus: int, free: bool, cavalry_only: bool) -> bool:
    row = w.troops[p]
    for t in range(len(row) // 3):
        speeds = {SPEED[k] for k in ((1,) if cavalry_only else (0, 1, 2)) if row[3 * t + k]}
        for speed in speeds:
            if plain_reach(w, p, t, speed + bonus, free) != plain_reach(w, p, t, speed, False):
                return True
    return False


def plain_changes(w: Any, p: int, e: Expr) -> bool:
    if isinstance(e, Seq):
        return available(w, p, e) and any(plain_changes(w, p, i) for i in e.items)
    if isinstance(e, Or):
        return any(available(w, p, o) and plain_changes(w, p, o) for o in e.options)
    if isinstance(e, (May, Repeat)):
        return available(w, p, e.body) and plain_changes(w, p, e.body)
    if isinstance(e, If):
        return holds(w, p, e.condition) and plain_changes(w, p, e.body)
    assert isinstance(e, Primitive)
    name = e.name
    seats = range(len(w.money))
    arg: Any = e.args[0] if e.args else None
    if name in ("gain_money", "gain_feud", "gain_vp"):
        return amount(w, p, arg) != 0
    if name == "draw_cards":
        return amount(w, p, arg) > 0 and bool(any(w.deck) or any(w.discards))
    if name in ("pay_money", "pay_feud", "discard_cards", "remove_troops"):
        return available(w, p, e)
    if name == "steal":
        if arg == "money":
            return any(w.money[q] for q in seats if q != p)
        return any(any(w.hands[q]) for q in seats if q != p)
    if name == "modify_die":
        return bool(playing._modify_targets(w, p, e))
    if name == "reroll_dice":
        if e.args[1] == "self":
            return any(w.pool[p])
        return any(any(w.pool[q]) for q in seats if q != p)
    if name == "take_temp_die":
        return playing._temp_die_ok(w, p, str(arg))
    if name == "bonus_action":
        return rules.territories_yielding(w, p) > 0 if arg == "income" else True
    if name == "place_building":
        return bool(playing._th1_left(w, p)) and bool(playing._th1_places(w, p))
    if name == "recruit":
        left = playing._supply_left(w, p, playing.TYPE_OF[str(arg)]) > 0
        return left and any(w.site[t] or w.towers[t] for t in rules.owned(w, p))
    if name == "boost_move":
        if e.option("armies"):
            return True
        return plain_speed_helps(
            w,
            p,
            int(e.option("speed") or 0),
            bool(e.option("ignore_mountains")),
            e.option("only") == "cavalry",
        )
    if name == "reduce_upkeep":
        cut = w.upkeep_cut[p] if w.upkeep_cut else 0
        return amount(w, p, arg) > 0 and rules.upkeep_due(w, p) > cut
    if name == "england_track":
        return bool(w.game.england.clamp(w.england + int(arg)) != w.england)
    return True


# -- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5])
def test_a_free_tower_house_is_judged_as_the_board_with_it_in_place(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    placing = [d for d, info in enumerate(game.card_info) if info.places]
    assert placing
    answers = set()
    for state in states(players)[::2]:
        for p in range(players):
            for d in placing:
                info = game.card_info[d]
                before = playing._money_before_die(state, p, info)
                for level in (1, 2, 3):
                    fast = playing._build_ok_with(state, p, level, info)
                    assert fast is plain_build_ok_placing(state, p, level, before)
                    answers.add(fast)
    assert answers == {True, False}


@pytest.mark.parametrize("players", [2, 4])
def test_where_a_card_puts_its_tower_house_is_the_plain_readings_choice(players: int) -> None:
    """``_th1_territories`` with a Build die pending: the territories after whose house a
    paid Build stays possible, worked out on the board without a copy."""
    compared = 0
    for state in states(players)[::3]:
        for p in range(players):
            for column in playing._th1_left(state, p):
                for level, discount in ((1, 0), (2, 3), (3, 6)):
                    mods = [0] * playing.MOD_FIELDS
                    mods[playing.MOD_PLAYER], mods[playing.MOD_COLUMN] = p, rules.BUILD
                    mods[playing.MOD_LEVEL], mods[playing.MOD_DISCOUNT] = level, discount
                    view = SimpleNamespace(
                        **{f: getattr(state, f) for f in ("covered", "money", "site", "towers")},
                        controller=state.controller,
                        mods=tuple(mods),
                    )
                    money = _with(state.money, p, discount)
                    covered = _with(state.covered, p, -(1 << (5 * column + 1)))
                    plain = [
                        t
                        for t in playing._th1_places(state, p)
                        if rules._build_possible(
                            _shim(
                                state,
                                money=money,
                                covered=covered,
                                towers=_with(state.towers, t, 1),
                            ),
                            p,
                            level,
                        )
                    ]
                    assert playing._th1_territories(view, p, column) == plain
                    compared += 1
    assert compared > 50


@pytest.mark.parametrize("players", [2, 5])
def test_a_move_boost_helps_where_the_plain_search_says(players: int) -> None:
    answers = set()
    for state in states(players)[::4]:
        for p in range(players):
            for bonus in (1, 2):
                for free in (False, True):
                    for cavalry_only in (False, True):
                        fast = playing._speed_helps(state, p, bonus, free, cavalry_only)
                        assert fast is plain_speed_helps(state, p, bonus, free, cavalry_only)
                        answers.add(fast)
    assert answers == {True, False}


@pytest.mark.parametrize("players", [3, 5])
def test_every_card_changes_the_game_where_the_plain_chain_says(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    nodes = [game.nodes[info.node] for info in game.card_info]
    counts = [0, 0]
    for state in states(players, games=2)[::3]:
        for p in range(players):
            for e in nodes:
                fast = playing.changes(state, p, e)
                assert fast is plain_changes(state, p, e)
                counts[fast] += 1
    assert min(counts) > 0


@pytest.mark.parametrize("players", [2, 5])
def test_a_military_die_is_ready_as_the_working_copy_says(players: int) -> None:
    for state in states(players, games=2)[::3]:
        w = rules.working(state)
        for p in range(players):
            plain = w.has_troops(p) or (w.money[p] >= rules.COST[0] and rules.has_building(w, p))
            assert rules.military_ready(w, p) is plain


@pytest.mark.parametrize("players", [3, 5])
def test_the_order_setter_from_the_recount_is_the_one_counted_again(players: int) -> None:
    """Phase 1 hands its fresh recount to ``push_order_setter``; counted again instead,
    the same seat is asked (or the same tie-break)."""
    k = len(rules.COLOURS)
    for state in states(players, games=2)[::7]:
        counts = [n for p in range(players) for n in rules.dice_owned(state, p)]
        sizes = [sum(counts[k * p : k * p + k]) for p in range(players)]
        given, counted = rules.working(state), rules.working(state)
        rules.push_order_setter(given, sizes)
        rules.push_order_setter(counted)
        assert given.tasks == counted.tasks


def plain_modify_targets(w: Any, p: int, e: Primitive, used: tuple[int, ...] = ()) -> list[int]:
    pool = w.pool[p]
    colour = e.option("colour")
    value = e.option("value")
    up = e.args[1] == "+1"
    out = []
    for i, n in enumerate(pool):
        c, v = divmod(i, 3)
        v += 1
        if n - used.count(i) <= 0:
            continue
        if colour is not None and playing.COLOUR_OF[str(colour)] != c:
            continue
        if value is not None and int(value) != v:
            continue
        if (up and v < playing.FACE_MAX[c]) or (not up and v == 1 and c != playing.BLACK):
            out.append(i)
    return out


@pytest.mark.parametrize("players", [2, 4])
def test_the_dice_a_card_may_modify_are_the_plain_scans(players: int) -> None:
    game = clangames.load("clan_feud", players=players)
    modifies = [e for e in game.nodes if isinstance(e, Primitive) and e.name == "modify_die"]
    assert modifies
    found = 0
    for state in states(players, games=2)[::3]:
        for p in range(players):
            held = [i for i, n in enumerate(state.pool[p]) if n]
            for e in modifies:
                for used in ((), tuple(held[:1]), tuple(held[:2]) * 2):
                    fast = playing._modify_targets(state, p, e, used)
                    assert fast == plain_modify_targets(state, p, e, used)
                    found += bool(fast)
    assert found


@pytest.mark.parametrize("players", [2, 5])
def test_a_seats_dice_total_is_the_sum_of_its_dice(players: int) -> None:
    for state in states(players, games=2)[::5]:
        for p in range(players):
            assert rules.dice_total(state, p) == sum(rules.dice_owned(state, p))
