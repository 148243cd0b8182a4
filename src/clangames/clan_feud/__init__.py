"""Clan Feud (in progress): the data layer of the fourth game.

This package holds the game's component data and their loaders: the reconstructed map of
Scotland (:mod:`~clangames.clan_feud.board`), the England track
(:mod:`~clangames.clan_feud.england`), the event and action cards
(:mod:`~clangames.clan_feud.cards`) and the parser of the card-effect vocabulary
(:mod:`~clangames.clan_feud.effects`). The rules are not written yet, so the game is not
registered: ``clangames`` does not import this package.
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

__all__ = [
    "ActionCard",
    "ActionDeck",
    "And",
    "ArmyLevel",
    "Board",
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
    "Territory",
    "Timing",
    "Truth",
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
