"""Clan Feud's event and action cards as data, every effect parsed at load.

The bundled ``events.toml`` and ``actions.toml`` are reconstructions
(``clan-feud-cards.md``): every entry is marked ``reconstructed``, and a player with the real
cards can load their own files through the game's ``events`` and ``actions`` parameters. Each
effect field is an expression of the card vocabulary (:mod:`clangames.clan_feud.effects`),
parsed once here and checked against where it may be played, so the rules never see text. A
bad file raises InvalidParameterError naming the file, the card and the field (and the column,
for an expression), and nothing of it is used.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import attrs

from clangames.clan_feud.board import Board
from clangames.clan_feud.effects import (
    EVENTS_WINDOW,
    NUMERALS,
    PRIMITIVES,
    CombatEffect,
    Const,
    Expr,
    Primitive,
    Scaled,
    Timing,
    parse_combat,
    parse_expression,
    parse_timing,
    places,
    primitives,
)
from clangames.engine.data import load_data
from clangames.engine.errors import InvalidParameterError

PROVENANCES = ("rulebook", "reconstructed")
MIN_REGULAR_EVENTS = 8
"""The 2-player event deck draws 8 regular events, the most of any player count."""
MAX_ENGLAND_STEP = 17
"""No event moves the track by more than the track's length."""
MAX_MOVES = 10
MAX_COPIES = 10

_ID = re.compile(r"[A-Za-z0-9_]+\Z")


@attrs.frozen(slots=True)
class EventCard:
    """A regular event card: its top half (``england`` step, then ``each_player``), the
    second line (``spawn`` numeral, English ``moves``), and the ``objective`` scored in the
    next turn's phase 3."""

    id: str
    name: str
    year: int | None
    england: int
    each_player: Expr
    spawn: str
    moves: int
    objective: Expr
    provenance: str


@attrs.frozen(slots=True)
class FinalEvent:
    """King James Comes of Age, always the last event: its final count, resolved by each
    player in turn order before the game ends."""

    id: str
    name: str
    scoring: Expr
    provenance: str


@attrs.frozen(slots=True)
class EventDeck:
    """The regular events in file order and the final event."""

    source: str
    provenance: str
    regular: tuple[EventCard, ...]
    final: FinalEvent

    def check_board(self, board: Board) -> None:
        """Refuse (InvalidParameterError) an event naming a territory ``board`` lacks."""
        for card in self.regular:
            for field, expr in (("each_player", card.each_player), ("objective", card.objective)):
                _check_places(expr, board, f"events {self.source}: event {card.id} {field}")
        _check_places(self.final.scoring, board, f"events {self.source}: {self.final.id} scoring")


@attrs.frozen(slots=True)
class ActionCard:
    """One action card design: used once, for its ``action`` in its ``timing`` window or
    for its ``combat`` effect in a battle round; ``copies`` of it are in the deck."""

    id: str
    name: str
    copies: int
    timing: Timing
    action: Expr
    combat: CombatEffect
    flavour: str
    provenance: str


@attrs.frozen(slots=True)
class ActionDeck:
    """The action card designs in file order and the physical deck they make."""

    source: str
    provenance: str
    designs: tuple[ActionCard, ...]
    cards: tuple[int, ...]
    """The design index of each physical card, designs in order, copies together."""

    @property
    def card_ids(self) -> tuple[str, ...]:
        """Each physical card's id, ``<design>-<copy>`` (``AC01-1``, ``AC01-2``, ...)."""
        out: list[str] = []
        for design in self.designs:
            out.extend(f"{design.id}-{copy}" for copy in range(1, design.copies + 1))
        return tuple(out)

    def check_board(self, board: Board) -> None:
        """Refuse (InvalidParameterError) a card naming a territory ``board`` lacks."""
        for design in self.designs:
            _check_places(design.action, board, f"actions {self.source}: {design.id} action")


