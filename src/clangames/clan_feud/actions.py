"""Clan Feud actions: small frozen values with a valid-Python ``repr``, one table per game.

Territories are board indices, action card designs indices into the action deck's designs,
regular events indices into the event deck. The table is built from the loaded board and
cards in a fixed order (see :func:`build_action_table`); later parts of the game append
their kinds after these, so every id here stays the same.
"""

from __future__ import annotations

import attrs

from clangames.clan_feud.board import Board
from clangames.clan_feud.cards import ActionDeck, EventDeck
from clangames.engine.actions import ActionTable

COLOURS = ("white", "black", "gold", "green", "purple", "red", "temporary")
"""Die colours; a pool counts dice by (colour, value)."""
COLUMN_NAMES = ("feud", "income", "build", "intrigue", "military")
LEVEL_NAMES = ("I", "II", "III")
SLOT_NAMES = ("I-left", "I-right", "II", "III-left", "III-right")
TROOPS = ("infantry", "cavalry", "artillery")
WORDS = (
    "pass",
    "tokens",
    "stop",
    "recruit",
    "move",
    "king goes",
    "king stays",
    "continue",
    "retreat",
    "accept",
    "decline",
    "no card",
    "pay upkeep",
)
MAX_COMMIT = 40
"""Feud tokens one side may commit in a battle round (a product limit, see the rulings)."""
MAX_ROLL = 30
"""Casualty dice a round's winner may roll (a product limit)."""
MAX_UPKEEP = 26
"""The largest upkeep a clan can owe: 10 infantry, 4 cavalry, 2 artillery."""
MAX_TAKE = 10
"""The most troops of one type a clan has (its infantry supply)."""
MAX_OPTIONS = 4
"""The most options an event's OR offers."""


@attrs.frozen(slots=True, cache_hash=True)
class Word:
    """A one-word decision: pass, tokens, stop, recruit, move, continue, retreat, ..."""

    word: str


@attrs.frozen(slots=True, cache_hash=True)
class Seat:
    """Turn order: place seat ``seat`` next (or, for the regent's tie-break, name the tied
    player who sets the order)."""

    seat: int


@attrs.frozen(slots=True, cache_hash=True)
class Place:
    """Pick territory ``territory``: every choice of a place shares these actions."""

    territory: int


@attrs.frozen(slots=True, cache_hash=True)
class Assign:
    """Assign an unassigned die of ``colour`` showing ``value`` to ``column`` at ``level``
    (1-3); of two free slots of a level, the left one fills first."""

    colour: int
    value: int
    column: int
    level: int


@attrs.frozen(slots=True, cache_hash=True)
class Raise:
    """Feud benefit: one unassigned die of ``colour`` showing ``value`` goes up by 1."""

    colour: int
    value: int


@attrs.frozen(slots=True, cache_hash=True)
class ToThree:
    """Feud III benefit: one unassigned non-black die of ``colour`` showing 1 becomes 3."""

    colour: int


@attrs.frozen(slots=True, cache_hash=True)
class BuildSlot:
    """Build: buy what covers ``slot`` (1 I-right, 2 II, 3 III-left, 4 III-right) of
    ``column`` on the player board."""

    column: int
    slot: int


@attrs.frozen(slots=True, cache_hash=True)
class Take:
    """Recruit or move ``count`` troops of type ``troop`` (0 infantry, 1 cavalry, 2
    artillery)."""

    count: int
    troop: int


@attrs.frozen(slots=True, cache_hash=True)
class Option:
    """An event's OR: take option ``k`` (1-based)."""

    k: int


@attrs.frozen(slots=True, cache_hash=True)
class PlayCard:
    """Battle: commit an action card of design ``design`` (sealed until the reveal)."""

    design: int


@attrs.frozen(slots=True, cache_hash=True)
class Discard:
    """Discard an action card of design ``design`` from hand."""

    design: int


@attrs.frozen(slots=True, cache_hash=True)
class Commit:
    """Battle: commit ``k`` feud tokens (sealed until the reveal)."""

    k: int


@attrs.frozen(slots=True, cache_hash=True)
class Roll:
    """Battle: the round's winner rolls ``k`` casualty dice."""

    k: int


@attrs.frozen(slots=True, cache_hash=True)
class Lose:
    """Remove one troop of type ``troop`` (a casualty, or upkeep or an event removal)."""

    troop: int


