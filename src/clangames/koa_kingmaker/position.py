"""KOA Kingmaker positions: every house's cards by name, sealed cards included.

One place for the game's notation (see :mod:`clangames.engine.position`). Houses are
numbered 0..4 like seats (houses from the player count up are automated households).
KOA has no draw pile: every card is in some house's hand, court, discards or the centre.
The builder takes ``courts``, ``discards`` and ``centre`` also as ``{house: [cards]}`` for
the houses that differ from the start, and when ``hands`` is not given it gives each house
back every card of its own that no other part holds (its hand is where its unplaced
cards are); unlisted parts keep the dealt start's values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from clangames.engine.codec import JSON, encode
from clangames.engine.position import (
    Int,
    Name,
    NameSet,
    Node,
    Notation,
    PositionError,
    Seq,
    Wrapped,
    dealt_start,
    to_node,
    token_name,
)
from clangames.koa_kingmaker.cards import (
    CHARACTER_NAMES,
    KINDS,
    MAX_HOUSES,
    NOMINATION,
    ROYAL_NAMES,
    ROYALTY,
)

if TYPE_CHECKING:
    from clangames.engine.game import Game
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


class ByHouse(Seq):
    """A set of cards per house. The builder also takes ``{house: [cards]}`` naming only
    the houses whose cards differ from ``usual`` (every playing house's at the start; a
    house out of the game holds nothing)."""

    def __init__(self, item: NameSet, usual: Sequence[str], houses: int) -> None:
        super().__init__(item)
        self.usual = [token_name(c) for c in usual]
        self.houses = houses

    def coerce(self, value: object, path: str) -> Node:
        if not isinstance(value, Mapping):
            return to_node(value, path)
        out: list[Node] = [list(self.usual) if h < self.houses else [] for h in range(MAX_HOUSES)]
        for house, cards in value.items():
            if not isinstance(house, int) or not 0 <= house < MAX_HOUSES:
                raise PositionError(f"{path}[{house!r}]: expected a house 0..{MAX_HOUSES - 1}")
            where = f"{path}[{house}]"
            if isinstance(cards, str):  # notation text, or one card's name
                text = cards.strip()
                out[house] = to_node(text if text.startswith("[") else [token_name(text)], where)
            elif isinstance(cards, Sequence):
                names = [token_name(c) if isinstance(c, str) else c for c in cards]
                out[house] = to_node(names, where)
            else:
                raise PositionError(f"{where}: expected a list of card names, got {cards!r}")
        return out


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
            "courts": ByHouse(cards, ROYAL_NAMES, game.houses),
            "discards": ByHouse(cards, (), game.houses),
            "centre": ByHouse(cards, (), game.houses),
            "table": Wrapped("ids", Seq(card)),
            "played": Seq(card),
            "recovering": Seq(house),
            "hits": Seq(Seq(house)),
            "scored": NameSet(HOUSE_NAMES, "house"),
        },
        names={"card": CARD_NAMES, "house": HOUSE_NAMES},
        base=dealt_start,
        fill=_fill,
        complete=True,
        where="koa_kingmaker/position.py",
    )


def _fill(game: Game, data: dict[str, JSON], given: frozenset[str]) -> None:
    """Without ``hands``, each house holds every card of its own (as dealt: characters and
    nominations) that its court, discards, the centre or the table does not."""
    if "hands" in given:
        return
    start = encode(dealt_start(game))
    for h, hand in enumerate(start["hands"]):
        sealed = start["table"]["ids"][h]
        owned = hand | (1 << sealed if sealed >= 0 else 0) | start["courts"][h] & ~ROYALTY
        elsewhere = data["courts"][h] | data["discards"][h] | data["centre"][h]
        on_table = data["table"]["ids"][h]
        if on_table >= 0:
            elsewhere |= 1 << on_table
        data["hands"][h] = owned & ~elsewhere
