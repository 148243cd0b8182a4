"""Clan Feud positions: territories, cards, events, dice and board slots by name.

One place for the game's notation (see :mod:`clangames.engine.position`): every state
field's format is declared in :func:`notation`, so a field added to the state fails at
once, naming itself, until it gets a format here.

Names: territories by board id (``stirling``), troops ``territory.type``
(``stirling.cavalry``), action cards and their designs by card id (``AC01``), events by id
(``EV01``), dice ``colourvalue`` (``white3``), board slots ``column.slot``
(``income.I-left``). The builder deals every action card no hand or discard pile holds back
into the draw deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from clangames.clan_feud.actions import COLOURS, COLUMN_NAMES, SLOT_NAMES, TROOPS
from clangames.clan_feud.state import Battle, EnglishArmy, Task
from clangames.engine.codec import JSON
from clangames.engine.position import (
    ActionId,
    Counts,
    Flag,
    Int,
    Keyed,
    Name,
    NameSet,
    Notation,
    Optional,
    Record,
    Seq,
    Text,
    Wrapped,
    dealt_start,
    rest,
    seat_format,
    seat_set,
)

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame
    from clangames.engine.game import Game

SITES = ("none", "city", "castle")
DICE = tuple(f"{colour}{value}" for colour in COLOURS for value in (1, 2, 3))
SLOTS = tuple(f"{column}.{slot}" for column in COLUMN_NAMES for slot in SLOT_NAMES)


def notation(game: ClanFeudGame) -> Notation:
    """The Clan Feud notation for ``game`` (its board, decks and seats)."""
    n = game.num_players
    territories = tuple(t.id for t in game.board.territories)
    territory = Name(territories, "territory")
    troop_names = tuple(f"{t}.{kind}" for t in territories for kind in TROOPS)
    troops = Counts(troop_names, "troop")
    designs = tuple(card.id for card in game.deck.designs)
    cards = Counts(designs, "action card")
    seat = seat_format(n)
    side = Name(("attacker", "defender"), "side")
    action = Wrapped("ids", Seq(ActionId(game)))
    pair = Seq(Int())
    task = Record(
        [
            ("kind", Text()),
            ("player", seat),
            ("a", Int()),
            ("b", Int()),
            ("c", Int()),
            ("data", Seq(Int())),
        ]
    )
    battle = Record(
        [
            ("territory", territory),
            ("owners", Seq(seat)),
            ("origin", territory),
            ("attackers", Seq(Int())),
            ("king", side),
            ("cards", action),
            ("tokens", action),
            ("played", Seq(Name(designs, "action card"))),
            ("spent", pair),
            ("artillery", pair),
            ("hits", pair),
            ("losses", pair),
            ("rounds", Int()),
            ("roller", side),
            ("levels", Seq(Int())),
        ]
    )
    english = Record([("territory", territory), ("troops", Seq(Int())), ("tokens", Seq(Int()))])
    _check_records(task, Task)
    _check_records(battle, Battle)
    _check_records(english, EnglishArmy)
    return Notation(
        game,
        {
            "turn": Int(),
            "order": Seq(seat),
            "england": Int(),
            "track_start": Int(),
            "at_war": Flag(),
            "events": Seq(Name(tuple(e.id for e in game.events.regular), "event")),
            "deck": cards,
            "discards": cards,
            "controller": Keyed(territories, "territory", seat, -1),
            "site": Keyed(territories, "territory", Name(SITES, "site", none=False), 0),
            "towers": Keyed(territories, "territory", Int(), 0),
            "troops": Seq(troops),
            "moved": troops,
            "king": territory,
            "regent": seat,
            "gold_out": Flag(),
            "money": Seq(Int()),
            "feud": Seq(Int()),
            "vp": Seq(Int()),
            "covered": Seq(NameSet(SLOTS, "board slot")),
            "filled": Seq(NameSet(SLOTS, "board slot")),
            "pool": Seq(Counts(DICE, "die")),
            "hands": Seq(cards),
            "passed": seat_set(n),
            "city_dice": Seq(NameSet(territories, "territory")),
            "tasks": Seq(task),
            "battle": Optional(battle),
            # part 3: a card's modifiers (playing.MOD_*), upkeep cuts, stolen-card
            # knowledge as (taker, victim, design index)
            "mods": Seq(Int()),
            "upkeep_cut": Seq(Int()),
            "known": Seq(Seq(Int())),
            # part 2: the English armies (territory, infantry/cavalry/artillery, level tokens)
            "english": Seq(english),
        },
        names={
            "territory": territories,
            "action card": designs,
            "event": tuple(e.id for e in game.events.regular),
            "troop": TROOPS,
            "die": DICE,
            "board slot": SLOTS,
            "site": SITES,
        },
        base=dealt_start,
        fill=_fill,
        complete=True,
        where="clan_feud/position.py",
    )


def _check_records(record: Record, cls: type) -> None:
    """A nested record must list every field of its class, in order (caught at load)."""
    import attrs

    names = tuple(f.name for f in attrs.fields(cls))
    if tuple(k for k, _ in record.fields) != names:
        raise TypeError(f"clan_feud/position.py: the {cls.__name__} format must list {names}")


def _fill(game: Game, data: dict[str, JSON], given: frozenset[str]) -> None:
    """Every action card that no hand or discard pile holds is in the draw deck."""
    if "deck" in given:
        return
    game = cast("ClanFeudGame", game)
    designs = game.deck.designs
    placed = [0] * len(designs)
    for counts in (data["discards"], *data["hands"]):
        for d, count in enumerate(counts):
            placed[d] += count
    expected = [card.copies for card in designs]
    data["deck"] = rest(expected, placed, [card.id for card in designs], "deck")
