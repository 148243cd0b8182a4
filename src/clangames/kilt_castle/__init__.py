"""Kilt Castle: relocate building cards round the castle, build towers of your colour,
overbuild your relatives (and pay them), and cash in on ducat days.

``clangames.load("kilt_castle", players=4)`` gives the game; see
``docs/games/kilt-castle.md`` for the rules in brief, the rulings and the board data.
"""

from clangames.kilt_castle.actions import Build, KiltCastleAction, Lay, MoveRoof, Relocate
from clangames.kilt_castle.board import Board, load_board, parse_board
from clangames.kilt_castle.game import SPEC, KiltCastleGame, seat_colours
from clangames.kilt_castle.observation import KiltCastleObservation
from clangames.kilt_castle.scoring import area_values, best_area, ducat_day, final_payout
from clangames.kilt_castle.state import KiltCastleState

from clangames.kilt_castle import encoding  # noqa: F401  (declares the interop data)  isort: skip

__all__ = [
    "SPEC",
    "Board",
    "Build",
    "KiltCastleAction",
    "KiltCastleGame",
    "KiltCastleObservation",
    "KiltCastleState",
    "Lay",
    "MoveRoof",
    "Relocate",
    "area_values",
    "best_area",
    "ducat_day",
    "final_payout",
    "load_board",
    "parse_board",
    "seat_colours",
]