@attrs.frozen(slots=True)
class CardInfo:
    """What the rules need to know of one design, worked out once at load
    (``playing.card_info``): its window and program node, its die filter (-1 / 0 where a
    key is absent) and its modifiers. Kept here, with the cards' other attrs classes, so
    that the rules in ``playing`` compile (setup.py)."""

    window: str
    node: int
    column: int = -1
    colour: int = -1
    value: int = 0
    level: int = 0
    level_at_least: bool = False
    mode: int = 0
    discount: int = 0
    free_type: int = -1
    free_n: int = 0
    places: bool = False
    orders: bool = False
    cavalry_only: bool = False
    more_armies_only: bool = False
    """The action is only a move boost of extra armies (AC25): it changes something only
    where the player has more troops than the die's level moves armies."""
    gains: tuple[Any, ...] = ()
    """The £ amounts the action surely gains before its die acts (its own primitives or a
    plain sequence's: ``gain_money``, a bonus Intrigue action's £; none if it also pays
    £): the die's action need only be legal after the card (cards spec 1.1)."""


def _check_places(expr: Expr, board: Board, where: str) -> None:
    missing = sorted(p for p in places(expr) if p not in board.index)
    if missing:
        raise InvalidParameterError(
            f"{where} names {', '.join(missing)}, not a territory of board {board.source}"
        )


# ---------------------------------------------------------------------------------------
# Parsing


class _Reader:
    def __init__(self, what: str, source: str) -> None:
        self.what = what
        self.source = source

    def fail(self, message: str) -> InvalidParameterError:
        return InvalidParameterError(f"{self.what} {self.source}: {message}")

    def table(
        self, value: Any, where: str, required: set[str], optional: set[str]
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(f"{where} must be a table, got {value!r}")
        missing = sorted(required - set(value))
        if missing:
            raise self.fail(f"{where}: missing {', '.join(missing)}")
        unknown = sorted(set(value) - required - optional)
        if unknown:
            expected = ", ".join(sorted(required | optional))
            raise self.fail(f"{where}: unknown key(s) {', '.join(unknown)}; expected {expected}")
        provenance = value.get("provenance")
        if "provenance" in required and provenance not in PROVENANCES:
            raise self.fail(f"{where}.provenance must be one of {PROVENANCES}, got {provenance!r}")
        return value

    def string(self, table: dict[str, Any], key: str, where: str) -> str:
        value = table[key]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where}.{key} must be a non-empty string, got {value!r}")
        return value

    def integer(self, table: dict[str, Any], key: str, where: str, lo: int, hi: int) -> int:
        value = table[key]
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(f"{where}.{key} must be an integer {lo}..{hi}, got {value!r}")
        return value

    def ident(self, table: dict[str, Any], where: str, seen: set[str]) -> str:
        ident = self.string(table, "id", where)
        if not _ID.match(ident):
            raise self.fail(f"{where}.id must be letters, digits and _, got {ident!r}")
        if ident in seen:
            raise self.fail(f"{where}: id {ident!r} is used twice")
        seen.add(ident)
        return ident

    def entries(self, value: Any, name: str) -> list[Any]:
        if not isinstance(value, list) or not value:
            raise self.fail(f"expected a non-empty list of [[{name}]] tables, got {value!r}")
        return value

    def named(self, i: int, table: Any, kind: str) -> str:
        """``kind[i]``, with the card's id when it has one, for error messages."""
        if isinstance(table, dict) and isinstance(table.get("id"), str):
            return f"{kind}[{i}] {table['id']}"
        return f"{kind}[{i}]"


def _negative_vp(expr: Expr) -> Primitive | None:
    for prim in primitives(expr):
        if prim.name == "gain_vp":
            amount = prim.args[0]
            if (
                isinstance(amount, Const | Scaled)
                and (amount.value if isinstance(amount, Const) else amount.factor) < 0
            ):
                return prim
    return None


