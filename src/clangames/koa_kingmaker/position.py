"""KOA Kingmaker positions: every house's cards by name, sealed cards included.

One place for the game's notation (see :mod:`clangames.engine.position`). Houses are
numbered 0..4 like seats (houses from the player count up are automated households).
KOA has no draw pile: every card is in some house's hand, court, discards or the centre,
so the builder fills nothing in; unlisted parts keep the dealt start's values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clangames.engine.position import (
    Int,
    Name,
    NameSet,
    Notation,
    Seq,
    Wrapped,
    dealt_start,
)
from clangames.koa_kingmaker.cards import (
    CHARACTER_NAMES,
    KINDS,
    MAX_HOUSES,
    NOMINATION,
    ROYAL_NAMES,
)

if TYPE_CHECKING:
    from clangames.koa_kingmaker.game import KoaGame

CARD_NAMES: tuple[str, ...] = (
    *CHARACTER_NAMES,
    *(f"Nomination {h}" for h in range(MAX_HOUSES)),
    *ROYAL_NAMES,
)
"""Every card kind's name in kind order (a nomination names the house it targets)."""
HOUSE_NAMES = tuple(str(h) for h in range(MAX_HOUSES))

if len(CARD_NAMES) != KINDS or CARD_NAMES[NOMINATION] != "Nomination 0":  # pragma: no cover
    raise ImportError("koa_kingmaker/position.py: card names out of step with cards.py")


def notation(game: KoaGame) -> Notation:
    """The KOA Kingmaker notation for ``game``."""
    card = Name(CARD_NAMES, "card")
    cards = NameSet(CARD_NAMES, "card")
    house = Name(HOUSE_NAMES, "house")
    return Notation(
        game,
        {
            "round": Int(),
            "inheritance": Seq(Int()),
            "alive": NameSet(HOUSE_NAMES, "house"),
            "out_round": Seq(Int()),
            "hands": Seq(cards),
            "courts": Seq(cards),
            "discards": Seq(cards),
            "centre": Seq(cards),
            "table": Wrapped("ids", Seq(card)),
            "played": Seq(card),
            "recovering": Seq(house),
            "hits": Seq(Seq(house)),
            "scored": NameSet(HOUSE_NAMES, "house"),
        },
        names={"card": CARD_NAMES, "house": HOUSE_NAMES},
        base=dealt_start,
        complete=True,
        where="koa_kingmaker/position.py",
    )
