"""Kilt Castle's balance statistics (the kernel hook of :mod:`clangames.engine.statistics`).

``ducat_days`` (relocations that emptied a card row, so the bank paid out), ``overbuilds``
(floors built on top of a tower, paid to its owner), ``roofs`` (roofed towers at the end),
``turns`` and ``floors`` (floors built).

Every floor stays where it is built, so a tower of k floors was overbuilt k - 1 times: the
final state gives the overbuilds. Ducat days come from the moves: the lay-out's chance
steps say where each card lies (the k-th card laid goes to the game's k-th lay-out
position, as the rule lays it: read off the actions, no state is made), then each
relocation is followed, as the rule does, to see whether it left its card position empty.
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
    layout_slots = game.layout_slots
    start = game.initial_state().positions  # the single cards, laid before any chance step

    def measure(final: State, moves: Moves) -> dict[str, float]:
        end: KiltCastleState = final  # type: ignore[assignment]
        positions = list(start)
        laid = 0
        for player, action in moves:
            if player != CHANCE:
                break
            positions[card_slot[action.card]] = layout_slots[laid]
            laid += 1
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
