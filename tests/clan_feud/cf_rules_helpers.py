"""Helpers for the Clan Feud rules tests: hand-made positions, written readably.

:func:`position` starts from the bundled game's empty table and sets only what a test
names: troops by (seat, territory id), controllers, buildings, money, dice, hands, and the
tasks on top of the stack. Beneath them lies a sentinel decision (seat 0 setting the turn
order), so a test sees the flow stop there once its tasks are done.
"""

from __future__ import annotations

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
        state = state.apply_text(text)
    return state


def legal_texts(state: ClanFeudState, player: int | None = None) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions(player)]


def done(state: ClanFeudState) -> bool:
    """True once the tested tasks are done (the sentinel decision is on top)."""
    return state.tasks[-1] == SENTINEL


SUPPLY = (10, 4, 2)


def invariant(state: Any) -> None:
    """The game's own invariants (asserts, for the conformance harness and the state
    machine): troops within supply, at most 2 buildings and one castle-or-city a
    territory, the action cards conserved, no territory with two clans' armies outside a
    battle, the King with his regent's army or alone, money and feud tokens never
    negative."""
    game = state.game
    n = game.num_players
    size = game.board.size
    b = state.battle
    for p in range(n):
        assert state.money[p] >= 0 and state.feud[p] >= 0, "money or feud below 0"
        for k in range(3):
            total = sum(state.troops[p][k::3])
            if b is not None and b.owners[0] == p:
                total += b.attackers[k]
            assert total <= SUPPLY[k], f"seat {p} has {total} troops of type {k}"
    for t in range(size):
        assert (state.site[t] > 0) + state.towers[t] <= 2, f"territory {t}: 3 buildings"
        holders = [p for p in range(n) if any(state.troops[p][3 * t : 3 * t + 3])]
        assert len(holders) <= 1, f"territory {t} holds the armies of {holders}"
    for d, design in enumerate(game.deck.designs):
        held = state.deck[d] + state.discards[d] + sum(h[d] for h in state.hands)
        assert held == design.copies, f"design {design.id}: {held} cards"
    if state.regent >= 0:
        with_attackers = b is not None and b.king == 0 and b.owners[0] == state.regent
        here = any(state.troops[state.regent][3 * state.king : 3 * state.king + 3])
        assert here or with_attackers, "the regent's King stands without his army"
