"""King's Kilt positions: the pyramid by rows and every card by clan name.

One place for the game's notation (see :mod:`clangames.engine.position`): a format per
state field, the names the game exposes, and the builder's fill rule (the Clan Member
pile takes every card no other part holds).
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
    Wrapped,
    dealt_start,
    rest,
    seat_format,
    seat_set,
)

if TYPE_CHECKING:
    from clangames.engine.game import Game
    from clangames.kings_kilt.game import KingsKiltGame

_PILES = ("leaders", "members", "reshuffled", "discards", "removed")
_TRIGGERS = ("nobles_triggered", "guardians_triggered", "crowned")


def notation(game: KingsKiltGame) -> Notation:
    """The King's Kilt notation for ``game`` (its clans, pyramid and seats)."""
    n = game.num_players
    geo = game.geo
    clan = Name(game.clans, "clan")
    clans = NameSet(game.clans, "clan")
    pile = Wrapped("counts", Counts(game.clans, "clan"))
    seat = seat_format(n)
    return Notation(
        game,
        {
            "pyramid": Grouped(
                clan, [len(geo.row_positions(r)) for r in range(1, geo.width + 1)], "row"
            ),
            "top": clan,
            **{name: pile for name in _PILES},
            "family_deck": clans,
            "families": Seq(clans),
            "from_deck": Seq(clans),
            "revealed": Seq(clans),
            "hands": Seq(pile),
            "passed": seat_set(n),
            "crowned": Flag(),
            "nobles_triggered": Flag(),
            "guardians_triggered": Flag(),
            "actor": seat,
            "vacancy": Name([geo.label(p) for p in range(geo.size)], "space row.index"),
            "reveal_queue": Seq(seat),
            "dealt": Int(),
            "turns": Int(),
        },
        names={"clan": game.clans},
        base=dealt_start,
        fill=_fill,
        complete=True,
        where="kings_kilt/position.py",
    )


def _fill(game: Game, data: dict[str, JSON], given: frozenset[str]) -> None:
    """Families given without their dealt-from-deck or face-up parts keep only the parts
    of the base's that are in them; a pyramid given without the reminder flags or the
    crown sets each one that its highest card has reached (a card only climbs row by row);
    every card no part holds goes to the Clan Member pile (the hidden draw pile)."""
    game = cast("KingsKiltGame", game)
    if "pyramid" in given:
        geo = game.geo
        highest = max((geo.row[p] for p, c in enumerate(data["pyramid"]) if c >= 0), default=0)
        rows = (geo.nobleman_row, geo.guardian_row, geo.king_row)
        for flag, row in zip(_TRIGGERS, rows, strict=True):
            if flag not in given:
                data[flag] = highest >= row
    if "families" in given:
        for part in ("from_deck", "revealed"):
            if part not in given:
                data[part] = [m & f for m, f in zip(data[part], data["families"], strict=False)]
    if "members" in given:
        return
    k = len(game.clans)
    placed = [0] * k
    for c in data["pyramid"]:
        if c >= 0:
            placed[c] += 1
    if data["top"] >= 0:
        placed[data["top"]] += 1
    piles = [data[name]["counts"] for name in _PILES if name != "members"]
    for counts in (*piles, *(h["counts"] for h in data["hands"])):
        for c, count in enumerate(counts):
            placed[c] += count
    for mask in (*data["families"], data["family_deck"]):
        for c in range(k):
            placed[c] += mask >> c & 1
    expected = [game.components.cards_per_clan] * k
    data["members"] = {"counts": rest(expected, placed, game.clans, "members")}
