"""Setting up: the start lay-out of the building cards.

The single-colour cards lie face up in the card row at ``layout.single_position``. The
double-colour cards are shuffled and laid out one by one into the next card rows clockwise
(3, 2 and 1 cards with four colours in play; 2 and 1 with three), each with a random side
towards the board. A lay-out in which a card row shows a colour more than twice is dealt
again.

Each card laid is a chance node (``Lay(card, inner)``). Dealing again until the lay-out is
valid (rejection sampling) makes every valid sequence of cards equally likely, and the
sides are independent fair coin flips; so the next card is ``c`` with probability
proportional to the number of valid ways to finish the lay-out after it. The weights below
are exactly those counts: the same distribution as shuffling and re-dealing, without ever
dealing an invalid lay-out.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame
    from clangames.kilt_castle.state import KiltCastleState

LAYOUT = Phase.chance("layout")

LAYOUT_MEMO_LIMIT = 1 << 14
"""Partial lay-outs whose chance weights a game keeps before it forgets them all (the
bundled board has 1,237; a user's board with many double cards could have millions)."""


class LayoutCounter:
    """Counts the valid ways to finish a start lay-out (memoised; tiny state space)."""

    def __init__(self, game: KiltCastleGame) -> None:
        self.colours = tuple(game.board.cards[game.cards[i]] for i in game.doubles)
        self.slots = game.layout_slots
        self.limit = game.board.max_same_colour
        self.width = len(game.board.colours)
        self.count = functools.cache(self._count)

    def add(self, counts: tuple[int, ...], d: int) -> tuple[int, ...] | None:
        """Row colour counts with double card ``d`` (index into ``game.doubles``) added;
        None if a colour would show more often than allowed."""
        out = list(counts)
        for c in self.colours[d]:
            out[c] += 1
            if out[c] > self.limit:
                return None
        return tuple(out)

    def _count(self, remaining: int, k: int, counts: tuple[int, ...]) -> int:
        """Valid ways to lay the doubles in bitmask ``remaining`` into slots k.., given the
        colour counts of the row that slot k-1 filled."""
        if k == len(self.slots):
            return 1
        if k == 0 or self.slots[k] != self.slots[k - 1]:
            counts = (0,) * self.width
        total = 0
        for d in range(len(self.colours)):
            if remaining >> d & 1:
                new = self.add(counts, d)
                if new is not None:
                    total += self.count(remaining & ~(1 << d), k + 1, new)
        return total


def initial_state(game: KiltCastleGame) -> KiltCastleState:
    """The single-colour cards in their row, the double cards still to be laid, every floor
    and roof in the supply, each player with the starting ducats."""
    from clangames.kilt_castle.state import KiltCastleState

    board = game.board
    positions = [-1] * len(game.cards)
    inner = [-1] * len(game.cards)
    for i in game.singles:
        positions[i] = board.single_position
        inner[i] = board.cards[game.cards[i]][0]
    for i in game.doubles:
        inner[i] = board.cards[game.cards[i]][0]
    supply = [0] * (len(board.colours) * 3)
    for colour in game.colours:
        for k in range(3):
            supply[colour * 3 + k] = board.floors[k]
    return KiltCastleState(
        game=game,
        phase=LAYOUT,
        positions=tuple(positions),
        inner=tuple(inner),
        towers=("",) * (board.rows * board.cols),
        roofed=0,
        supply=Multiset(tuple(supply)),
        money=(board.start_money,) * game.num_players,
        from_bank=0,
        actor=-1,
        card=-1,
        builders=(),
        first_space=-1,
        ducat_day=False,
        ending=False,
        turns=0,
        idle=0,
    )


def laid_count(s: KiltCastleState) -> int:
    """Double cards laid out so far."""
    return sum(1 for i in s.game.doubles if s.positions[i] >= 0)


def chance_weights(s: KiltCastleState) -> tuple[tuple[Any, int], ...]:
    """The next double card and its side towards the board, each weighted by the number of
    valid ways to finish the lay-out after it (see the module docstring). The weights
    depend only on where the cards lie, and a board has few partial lay-outs, so they are
    worked out once per lay-out and kept on the game."""
    if s.phase.name != "layout":
        return ()
    memo = s.game.layout_memo
    weights = memo.get(s.positions)
    if weights is None:
        if len(memo) >= LAYOUT_MEMO_LIMIT:
            memo.clear()
        weights = memo[s.positions] = _layout_weights(s)
    return weights


def _layout_weights(s: KiltCastleState) -> tuple[tuple[Any, int], ...]:
    """:func:`chance_weights` worked out (not memoised)."""
    game = s.game
    counter = game.layout_counter
    k = laid_count(s)
    slot = game.layout_slots[k]
    counts = [0] * len(game.board.colours)
    remaining = 0
    for d, i in enumerate(game.doubles):
        p = s.positions[i]
        if p < 0:
            remaining |= 1 << d
        elif p == slot:
            for c in game.board.cards[game.cards[i]]:
                counts[c] += 1
    base = tuple(counts)
    out: list[tuple[Any, int]] = []
    for d, i in enumerate(game.doubles):
        if not remaining >> d & 1:
            continue
        new = counter.add(base, d)
        if new is None:
            continue
        weight = counter.count(remaining & ~(1 << d), k + 1, new)
        if weight:
            out.extend((action, weight) for action in game.lay_actions[i])
    return tuple(out)
