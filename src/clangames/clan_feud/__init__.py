"""Clan Feud: 2-5 clans fight over Scotland for victory points while England waits.

Importing this package registers the game as ``clan_feud`` (``clan-feud`` works too). It
holds the component data and their loaders: the reconstructed map of Scotland
(:mod:`~clangames.clan_feud.board`), the England track (:mod:`~clangames.clan_feud.england`),
the event and action cards (:mod:`~clangames.clan_feud.cards`) and the parser of the
card-effect vocabulary (:mod:`~clangames.clan_feud.effects`); and the rules of part 1
(:mod:`~clangames.clan_feud.rules`, :mod:`~clangames.clan_feud.military`,
:mod:`~clangames.clan_feud.interpret`), views (:mod:`~clangames.clan_feud.observation`)
and scoring (:mod:`~clangames.clan_feud.scoring`); and the action cards' actions of part 3
(:mod:`~clangames.clan_feud.playing`).
"""

from clangames.clan_feud.board import Board, SeaLane, Territory, load_board, parse_board
from clangames.clan_feud.cards import (
    ActionCard,
    ActionDeck,
    EventCard,
    EventDeck,
    FinalEvent,
    expressions,
    load_actions,
    load_events,
    parse_actions,
    parse_events,
)
from clangames.clan_feud.effects import (
    And,
    CombatEffect,
    Compare,
    Condition,
    Const,
    Expr,
    ExpressionError,
    Fewest,
    FilterItem,
    If,
    May,
    Most,
    Or,
    Primitive,
    Quantity,
    Repeat,
    Scaled,
    Seq,
    Timing,
    Truth,
    parse_combat,
    parse_expression,
    parse_timing,
)
from clangames.clan_feud.england import (
    ArmyLevel,
    EnglandTrack,
    Flame,
    load_england,
    parse_england,
)
from clangames.clan_feud.game import SPEC, ClanFeudGame
from clangames.clan_feud.observation import ClanFeudObservation
from clangames.clan_feud.playing import CardInfo, card_text
from clangames.clan_feud.state import Battle, ClanFeudState, Task

from clangames.clan_feud import encoding  # noqa: F401  (declares the interop data)  isort: skip

__all__ = [
    "SPEC",
    "ActionCard",
    "ActionDeck",
    "And",
    "ArmyLevel",
    "Battle",
    "Board",
    "CardInfo",
    "ClanFeudGame",
    "ClanFeudObservation",
    "ClanFeudState",
    "CombatEffect",
    "Compare",
    "Condition",
    "Const",
    "EnglandTrack",
    "EventCard",
    "EventDeck",
    "Expr",
    "ExpressionError",
    "Fewest",
    "FilterItem",
    "FinalEvent",
    "Flame",
    "If",
    "May",
    "Most",
    "Or",
    "Primitive",
    "Quantity",
    "Repeat",
    "Scaled",
    "SeaLane",
    "Seq",
    "Task",
    "Territory",
    "Timing",
    "Truth",
    "card_text",
    "expressions",
    "load_actions",
    "load_board",
    "load_england",
    "load_events",
    "parse_actions",
    "parse_board",
    "parse_combat",
    "parse_england",
    "parse_events",
    "parse_expression",
    "parse_timing",
]