@attrs.frozen(slots=True, cache_hash=True)
class PayFeud:
    """Upkeep: pay ``k`` of the amount due in feud tokens, the rest in pounds."""

    k: int


# -- chance outcomes ------------------------------------------------------------------------


@attrs.frozen(slots=True, cache_hash=True)
class StartAt:
    """Chance, set-up: the next seat starts in territory ``territory``."""

    territory: int


@attrs.frozen(slots=True, cache_hash=True)
class Lot:
    """Chance, set-up: seat ``seat`` takes the next place of the first turn order."""

    seat: int


@attrs.frozen(slots=True, cache_hash=True)
class Rolled:
    """Chance: a player's dice of ``colour`` came up ``ones`` 1s, ``twos`` 2s, ``threes``
    3s (identical dice are interchangeable, so only the counts matter)."""

    colour: int
    ones: int
    twos: int
    threes: int


@attrs.frozen(slots=True, cache_hash=True)
class Total:
    """Chance: a roll summed to ``k`` (Income II's black dice, a side's artillery)."""

    k: int


@attrs.frozen(slots=True, cache_hash=True)
class Hits:
    """Chance: casualty dice gave ``loser`` hits to the other side and ``winner`` to the
    roller's own side."""

    loser: int
    winner: int


@attrs.frozen(slots=True, cache_hash=True)
class DrawCard:
    """Chance: the action card drawn is of design ``design``."""

    design: int


@attrs.frozen(slots=True, cache_hash=True)
class DrawEvent:
    """Chance: the event drawn is regular event ``event``."""

    event: int


@attrs.frozen(slots=True, cache_hash=True)
class PlayAction:
    """Play an action card of design ``design`` for its action, in its timing window
    (appended by part 3; ``PlayCard`` is the battle commitment)."""

    design: int


@attrs.frozen(slots=True, cache_hash=True)
class Reroll:
    """A card's reroll: pick one unassigned die of ``colour`` showing ``value``."""

    colour: int
    value: int


ClanFeudAction = (
    Word
    | Seat
    | Place
    | Assign
    | Raise
    | ToThree
    | BuildSlot
    | Take
    | Option
    | PlayCard
    | Discard
    | Commit
    | Roll
    | Lose
    | PayFeud
    | StartAt
    | Lot
    | Rolled
    | Total
    | Hits
    | DrawCard
    | DrawEvent
    | PlayAction
    | Reroll
)

FACE_MAX = (3, 2, 3, 3, 3, 3, 3)
"""The highest face of each colour (a black die shows 1 or 2)."""


def dice_words(colour: int, counts: tuple[int, ...]) -> list[str]:
    """Dice of one ``colour`` by face, face before count: ``counts`` (how many show 1, 2,
    3) as ``["white 1", "white 2 x2"]``. The one notation of the clans table and the
    narration of a roll, so a player reads dice one way everywhere."""
    return [
        f"{COLOURS[colour]} {face}" + (f" x{n}" if n > 1 else "")
        for face, n in enumerate(counts, 1)
        if n
    ]


def max_dice(board: Board) -> tuple[int, ...]:
    """The most dice of each colour a clan can hold: 3 white + the Build column's white,
    the Build black die + one per city on the board, one gold, green, purple, red and a
    temporary one."""
    cities = sum(1 for t in board.territories if t.kind == "city")
    return (4, 1 + cities, 1, 1, 1, 1, 1)


def max_total(board: Board) -> int:
    """The largest summed roll: Income II rolls a black die per territory (2 each), and
    a side's artillery rolls 2 white dice each (at most 2 artillery: 12)."""
    return max(2 * board.size, 12)


