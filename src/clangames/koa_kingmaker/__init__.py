"""KOA Kingmaker: five houses each play one card a round in secret; nominations hit the
most-nominated house, characters block, redirect, steal and buy back; the last houses
standing score their courts and hands.

``clangames.load("koa_kingmaker", players=3)`` gives the game (importing this package
registers it); see ``docs/games/koa-kingmaker.md`` for the rules in brief, the rulings and
the card data.
"""

from clangames.koa_kingmaker.actions import (
    Discard,
    Inherit,
    KoaAction,
    Nominate,
    Play,
    Recover,
    RecoverNothing,
    Seal,
)
from clangames.koa_kingmaker.cards import CardValues, card_name, load_cards, parse_cards
from clangames.koa_kingmaker.game import SPEC, KoaGame
from clangames.koa_kingmaker.observation import KoaObservation
from clangames.koa_kingmaker.scoring import house_points
from clangames.koa_kingmaker.state import KoaState

from clangames.koa_kingmaker import encoding  # noqa: F401  (declares the interop data)  isort: skip

__all__ = [
    "SPEC",
    "CardValues",
    "Discard",
    "Inherit",
    "KoaAction",
    "KoaGame",
    "KoaObservation",
    "KoaState",
    "Nominate",
    "Play",
    "Recover",
    "RecoverNothing",
    "Seal",
    "card_name",
    "house_points",
    "load_cards",
    "parse_cards",
]
