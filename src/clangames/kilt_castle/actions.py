"""Kilt Castle actions: small frozen values with a valid-Python ``repr``.

Cards and colours are indices into the board's lists (``board.cards``, ``board.colours``);
spaces are (row, col) with row 0 at the north edge; card positions are numbered clockwise.
"""

from __future__ import annotations

import attrs

from clangames.engine.actions import ActionTable
from clangames.kilt_castle.board import Board

CREST_WORDS = ("plain", "1-crest", "2-crest")


@attrs.frozen(slots=True, cache_hash=True)
class Lay:
    """Chance, start lay-out: the next double-colour card dealt is ``card``, laid with
    colour ``inner`` towards the board."""

    card: int
    inner: int


@attrs.frozen(slots=True, cache_hash=True)
class Relocate:
    """Move building card ``card`` clockwise to card position ``to``."""

    card: int
    to: int


@attrs.frozen(slots=True, cache_hash=True)
class Build:
    """Put a floor with ``crests`` crests (0, 1 or 2) on space (row, col): the first empty
    space of the line for free, or on top of a tower there (overbuilding, paid)."""

    row: int
    col: int
    crests: int


@attrs.frozen(slots=True, cache_hash=True)
class MoveRoof:
    """Both roofs are placed: take the roof off the tower at (row, col) and put it on the
    tower just built twice."""

    row: int
    col: int


KiltCastleAction = Lay | Relocate | Build | MoveRoof


def card_name(board: Board, card: int) -> str:
    """``"red"`` for a single card, ``"red/orange"`` for a double card."""
    return "/".join(board.colours[c] for c in board.cards[card])


def build_action_table(board: Board, cards: tuple[int, ...]) -> ActionTable[KiltCastleAction]:
    """Every distinct action of a game with the cards ``cards`` in play, in id order:
    lay-outs (by card, then colour), relocations (by card, then target position), builds
    (by space, then crests), roof moves (by space). Legal actions come out sorted by id
    when generated in these orders."""
    actions: list[KiltCastleAction] = []
    for card in cards:
        if len(board.cards[card]) == 2:
            actions += [Lay(card, colour) for colour in sorted(board.cards[card])]
    actions += [Relocate(card, to) for card in cards for to in range(board.num_positions)]
    for space in board.spaces:
        row, col = divmod(space, board.cols)
        actions += [Build(row, col, k) for k in range(3)]
    actions += [MoveRoof(*divmod(space, board.cols)) for space in board.spaces]

    def text(a: KiltCastleAction) -> str:
        if isinstance(a, Lay):
            return f"lay {card_name(board, a.card)} with {board.colours[a.inner]} inside"
        if isinstance(a, Relocate):
            return f"move {card_name(board, a.card)} to {a.to}"
        if isinstance(a, Build):
            return f"build {CREST_WORDS[a.crests]} at {a.row}.{a.col}"
        return f"move roof from {a.row}.{a.col}"

    return ActionTable(actions, text)