def build_action_table(
    board: Board, actions: ActionDeck, events: EventDeck
) -> ActionTable[ClanFeudAction]:
    """Every distinct action in id order (legal actions come out sorted when generated in
    these orders): words, seats, territories, assignments, raises, builds, takes, options,
    cards, commitments, rolls, losses, feud payments, then the chance outcomes; part 3
    appends card plays and rerolls after them."""
    out: list[ClanFeudAction] = [Word(w) for w in WORDS]
    out += [Seat(s) for s in range(5)]
    out += [Place(t) for t in range(board.size)]
    out += [
        Assign(c, v, col, lvl)
        for c in range(len(COLOURS))
        for v in range(1, 4)
        for col in range(5)
        for lvl in range(1, v + 1)
    ]
    out += [Raise(c, v) for c in range(len(COLOURS)) for v in range(1, FACE_MAX[c])]
    out += [ToThree(c) for c in range(len(COLOURS)) if FACE_MAX[c] == 3]
    out += [BuildSlot(col, slot) for col in range(1, 5) for slot in range(1, 5)]
    out += [Take(k, troop) for troop in range(3) for k in range(MAX_TAKE + 1)]
    out += [Option(k) for k in range(1, MAX_OPTIONS + 1)]
    out += [PlayCard(d) for d in range(len(actions.designs))]
    out += [Discard(d) for d in range(len(actions.designs))]
    out += [Commit(k) for k in range(MAX_COMMIT + 1)]
    out += [Roll(k) for k in range(1, MAX_ROLL + 1)]
    out += [Lose(troop) for troop in range(3)]
    out += [PayFeud(k) for k in range(MAX_UPKEEP + 1)]
    out += [StartAt(t) for t in range(board.size)]
    out += [Lot(s) for s in range(5)]
    most = max_dice(board)
    for c in range(len(COLOURS)):
        for n in range(1, most[c] + 1):
            for ones in range(n, -1, -1):
                for twos in range(n - ones, -1, -1):
                    threes = n - ones - twos
                    if threes and FACE_MAX[c] < 3:
                        continue
                    out.append(Rolled(c, ones, twos, threes))
    out += [Total(k) for k in range(max_total(board) + 1)]
    out += [Hits(lo, w) for lo in range(MAX_ROLL + 1) for w in range(MAX_ROLL + 1)]
    out += [DrawCard(d) for d in range(len(actions.designs))]
    out += [DrawEvent(e) for e in range(len(events.regular))]
    # part 3, appended so that every id above stays: card plays and rerolls
    out += [PlayAction(d) for d in range(len(actions.designs))]
    out += [Reroll(c, v) for c in range(len(COLOURS)) for v in range(1, FACE_MAX[c] + 1)]
    ids = [t.id for t in board.territories]
    designs = [d.id for d in actions.designs]
    regular = [e.id for e in events.regular]

    def text(a: ClanFeudAction) -> str:
        if isinstance(a, Word):
            return a.word
        if isinstance(a, Seat):
            return f"seat {a.seat}"
        if isinstance(a, Place):
            return f"territory {ids[a.territory]}"
        if isinstance(a, Assign):
            return (
                f"assign {COLOURS[a.colour]} {a.value} to {COLUMN_NAMES[a.column]}"
                f" {LEVEL_NAMES[a.level - 1]}"
            )
        if isinstance(a, Raise):
            return f"raise {COLOURS[a.colour]} {a.value}"
        if isinstance(a, ToThree):
            return f"{COLOURS[a.colour]} 1 to 3"
        if isinstance(a, BuildSlot):
            return f"build {COLUMN_NAMES[a.column]} {SLOT_NAMES[a.slot]}"
        if isinstance(a, Take):
            return f"take {a.count} {TROOPS[a.troop]}"
        if isinstance(a, Option):
            return f"option {a.k}"
        if isinstance(a, PlayCard):
            return f"card {designs[a.design]}"
        if isinstance(a, Discard):
            return f"discard {designs[a.design]}"
        if isinstance(a, Commit):
            return f"commit {a.k}"
        if isinstance(a, Roll):
            return f"roll {a.k}"
        if isinstance(a, Lose):
            return f"lose {TROOPS[a.troop]}"
        if isinstance(a, PayFeud):
            return f"pay {a.k} feud"
        if isinstance(a, StartAt):
            return f"start at {ids[a.territory]}"
        if isinstance(a, Lot):
            return f"lot seat {a.seat}"
        if isinstance(a, Rolled):
            return f"rolled {COLOURS[a.colour]} {a.ones}x1 {a.twos}x2 {a.threes}x3"
        if isinstance(a, Total):
            return f"total {a.k}"
        if isinstance(a, Hits):
            return f"hits {a.loser}/{a.winner}"
        if isinstance(a, DrawCard):
            return f"draw {designs[a.design]}"
        if isinstance(a, DrawEvent):
            return f"event {regular[a.event]}"
        if isinstance(a, PlayAction):
            return f"play {designs[a.design]}"
        return f"reroll {COLOURS[a.colour]} {a.value}"

    return ActionTable(out, text)
