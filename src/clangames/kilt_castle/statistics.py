"""Kilt Castle's balance statistics (the kernel hook of :mod:`clangames.engine.statistics`).

``ducat_days`` (relocations that emptied a card row, so the bank paid out), ``overbuilds``
(floors built on top of a tower, paid to its owner), ``roofs`` (roofed towers at the end),
``turns`` and ``floors`` (floors built).

Every floor stays where it is built, so a tower of k floors was overbuilt k - 1 times: the
final state gives the overbuilds. Ducat days come from the moves: the lay-out is replayed
(a few chance steps) to learn where each card lies, then each relocation is followed, as
the rule does, to see whether it left its card position empty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.phases import CHANCE
from clangames.engine.statistics import GameStatistics, Moves
from clangames.kilt_castle.actions import Relocate

if TYPE_CHECKING:
    from clangames.engine.state import State
    from clangames.kilt_castle.game import KiltCastleGame
    from clangames.kilt_castle.state import KiltCastleState


def statistics(game: KiltCastleGame) -> GameStatistics:
    """The statistics Kilt Castle declares for ``game``."""
    names = ("ducat_days", "overbuilds", "roofs", "turns", "floors")
    card_slot = game.card_slot

    def measure(final: State, moves: Moves) -> dict[str, float]:
        end: KiltCastleState = final  # type: ignore[assignment]
        state: KiltCastleState = game.initial_state()
        laid = 0
        for player, action in moves:
            if player != CHANCE:
                break
            state = state._apply(action, player)
            laid += 1
        positions = list(state.positions)
        ducat_days = 0
        for _, action in moves[laid:]:
            if type(action) is Relocate:
                slot = card_slot[action.card]
                source = positions[slot]
                positions[slot] = action.to
                ducat_days += source not in positions
        floors = sum(len(tower) for tower in end.towers)
        return {
            "ducat_days": ducat_days,
            "overbuilds": floors - sum(1 for tower in end.towers if tower),
            "roofs": end.roofed.bit_count(),
            "turns": end.turns,
            "floors": floors,
        }

    return GameStatistics(names, measure)
