"""Kilt Castle positions: cards by colour, the board by rows of tower strings.

One place for the game's notation (see :mod:`clangames.engine.position`). Towers use the
game's floor letters (``a``, ``b``, ``c`` for the first colour with 0, 1, 2 crests, ``d``
for the next colour ...), ``-`` for an empty space; spaces are ``row.col``; card places
around the board are the side and index (``north0``); the builder puts every floor no
tower holds back in the supply and works out the bank's pay-outs from the players' ducats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from clangames.engine.codec import JSON
from clangames.engine.position import (
    Counts,
    Flag,
    Grouped,
    Int,
    Name,
    NameSet,
    Notation,
    Seq,
    Text,
    Wrapped,
    dealt_start,
    rest,
    seat_format,
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
    return Notation(
        game,
        {
            "positions": Seq(Name(places, "card place")),
            "inner": Seq(colour),
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
