"""Kilt Castle's two length bounds (decisions and chance nodes).

The rulebook gives no bound on the number of turns: a game in which nobody can build
again would never end. The product's safeguard (rulings KC-18: the game ends after
``stall_rounds`` x players turns in a row without a floor) is what makes every game
finite, so the decision bound is a multiple of it; :func:`length_bounds` derives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.interop import LengthBounds

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame


def builds_before_the_end(game: KiltCastleGame) -> int:
    """Floors that can go up before the turn that builds some colour's last floor: every
    colour in play short of one floor, c (F - 1)."""
    return len(game.colours) * (game.board.floors_per_colour - 1)


def length_bounds(game: KiltCastleGame) -> LengthBounds:
    """Decision and chance-node bounds of any Kilt Castle game, adversarial play included.

    Write c for the colours in play (4; 3 with 3 players), F for a colour's floors (16),
    S for the safeguard's turns (``stall_rounds`` x players: 20, 30, 40 by default), B
    for the floors built, b for the turns that build at least one and b2 for those that
    build two.

    1. **Floors.** The game ends after the turn in which a colour builds its last floor
       (rulings, *End*). Before that turn every colour has built at most F - 1 floors, and
       a turn builds at most two (one per colour on the relocated card, rulings step 2):
       B <= c (F - 1) + 2, and B <= c (F - 1) if the game ends by the safeguard instead.
    2. **Turns.** Between two turns that build, at most S - 1 turns build nothing (the S-th
       such turn in a row ends the game, KC-18). So T <= b S if the last turn builds
       (the ending floor) and T <= b S + S if the safeguard ends the game.
    3. **Decisions a turn.** The relocation; each build that has more than one option (a
       build with one option is made at once, ``turn.settle``), at most one per colour on
       the card; and the choice of the roof that moves, only at a second build on the
       first build's space with every roof placed. Decisions <= T + B + b2, B = b + b2.
    4. **Together.** By the safeguard: b + b2 <= c (F - 1), so decisions <= (b + 1) S + b
       + 2 b2 <= (c (F - 1) + 1) S + c (F - 1) (a turn moved from b2 to b adds S - 1 >= 0).
       By the last floor: the turns before the ending one build at most c (F - 1) floors,
       so b <= c (F - 1) + 1 and only the ending turn can add a b2 beyond them: decisions
       <= (c (F - 1) + 1)(S + 1) + 2. The larger is the bound: 1,283 / 1,428 / 2,503 for
       2 / 3 / 4 players with the default safeguard (the step bound gave 1,384 / 1,534 /
       2,644 decisions).

    This bound is loose where the rules are: a turn builds nothing only when every line
    the moved card could face is full and its colours cannot pay for an overbuild, which
    needs a crowded board and empty purses; nothing in the rules stops such a game from
    running on, so only the safeguard bounds it. Random games take about 30 turns.

    **Chance nodes.** Only the start lay-out: one node per double-colour card laid (a
    lay-out that breaks the two-of-a-colour rule is excluded from the weights, not dealt
    again as a node): 6, 3, 6. Every game has exactly that many.
    """
    s = game.stall_turns
    before = builds_before_the_end(game)
    by_stall = (before + 1) * s + before
    by_last_floor = (before + 1) * (s + 1) + 2
    return LengthBounds(decisions=max(by_stall, by_last_floor), chance=len(game.doubles))


__all__ = ["builds_before_the_end", "length_bounds"]