def _check_window(reader: _Reader, expr: Expr, window: str, where: str) -> None:
    for prim in primitives(expr):
        allowed = PRIMITIVES[prim.name].windows
        if allowed and window not in allowed:
            places_text = ", ".join(allowed)
            raise reader.fail(
                f"{where}: {prim.name} ({prim.code}) cannot be played {_window_text(window)};"
                f" it belongs to {places_text}"
            )


def _window_text(window: str) -> str:
    return "on an event card" if window == EVENTS_WINDOW else f"at {window}"


def _event_fields(reader: _Reader, table: dict[str, Any], where: str) -> tuple[Expr, Expr]:
    exprs = []
    for field in ("each_player", "objective"):
        text = reader.string(table, field, where)
        expr = parse_expression(text, f"{reader.what} {reader.source}: {where}.{field}")
        _check_window(reader, expr, EVENTS_WINDOW, f"{where}.{field}")
        negative = _negative_vp(expr)
        if negative is not None:
            raise reader.fail(
                f"{where}.{field}: {negative} takes VP away; only the final count may"
            )
        exprs.append(expr)
    return exprs[0], exprs[1]


def parse_events(data: dict[str, Any], source: str) -> EventDeck:
    """The event deck from parsed TOML data; every field checked, every expression parsed."""
    reader = _Reader("events", source)
    top = reader.table(data, "the file", {"source", "provenance", "event", "final"}, set())
    reader.string(top, "source", "the file")
    seen: set[str] = set()
    regular = []
    required = {"id", "name", "england", "each_player", "spawn", "moves", "objective"}
    for i, raw in enumerate(reader.entries(top["event"], "event")):
        where = reader.named(i, raw, "event")
        table = reader.table(raw, where, required | {"provenance"}, {"year"})
        ident = reader.ident(table, where, seen)
        spawn = table["spawn"]
        if spawn not in NUMERALS:
            raise reader.fail(f"{where}.spawn must be a numeral I..X, got {spawn!r}")
        year = reader.integer(table, "year", where, 1, 9999) if "year" in table else None
        each_player, objective = _event_fields(reader, table, where)
        regular.append(
            EventCard(
                id=ident,
                name=reader.string(table, "name", where),
                year=year,
                england=reader.integer(
                    table, "england", where, -MAX_ENGLAND_STEP, MAX_ENGLAND_STEP
                ),
                each_player=each_player,
                spawn=spawn,
                moves=reader.integer(table, "moves", where, 0, MAX_MOVES),
                objective=objective,
                provenance=table["provenance"],
            )
        )
    if len(regular) < MIN_REGULAR_EVENTS:
        raise reader.fail(
            f"expected at least {MIN_REGULAR_EVENTS} regular events (the 2-player deck draws"
            f" {MIN_REGULAR_EVENTS}), got {len(regular)}"
        )
    final_where = "final"
    final_table = reader.table(
        top["final"], final_where, {"id", "name", "scoring", "provenance"}, {"year"}
    )
    final_id = reader.ident(final_table, final_where, seen)
    if "year" in final_table:
        reader.integer(final_table, "year", final_where, 1, 9999)
    text = reader.string(final_table, "scoring", final_where)
    scoring = parse_expression(text, f"events {source}: final {final_id}.scoring")
    _check_window(reader, scoring, EVENTS_WINDOW, f"final {final_id}.scoring")
    return EventDeck(
        source=source,
        provenance=top["provenance"],
        regular=tuple(regular),
        final=FinalEvent(
            id=final_id,
            name=reader.string(final_table, "name", final_where),
            scoring=scoring,
            provenance=final_table["provenance"],
        ),
    )


def _filter_value(timing: Timing, key: str) -> str | int | None:
    item = timing.get(key)
    return None if item is None else item.value


