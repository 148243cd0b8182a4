"""King's Kilt for learning frameworks: the observation encoding, the chance actions and
the two length bounds (declared to :mod:`clangames.engine.interop`).

Every bound comes from the components: clans ``k``, cards per clan, pyramid size, seats.
Clan sets (families, revealed clans, who passed) are bitmasks, laid out one float per bit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.encoding import (
    Bits,
    Fields,
    Flag,
    Int,
    ObservationSpec,
    OneOf,
    Tuple,
    Upto,
)
from clangames.engine.interop import GameFacts, Interop, declare
from clangames.kings_kilt.actions import Draw
from clangames.kings_kilt.bounds import length_bounds
from clangames.kings_kilt.observation import KingsKiltObservation
from clangames.kings_kilt.setup import SETUP_PHASES

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame

PHASES = (*SETUP_PHASES, "reveal_top", "turn", "fill", "reveal", "over")
"""Every phase name a King's Kilt state can have."""


def _turn_bound(game: KingsKiltGame) -> int:
    """Turns in any game: the game's own length argument (see ``KingsKiltGame``)."""
    geo = game.geo
    n = game.num_players
    height_cap = sum(r * (geo.width - r + 1) for r in range(1, geo.width + 1))
    return height_cap + game.hand_size * n * (geo.width + 1) + n


def observation_spec(game: KingsKiltGame) -> ObservationSpec:
    """The layout of :class:`KingsKiltObservation` for ``game``'s components and seats."""
    n = game.num_players
    k = len(game.clans)
    per_clan = game.components.cards_per_clan
    total = per_clan * k
    seat = Int(-1, n - 1)
    counts = Tuple(k, Int(0, per_clan))
    layout = Fields(
        KingsKiltObservation,
        {
            "viewer": seat,
            "phase": OneOf(PHASES),
            "to_move": Upto(1, seat),
            "actor": seat,
            "pyramid": Tuple(game.geo.size, Int(-1, k - 1)),
            "top": Int(-1, k - 1),
            "pile_size": Int(0, total),
            "leaders_in_pile": counts,
            "reshuffled_in_pile": counts,
            "discards": counts,
            "removed": counts,
            "family_sizes": Tuple(n, Int(0, k)),
            "revealed": Tuple(n, Bits(k)),
            "hand_sizes": Tuple(n, Int(0, total)),
            "family": Bits(k),
            "family_from_deck": Bits(k),
            "hand": Upto(k, Int(0, per_clan)),
            "passed": Bits(n),
            "crowned": Flag(),
            "nobles_triggered": Flag(),
            "guardians_triggered": Flag(),
            "vacancy": Int(-1, game.geo.size - 1),
            "reveal_queue": Upto(n, Int(0, n - 1)),
            "family_deck_size": Int(0, k),
            "dealt": Int(0, total),
            "turns": Int(0, _turn_bound(game)),
        },
    )
    private = ("viewer", "family", "family_from_deck", "hand")
    return ObservationSpec(layout, [f for f in layout.layouts if f not in private])


INTEROP = declare(
    "kings_kilt",
    Interop(
        facts=GameFacts(has_chance=True, has_simultaneous_moves=False, has_hidden_information=True),
        chance_actions=(Draw,),
        observation_spec=observation_spec,
        length_bounds=length_bounds,
    ),
)
