"""Kilt Castle for learning frameworks: the observation encoding, the chance actions and
the two length bounds (declared to :mod:`clangames.engine.interop`).

Everything is public. Towers are strings of floor letters, laid out as a length and one
letter index per floor; the bounds come from the board file and the game's length
argument.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.encoding import (
    Bits,
    Chars,
    Fields,
    Flag,
    Int,
    ObservationSpec,
    OneOf,
    Tuple,
    Upto,
)
from clangames.engine.interop import GameFacts, Interop, declare
from clangames.kilt_castle.actions import Lay
from clangames.kilt_castle.bounds import length_bounds
from clangames.kilt_castle.observation import PHASES, KiltCastleObservation

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame


def _builds(game: KiltCastleGame) -> int:
    return len(game.colours) * (game.board.floors_per_colour - 1) + 2


def turn_bound(game: KiltCastleGame) -> int:
    """Turns in any game (the argument of ``KiltCastleGame``'s length bound)."""
    return (_builds(game) + 1) * game.stall_turns


def observation_spec(game: KiltCastleGame) -> ObservationSpec:
    """The layout of :class:`KiltCastleObservation` for ``game``'s board and seats."""
    n = game.num_players
    board = game.board
    spaces = board.rows * board.cols
    cards = len(game.cards)
    colours = len(board.colours)
    floors = colours * board.floors_per_colour
    kinds = 3 * len(game.owner)
    turns = turn_bound(game)
    # The bank pays at most 3 per space and colour on each ducat day (one per turn at
    # most) and at most 3 + n per space at the end.
    bank = turns * colours * 3 * spaces + spaces * (3 + n)
    seat = Int(-1, n - 1)
    layout = Fields(
        KiltCastleObservation,
        {
            "viewer": seat,
            "phase": OneOf(PHASES),
            "to_move": Upto(1, seat),
            "actor": seat,
            "positions": Tuple(cards, Int(-1, game.last_position)),
            "inner": Tuple(cards, Int(0, colours - 1)),
            "towers": Tuple(spaces, Chars(floors, "".join(game.letter))),
            "roofed": Bits(spaces),
            "roofs_unused": Int(0, board.roofs),
            "supply": Tuple(kinds, Int(0, board.floors_per_colour)),
            "money": Tuple(n, Int(0, board.start_money * n + bank)),
            "from_bank": Int(0, bank),
            "card": Int(-1, cards - 1),
            "builders": Upto(colours, Int(0, colours - 1)),
            "first_space": Int(-1, spaces - 1),
            "ducat_day": Flag(),
            "ending": Flag(),
            "turns": Int(0, turns),
            "idle": Int(0, game.stall_turns),
        },
    )
    return ObservationSpec(layout, [f for f in layout.layouts if f != "viewer"])


INTEROP = declare(
    "kilt_castle",
    Interop(
        facts=GameFacts(
            has_chance=True, has_simultaneous_moves=False, has_hidden_information=False
        ),
        chance_actions=(Lay,),
        observation_spec=observation_spec,
        length_bounds=length_bounds,
    ),
)
