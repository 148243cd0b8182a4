"""KOA Kingmaker for learning frameworks: the observation encoding, the chance actions and
the two length bounds (declared to :mod:`clangames.engine.interop`).

Card sets are bitmasks of the 15 card kinds, laid out one float per kind; every entry
per house has :data:`~clangames.koa_kingmaker.cards.MAX_HOUSES` slots whatever the seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.encoding import Bits, Fields, Flag, Int, ObservationSpec, OneOf, Tuple, Upto
from clangames.engine.interop import GameFacts, Interop, declare
from clangames.koa_kingmaker.actions import Inherit, Seal
from clangames.koa_kingmaker.bounds import length_bounds
from clangames.koa_kingmaker.cards import KINDS, MAX_HOUSES, ROYAL
from clangames.koa_kingmaker.observation import KoaObservation

if TYPE_CHECKING:
    from clangames.koa_kingmaker.game import KoaGame

PHASES = ("inherit", "seal", "commit", "return", "discard", "over")
"""Every phase name a KOA Kingmaker state can have."""


def round_bound(game: KoaGame) -> int:
    """Rounds in any game: the potential argument of ``KoaGame._length_bound`` (every
    round lowers ``2 * (5C + G) + K`` by at least one)."""
    h = game.houses
    return 2 * (5 * 7 * h + h) + 3 * h


def observation_spec(game: KoaGame) -> ObservationSpec:
    """The layout of :class:`KoaObservation`."""
    rounds = round_bound(game)
    house = Int(-1, MAX_HOUSES - 1)
    cards = Tuple(MAX_HOUSES, Bits(KINDS))
    layout = Fields(
        KoaObservation,
        {
            "viewer": house,
            "phase": OneOf(PHASES),
            "to_move": Upto(MAX_HOUSES, house),
            "round": Int(0, rounds),
            "alive": Bits(MAX_HOUSES),
            "out_round": Tuple(MAX_HOUSES, Int(-1, rounds)),
            "courts": cards,
            "discards": cards,
            "centre": cards,
            "hand_sizes": Tuple(MAX_HOUSES, Int(0, KINDS)),
            "hand": Bits(KINDS),
            "inheritance": Tuple(MAX_HOUSES, Int(0, MAX_HOUSES)),
            "committed": Tuple(MAX_HOUSES, Flag()),
            "table": Tuple(MAX_HOUSES, Int(-1, ROYAL - 1)),
            "played": Tuple(MAX_HOUSES, Int(-1, ROYAL - 1)),
            "recovering": Upto(MAX_HOUSES, Int(0, MAX_HOUSES - 1)),
            # A round's hits: at most one per house hit by the count and one
            # counter-attack per nominating house.
            "hits": Upto(2 * MAX_HOUSES, Tuple(2, Int(-1, MAX_HOUSES - 1))),
            "scored": Bits(MAX_HOUSES),
            "dealt": Bits(MAX_HOUSES),
        },
    )
    private = ("viewer", "hand", "inheritance", "table")
    return ObservationSpec(layout, [f for f in layout.layouts if f not in private])


INTEROP = declare(
    "koa_kingmaker",
    Interop(
        facts=GameFacts(has_chance=True, has_simultaneous_moves=True, has_hidden_information=True),
        chance_actions=(Seal, Inherit),
        observation_spec=observation_spec,
        length_bounds=length_bounds,
    ),
)
