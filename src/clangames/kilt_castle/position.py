"""Kilt Castle positions: cards by colour, the board by rows of tower strings.

One place for the game's notation (see :mod:`clangames.engine.position`). Towers use the
game's floor letters (``a``, ``b``, ``c`` for the first colour with 0, 1, 2 crests, ``d``
for the next colour ...), ``-`` for an empty space; spaces are ``row.col``; card places
around the board are the side and index (``north0``); the builder puts every floor no
tower holds back in the supply and works out the bank's pay-outs from the players' ducats.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from clangames.engine.codec import JSON
from clangames.engine.position import (
    NONE,
    Counts,
    Flag,
    Grouped,
    Int,
    Name,
    NameSet,
    Node,
    Notation,
    PositionError,
    Seq,
    Text,
    Wrapped,
    dealt_start,
    rest,
    seat_format,
    to_node,
    token_name,
)
from clangames.kilt_castle.board import CREST_KINDS, floor_letter, letter_floor

if TYPE_CHECKING:
    from clangames.engine.game import Game
    from clangames.kilt_castle.game import KiltCastleGame


def notation(game: KiltCastleGame) -> Notation:
    """The Kilt Castle notation for ``game`` (its board, colours and cards)."""
    board = game.board
    spaces = [board.label(s) for s in range(board.rows * board.cols)]
    space = Name(spaces, "space row.col")
    colour = Name(board.colours, "colour")
    floors = _floor_names(game)
    places = [f"{side}{index}" for side, index in board.positions]
    first_colours = [board.colours[colours[0]] for colours in game.card_colours]
    return Notation(
        game,
        {
            "positions": CardPlaces(Name(places, "card place"), game.card_names),
            "inner": CardInner(colour, game.card_names, first_colours),
            "towers": Grouped(Text(empty_as_none=True), [board.cols] * board.rows, "row"),
            "roofed": NameSet(spaces, "space row.col"),
            "supply": Wrapped("counts", Counts(floors, "floor letter")),
            "money": Seq(Int()),
            "from_bank": Int(),
            "actor": seat_format(game.num_players),
            "card": Name(game.card_names, "card"),
            "builders": Seq(colour),
            "first_space": space,
            "ducat_day": Flag(),
            "ending": Flag(),
            "turns": Int(),
            "idle": Int(),
        },
        names={
            "colour": board.colours,
            "card": game.card_names,
            "space": tuple(spaces),
            "floor": floors,
            "place": tuple(places),
        },
        base=dealt_start,
        fill=_fill,
        complete=True,
        where="kilt_castle/position.py",
    )


class _ByCard(Seq):
    """A value per card, written per card in ``game.card_names`` order; the builder also
    takes a mapping in the game's names, turned into that list by :meth:`from_mapping`."""

    def __init__(self, item: Name, cards: Sequence[str]) -> None:
        super().__init__(item)
        self.cards = Name(cards, "card", none=False)

    def card(self, name: object, where: str) -> int:
        if not isinstance(name, str):
            raise PositionError(f"{where}: expected a card name, got {name!r}")
        return cast(int, self.cards.read(token_name(name), where))

    def coerce(self, value: object, path: str) -> Node:
        if isinstance(value, Mapping):
            return self.from_mapping(value, path)
        return to_node(value, path)

    @abc.abstractmethod
    def from_mapping(self, value: Mapping[object, object], path: str) -> Node:
        """The list node of a builder mapping (PositionError naming a bad entry)."""


class CardPlaces(_ByCard):
    """Each card's place around the board. The builder also takes the card rows as they
    lie on the table, ``{"north0": ["red", "orange"], "north1": [...]}``; a card no row
    names has no place (``-``: out of the game, or not yet laid out)."""

    def from_mapping(self, value: Mapping[object, object], path: str) -> Node:
        out: list[Node] = [NONE] * len(self.cards.names)
        for place, cards in value.items():
            where = f"{path}[{place!r}]"
            if not isinstance(place, str) or isinstance(cards, str):
                raise PositionError(f"{where}: expected a card place and a list of card names")
            if not isinstance(cards, Sequence):
                raise PositionError(f"{where}: expected a list of card names, got {cards!r}")
            for name in cards:
                slot = self.card(name, where)
                if out[slot] != NONE:
                    raise PositionError(f"{where}: card {name!r} is given two places")
                out[slot] = token_name(place)
        return out


class CardInner(_ByCard):
    """The colour each card shows the board. The builder also takes the double cards that
    matter, ``{"red/orange": "orange"}``; every card not named shows its first colour."""

    def __init__(self, item: Name, cards: Sequence[str], colours: Sequence[str]) -> None:
        super().__init__(item, cards)
        self.first = [token_name(c) for c in colours]

    def from_mapping(self, value: Mapping[object, object], path: str) -> Node:
        out: list[Node] = list(self.first)
        for name, colour in value.items():
            where = f"{path}[{name!r}]"
            shown = token_name(colour) if isinstance(colour, str) else to_node(colour, where)
            out[self.card(name, where)] = shown
        return out


def _floor_names(game: KiltCastleGame) -> tuple[str, ...]:
    return tuple(floor_letter(f) for f in range(len(game.board.colours) * CREST_KINDS))


def _fill(game: Game, data: dict[str, JSON], given: frozenset[str]) -> None:
    """Every floor of a colour in play that no tower holds is in the supply, and the bank
    has paid out what the players hold beyond their start money."""
    game = cast("KiltCastleGame", game)
    if "from_bank" not in given:
        start = game.board.start_money * game.num_players
        data["from_bank"] = sum(data["money"]) - start
    if "supply" in given:
        return
    names = _floor_names(game)
    expected = [0] * len(names)
    for c in game.colours:
        for crests in range(CREST_KINDS):
            expected[c * CREST_KINDS + crests] = game.board.floors[crests]
    placed = [0] * len(names)
    for tower in data["towers"]:
        for letter in tower:
            kind = letter_floor(letter)
            if 0 <= kind < len(names):
                placed[kind] += 1
    data["supply"] = {"counts": rest(expected, placed, names, "supply")}
