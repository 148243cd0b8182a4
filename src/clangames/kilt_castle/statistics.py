"""Kilt Castle's balance statistics (the kernel hook of :mod:`clangames.engine.statistics`).

``ducat_days`` (relocations that emptied a card row), ``overbuilds`` (floors built on top
of a tower, paid to its owner), ``roofs`` (roofed towers at the end), ``turns`` and, per
seat, ``overbuilds.seat<p>`` (the overbuilds that seat's colours made). The counts that
the final state no longer shows come from replaying the moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.statistics import GameStatistics, Moves
from clangames.kilt_castle.actions import Build

if TYPE_CHECKING:
    from clangames.engine.state import State
    from clangames.kilt_castle.game import KiltCastleGame
    from clangames.kilt_castle.state import KiltCastleState


def statistics(game: KiltCastleGame) -> GameStatistics:
    """The statistics Kilt Castle declares for ``game`` (its seats give the names)."""
    n = game.num_players
    cols = game.board.cols
    names = (
        "ducat_days",
        "overbuilds",
        "roofs",
        "turns",
        *(f"overbuilds.seat{p}" for p in range(n)),
    )

    def measure(final: State, moves: Moves) -> dict[str, float]:
        end: KiltCastleState = final  # type: ignore[assignment]
        state: KiltCastleState = game.initial_state()
        ducat_days = 0
        by_seat = [0] * n
        for player, action in moves:
            if isinstance(action, Build) and state.towers[action.row * cols + action.col]:
                by_seat[game.owner[state.builders[0]]] += 1
            was_ducat_day = state.ducat_day
            state = state._apply(action, player)
            ducat_days += state.ducat_day and not was_ducat_day
        values: dict[str, float] = {
            "ducat_days": ducat_days,
            "overbuilds": sum(by_seat),
            "roofs": end.roofed.bit_count(),
            "turns": end.turns,
        }
        for p in range(n):
            values[f"overbuilds.seat{p}"] = by_seat[p]
        return values

    return GameStatistics(names, measure)