def _action_rules(reader: _Reader, timing: Timing, action: Expr, where: str) -> None:
    """The pairings of an action with its die filter that the card rulings need."""
    _check_window(reader, action, timing.window, f"{where}.action")
    column = _filter_value(timing, "column")
    mode = _filter_value(timing, "mode")
    for prim in primitives(action):
        problem = None
        if prim.name == "discount" and not (
            column == "build" or (column == "military" and mode == "recruit")
        ):
            problem = "needs a Build die or a Military recruit die (column=build, or mode=recruit)"
        elif prim.name == "recruit" and mode != "recruit":
            problem = "needs a Military die used to recruit (column=military, mode=recruit)"
        elif prim.name == "boost_move" and mode != "move":
            problem = "needs a Military die used to move (column=military, mode=move)"
        elif prim.name == "england_track" and isinstance(prim.args[0], int) and prim.args[0] > 0:
            problem = (
                "may only lower the track on an action card (a raise outside phase 3 would"
                " dodge English spawns)"
            )
        elif prim.name == "gain_vp" and _negative_vp(prim) is not None:
            problem = "takes VP away; only the final count may"
        elif (
            prim.name == "pay_money"
            and timing.window == "P2.assign"
            and column not in ("feud", "income", "intrigue")
            and not (column == "military" and mode == "move")
        ):
            # the assignment is judged on the £ held before the card's action, which runs
            # before the die's: a Build or a recruit it left unaffordable would leave the
            # player with no legal move
            problem = (
                "pays £ before its die's action, which could then be unaffordable; only a"
                " card whose die costs nothing may pay £ (column=feud, income or intrigue,"
                " or column=military with mode=move)"
            )
        if problem is not None:
            raise reader.fail(f"{where}.action: {prim} {problem}")


def parse_actions(data: dict[str, Any], source: str) -> ActionDeck:
    """The action deck from parsed TOML data; every field checked, every expression parsed."""
    reader = _Reader("actions", source)
    top = reader.table(data, "the file", {"source", "provenance", "action"}, set())
    reader.string(top, "source", "the file")
    seen: set[str] = set()
    designs = []
    required = {"id", "name", "copies", "timing", "action", "combat", "provenance"}
    for i, raw in enumerate(reader.entries(top["action"], "action")):
        where = reader.named(i, raw, "action")
        table = reader.table(raw, where, required, {"flavour"})
        ident = reader.ident(table, where, seen)
        prefix = f"actions {source}: {where}"
        timing = parse_timing(reader.string(table, "timing", where), f"{prefix}.timing")
        action = parse_expression(reader.string(table, "action", where), f"{prefix}.action")
        combat = parse_combat(reader.string(table, "combat", where), f"{prefix}.combat")
        _action_rules(reader, timing, action, where)
        flavour = table.get("flavour", "")
        if not isinstance(flavour, str):
            raise reader.fail(f"{where}.flavour must be a string, got {flavour!r}")
        designs.append(
            ActionCard(
                id=ident,
                name=reader.string(table, "name", where),
                copies=reader.integer(table, "copies", where, 1, MAX_COPIES),
                timing=timing,
                action=action,
                combat=combat,
                flavour=flavour,
                provenance=table["provenance"],
            )
        )
    cards = tuple(d for d, design in enumerate(designs) for _ in range(design.copies))
    return ActionDeck(
        source=source, provenance=top["provenance"], designs=tuple(designs), cards=cards
    )


def load_events(path: str | None = None) -> EventDeck:
    """The bundled event cards (``path`` None) or a user's events TOML file."""
    return load_data(__package__, "events.toml", path, parse_events, "events")


def load_actions(path: str | None = None) -> ActionDeck:
    """The bundled action cards (``path`` None) or a user's actions TOML file."""
    return load_data(__package__, "actions.toml", path, parse_actions, "actions")


def expressions(deck: EventDeck | ActionDeck) -> Iterator[tuple[str, Expr]]:
    """Every parsed expression of a deck with the card field it came from."""
    if isinstance(deck, EventDeck):
        for card in deck.regular:
            yield f"{card.id}.each_player", card.each_player
            yield f"{card.id}.objective", card.objective
        yield f"{deck.final.id}.scoring", deck.final.scoring
    else:
        for design in deck.designs:
            yield f"{design.id}.action", design.action
