"""Helpers for the Clan Feud rules tests: hand-made positions, written readably.

:func:`position` starts from the bundled game's empty table and sets only what a test
names: troops by (seat, territory id), controllers, buildings, money, dice, hands, and the
tasks on top of the stack. Beneath them lies a sentinel decision (seat 0 setting the turn
order), so a test sees the flow stop there once its tasks are done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

import clangames
from clangames.clan_feud.game import ClanFeudGame
from clangames.clan_feud.rules import W, initial_state, settle
from clangames.clan_feud.state import ClanFeudState, Task

SENTINEL = Task("order", 0)


def load(players: int = 2, **params: Any) -> ClanFeudGame:
    game = clangames.load("clan_feud", players=players, **params)
    assert isinstance(game, ClanFeudGame)
    return game


def tid(game: ClanFeudGame, name: str) -> int:
    return game.board.territory(name)


def position(
    game: ClanFeudGame,
    tasks: list[Task],
    *,
    troops: dict[tuple[int, str], tuple[int, int, int]] | None = None,
    control: dict[str, int] | None = None,
    towers: dict[str, int] | None = None,
    castles: tuple[str, ...] = (),
    money: tuple[int, ...] | None = None,
    feud: tuple[int, ...] | None = None,
    pool: dict[int, dict[tuple[int, int], int]] | None = None,
    hands: dict[int, dict[str, int]] | None = None,
    uncovered: dict[int, tuple[tuple[int, int], ...]] | None = None,
    filled: dict[int, tuple[tuple[int, int], ...]] | None = None,
    **fields: Any,
) -> ClanFeudState:
    """A settled state with the named facts and ``tasks`` on top of the sentinel."""
    base = initial_state(game)
    n = game.num_players
    size = game.board.size
    rows = [[0] * (3 * size) for _ in range(n)]
    for (p, name), army in (troops or {}).items():
        t = tid(game, name)
        rows[p][3 * t : 3 * t + 3] = list(army)
    controller = list(base.controller)
    for name, p in (control or {}).items():
        controller[tid(game, name)] = p
    tower_row = list(base.towers)
    for name, k in (towers or {}).items():
        tower_row[tid(game, name)] = k
    site = list(base.site)
    for name in castles:
        site[tid(game, name)] = 2
    pools = [[0] * 21 for _ in range(n)]
    for p, dice in (pool or {}).items():
        for (colour, value), k in dice.items():
            pools[p][3 * colour + value - 1] = k
    designs = [d.id for d in game.deck.designs]
    hand_rows = [[0] * len(designs) for _ in range(n)]
    deck = list(base.deck)
    for p, cards in (hands or {}).items():
        for ident, k in cards.items():
            d = designs.index(ident)
            hand_rows[p][d] += k
            deck[d] -= k
    covered = list(base.covered)
    for p, slots in (uncovered or {}).items():
        for column, slot in slots:
            covered[p] &= ~(1 << (5 * column + slot))
    filled_row = [0] * n
    for p, slots in (filled or {}).items():
        for column, slot in slots:
            filled_row[p] |= 1 << (5 * column + slot)
    state = attrs.evolve(
        base,
        turn=fields.pop("turn", 2),
        troops=tuple(tuple(r) for r in rows),
        controller=tuple(controller),
        towers=tuple(tower_row),
        site=tuple(site),
        money=money if money is not None else (10,) * n,
        feud=feud if feud is not None else (0,) * n,
        pool=tuple(tuple(r) for r in pools),
        hands=tuple(tuple(r) for r in hand_rows),
        deck=fields.pop("deck", tuple(deck)),
        covered=tuple(covered),
        filled=tuple(filled_row),
        tasks=(SENTINEL, *tasks),
        options=None,
        **fields,
    )
    return settle(W(state))


def play(state: ClanFeudState, *texts: str) -> ClanFeudState:
    """Apply actions by their text, each by the one player to move (or chance)."""
    for text in texts:
        after = state.apply_text(text)
        assert isinstance(after, ClanFeudState)  # a test's own check, not a rule
        state = after
    return state


def legal_texts(state: ClanFeudState, player: int | None = None) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions(player)]


def done(state: ClanFeudState) -> bool:
    """True once the tested tasks are done (the sentinel decision is on top)."""
    return state.tasks[-1] == SENTINEL


SUPPLY = (10, 4, 2)
"""Each clan's infantry, cavalry and artillery (the rulings' *Set-up*)."""


def troop_totals(state: Any, p: int) -> tuple[int, int, int]:
    """Seat ``p``'s troops of each type on the board and in a battle's attacking army."""
    row = state.troops[p]
    totals = [sum(row[0::3]), sum(row[1::3]), sum(row[2::3])]
    b = state.battle
    if b is not None and b.owners[0] == p:
        for k in range(3):
            totals[k] += b.attackers[k]
    return (totals[0], totals[1], totals[2])


def invariant(state: Any) -> None:
    """The game's own invariants on one state (asserts, for the conformance harness and
    the state machine, which adds the checks that need the previous state):

    - £ and feud tokens never negative; every count (troops, cards, dice) never negative;
    - each clan within supply per troop type, counting an attacking army;
    - a territory holds a castle-or-city (one site, of a known kind) and at most 2
      buildings in all;
    - the action cards conserved: per design, draw pile + discards + hands = its copies
      (50 in the bundled deck), and a sealed battle card is one its seat holds, sealed
      tokens ones it has;
    - no territory holds two clans' armies (an attacker waits in the battle, not on the
      board, so this holds during battles too), and an army at rest stands on its own
      clan's land (coming to rest claims; only another army at rest takes it away);
    - the King: a regent's King stands with the regent's army, or fights beside it in a
      battle in his territory; a King without a regent stands where no clan army rests
      (an army passing through in the middle of its move takes him not), and once he
      has had a regent the gold die is out."""
    game = state.game
    n = game.num_players
    size = game.board.size
    b = state.battle
    for p in range(n):
        assert state.money[p] >= 0 and state.feud[p] >= 0, f"seat {p}: £ or feud below 0"
        assert min(state.troops[p]) >= 0, f"seat {p}: a negative troop count"
        assert min(state.pool[p]) >= 0, f"seat {p}: a negative dice count"
        totals = troop_totals(state, p)
        for k in range(3):
            assert totals[k] <= SUPPLY[k], f"seat {p} has {totals[k]} troops of type {k}"
    if b is not None:
        assert min(b.attackers) >= 0, "a negative attacking troop count"
    for t in range(size):
        assert state.site[t] in (0, 1, 2), f"territory {t}: site {state.site[t]}"
        assert state.towers[t] >= 0, f"territory {t}: negative tower houses"
        assert (state.site[t] > 0) + state.towers[t] <= 2, f"territory {t}: 3 buildings"
    holder = [-1] * size
    for p in range(n):
        row = state.troops[p]
        for t in range(size):
            if row[3 * t] or row[3 * t + 1] or row[3 * t + 2]:
                assert holder[t] < 0, f"territory {t} holds the armies of {holder[t]} and {p}"
                holder[t] = p
    top = state.tasks[-1] if state.tasks else None
    moving = top.a if top is not None and top.kind == "step" else -1
    for t in range(size):
        if holder[t] >= 0 and t != moving:
            assert state.controller[t] == holder[t], (
                f"seat {holder[t]}'s army rests in territory {t}, controlled by "
                f"{state.controller[t]}"
            )
    designs = game.deck.designs
    for d, design in enumerate(designs):
        counts = [state.deck[d], state.discards[d], *(h[d] for h in state.hands)]
        assert min(counts) >= 0, f"design {design.id}: a negative count {counts}"
        assert sum(counts) == design.copies, f"design {design.id}: {sum(counts)} cards"
    if b is not None and any(task.kind == "breveal" for task in state.tasks):
        # sealed, not yet revealed (the reveal takes the card and tokens; the round's
        # commitments stay on record until the next round opens)
        for side, p in enumerate(b.owners):
            if p < 0:
                continue
            if b.cards.has_committed(side):
                card = game.action_from_id(b.cards.ids[side])
                design = getattr(card, "design", None)
                assert design is None or state.hands[p][design] > 0, (
                    f"seat {p} sealed card design {design} it does not hold"
                )
            if b.tokens.has_committed(side):
                k = game.action_from_id(b.tokens.ids[side]).k
                assert k <= state.feud[p], f"seat {p} sealed {k} of {state.feud[p]} tokens"
    king, regent = state.king, state.regent
    if regent >= 0:
        assert state.gold_out, "a regent, yet the gold die never came out"
        if b is not None and b.territory == king and b.king >= 0:
            assert b.owners[b.king] == regent, "the King fights beside a clan not his regent's"
        else:
            assert holder[king] == regent, "the regent's King stands without his army"
    elif holder[king] >= 0:
        passing = (
            top is not None and top.kind == "step" and top.a == king and top.player == holder[king]
        )
        assert passing, f"seat {holder[king]}'s army rests with the King and did not take him"


def at_war_invariant() -> tuple[Callable[[Any], None], dict[str, int]]:
    """:func:`invariant` plus England's (troops within its supply, no English army while
    the track is at 10 or less, at most one a territory, none on a clan army's ground),
    counting in the returned dictionary the states with English armies and with battles
    England fights, so that a test can tell war was reached."""
    seen = {"english": 0, "english battles": 0}

    def check(state: Any) -> None:
        invariant(state)
        track = state.game.england
        b = state.battle
        england_fights = b is not None and -1 in b.owners
        totals = [sum(a.troops[k] for a in state.english) for k in range(3)]
        if b is not None and b.owners[0] == -1:
            totals = [totals[k] + b.attackers[k] for k in range(3)]
        assert all(totals[k] <= track.supply[k] for k in range(3)), f"England has {totals}"
        if not track.at_war(state.england):
            assert not state.english and not england_fights, "English armies in peace"
        places = [a.territory for a in state.english]
        assert len(places) == len(set(places)), f"English armies share a territory {places}"
        # a recruit into an English army's territory gathers its troops there, then attacks
        recruiting = {(task.player, task.b) for task in state.tasks if task.kind == "recruit"}
        for a in state.english:
            t = a.territory
            assert not any(
                any(row[3 * t : 3 * t + 3]) and (p, t) not in recruiting
                for p, row in enumerate(state.troops)
            ), f"a clan army rests with England in territory {t}"
        seen["english"] += bool(state.english)
        seen["english battles"] += england_fights

    return check, seen


def at_assign(
    game: Any, hand: dict[str, int], dice: dict[tuple[int, int], int], **kw: Any
) -> ClanFeudState:
    """Seat 0's assignment turn, holding ``hand``, with unassigned ``dice``."""
    kw.setdefault("control", {"moray": 0})
    return position(game, [Task("assign", 0)], hands={0: hand}, pool={0: dice}, **kw)


def after_roll(game: Any, hand: dict[str, int], **kw: Any) -> ClanFeudState:
    """Seat 0 (first in the order) holds ``hand`` in the P1.after_roll window (white dice:
    seat 0 two 1s and a 2, seat 1 three 3s, unless ``pool`` says otherwise)."""
    kw.setdefault("pool", {0: {(0, 1): 2, (0, 2): 1}, 1: {(0, 3): 3}})
    return position(game, [Task("p1cards", -1, 0, 0)], hands={0: hand}, order=(0, 1), **kw)


def upkeep(game: Any, hand: dict[str, int], **kw: Any) -> ClanFeudState:
    """Seat 0 holds ``hand`` in the P3.upkeep window, before its upkeep."""
    return position(game, [Task("upkeep", 0), Task("p3cards", 0)], hands={0: hand}, **kw)
