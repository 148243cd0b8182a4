"""Helpers for the Kilt Castle tests: set up a table exactly as a test needs it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

import clangames
import clangames.kilt_castle
from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.engine.state import State
from clangames.kilt_castle import KiltCastleGame, KiltCastleState
from clangames.kilt_castle.board import floor_letter, letter_floor

RED, ORANGE, LIGHT, DARK = 0, 1, 2, 3
COLOUR = {"red": RED, "orange": ORANGE, "light grey": LIGHT, "dark grey": DARK}


def floor(colour: int, crests: int = 0) -> int:
    """A floor code: colour * 3 + crests."""
    return colour * 3 + crests


def load(players: int = 4, **params: object) -> KiltCastleGame:
    """The game, typed."""
    game = clangames.load("kilt_castle", players=players, **params)
    assert isinstance(game, KiltCastleGame)
    return game


def laid_out(game: KiltCastleGame, seed: int = 0) -> KiltCastleState:
    """The first decision state after a random lay-out."""
    state = clangames.resolve_chance(game.initial_state(), clangames.Rng(seed))
    assert isinstance(state, KiltCastleState)
    return state


def table(
    players: int = 4,
    rows: Mapping[int, Sequence[str]] | None = None,
    inner: Mapping[str, str] | None = None,
    towers: Mapping[tuple[int, int], Sequence[int]] | None = None,
    roofs: Sequence[tuple[int, int]] = (),
    money: Sequence[int] | None = None,
    actor: int = 0,
    game: KiltCastleGame | None = None,
    **params: object,
) -> KiltCastleState:
    """A state at the start of ``actor``'s turn with cards, towers, roofs and money as given.

    ``rows`` maps a card position to card names (``"red"``, ``"red/orange"``); cards not
    named stay where a fixed lay-out put them. ``inner`` maps a double card's name to the
    colour facing the board. The floor supply and the bank's total follow from the rest.
    """
    game = game or load(players, **params)
    base = laid_out(game)
    board = game.board
    positions = list(base.positions)
    inner_colours = list(base.inner)
    if rows is not None:
        placed = set()
        for position, names in rows.items():
            for name in names:
                slot = game.card_names.index(name)
                positions[slot] = position
                placed.add(slot)
        if len(placed) != len(game.cards):
            missing = [game.card_names[i] for i in range(len(game.cards)) if i not in placed]
            raise ValueError(f"rows must place every card; missing {missing}")
    for name, colour in (inner or {}).items():
        inner_colours[game.card_names.index(name)] = COLOUR[colour]
    grid: list[str] = [""] * (board.rows * board.cols)
    for (r, c), floors in (towers or {}).items():
        grid[board.space(r, c)] = "".join(floor_letter(f) for f in floors)
    supply = list(base.supply.counts)
    for tower in grid:
        for letter in tower:
            supply[letter_floor(letter)] -= 1
    roofed = 0
    for r, c in roofs:
        roofed |= 1 << board.space(r, c)
    cash = tuple(money) if money is not None else base.money
    state = attrs.evolve(
        base,
        phase=Phase.turn("relocate", actor),
        positions=tuple(positions),
        inner=tuple(inner_colours),
        towers=tuple(grid),
        roofed=roofed,
        supply=Multiset(tuple(supply)),
        money=cash,
        from_bank=sum(cash) - board.start_money * game.num_players,
        actor=actor,
        turns=1,
    )
    return state


def move(state: KiltCastleState, card: str, to: int) -> KiltCastleState:
    """Apply the relocation of the named card to position ``to``."""
    game = state.game
    action = clangames.kilt_castle.Relocate(game.cards[game.card_names.index(card)], to)
    nxt = state.apply(action)
    assert isinstance(nxt, KiltCastleState)
    return nxt


def reloc(state: KiltCastleState, card: str, to: int) -> clangames.kilt_castle.Relocate:
    """The Relocate action for the named card."""
    game = state.game
    return clangames.kilt_castle.Relocate(game.cards[game.card_names.index(card)], to)


FOUR_ROWS = {
    0: ["red", "orange", "light grey", "dark grey"],
    1: ["red/orange", "light grey/dark grey", "orange/light grey"],
    2: ["red/light grey", "orange/dark grey"],
    3: ["red/dark grey"],
}
"""A start-like lay-out for 2 and 4 players (each colour at most twice per row)."""

THREE_ROWS = {
    0: ["red", "orange", "light grey"],
    1: ["red/orange", "orange/light grey"],
    2: ["red/light grey"],
}
"""A start-like lay-out for 3 players."""


def invariant(state: State) -> None:
    """Floors conserved per colour, ducats conserved between players and the bank and never
    negative, card rows within their limits, roofs only on towers."""
    assert isinstance(state, KiltCastleState)
    game = state.game
    board = game.board
    on_board = [0] * (3 * len(board.colours))
    for tower in state.towers:
        for letter in tower:
            on_board[letter_floor(letter)] += 1
    for colour in range(len(board.colours)):
        total = sum(
            state.supply.counts[colour * 3 + k] + on_board[colour * 3 + k] for k in range(3)
        )
        expected = board.floors_per_colour if colour in game.colours else 0
        assert total == expected, f"colour {colour}: {total} floors, expected {expected}"
    assert min(state.money) >= 0, f"negative ducats: {state.money}"
    assert sum(state.money) == board.start_money * game.num_players + state.from_bank
    assert state.roofed.bit_count() <= board.roofs
    assert all(state.towers[s] for s in board.spaces if state.roofed >> s & 1)
    if not state.is_chance:
        sizes = [state.positions.count(p) for p in range(board.num_positions)]
        assert max(sizes) <= game.max_row and sum(1 for x in sizes if x) <= game.max_rows
    if state.is_terminal:
        assert state.ending or state.idle >= game.stall_turns
