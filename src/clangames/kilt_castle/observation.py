"""What the players see (everything: Kilt Castle is a game of perfect information once the
cards are laid out) and the checks a saved state must pass."""

from __future__ import annotations

from operator import add, contains
from typing import TYPE_CHECKING, NoReturn

import attrs

from clangames.engine.errors import StateDecodeError

if TYPE_CHECKING:
    from clangames.kilt_castle.state import KiltCastleState

PHASES = ("layout", "relocate", "build", "roof", "over")


@attrs.frozen(slots=True)
class KiltCastleObservation:
    """The whole public table (``viewer`` -1 for the public view; every seat sees the same).

    Cards are indexed as in ``game.cards``; a floor kind is ``colour * 3 + crests``, one
    letter per floor in a tower string (``a`` + kind), bottom first; spaces are
    ``row * cols + col``; ``supply`` counts floors left by kind.
    """

    viewer: int
    phase: str
    to_move: tuple[int, ...]
    actor: int
    positions: tuple[int, ...]
    inner: tuple[int, ...]
    towers: tuple[str, ...]
    roofed: int
    roofs_unused: int
    supply: tuple[int, ...]
    money: tuple[int, ...]
    from_bank: int
    card: int
    builders: tuple[int, ...]
    first_space: int
    ducat_day: bool
    ending: bool
    turns: int
    idle: int

    def to_json(self) -> object:
        """Plain JSON data."""
        from clangames.engine.codec import encode

        return encode(self)


def observe(s: KiltCastleState, viewer: int | None) -> KiltCastleObservation:
    """The view of seat ``viewer`` (None: the public view); the whole state either way."""
    return KiltCastleObservation(
        viewer=-1 if viewer is None else viewer,
        phase=s.phase.name,
        to_move=s.to_move,
        actor=s.actor,
        positions=s.positions,
        inner=s.inner,
        towers=s.towers,
        roofed=s.roofed,
        roofs_unused=s.game.board.roofs - s.roofed.bit_count(),
        supply=s.supply.counts,
        money=s.money,
        from_bank=s.from_bank,
        card=s.card,
        builders=s.builders,
        first_space=s.first_space,
        ducat_day=s.ducat_day,
        ending=s.ending,
        turns=s.turns,
        idle=s.idle,
    )


def _fail(field: str, why: str) -> NoReturn:
    """Refuse a decoded state, naming the field and what was wrong with it."""
    raise StateDecodeError(f"state.{field}: {why}")


def check_consistency(s: KiltCastleState) -> None:
    """Raise StateDecodeError if a decoded state could not arise in a game."""
    game = s.game
    board = game.board
    n = game.num_players
    ncards = len(game.cards)
    kinds = len(board.colours) * 3

    fail = _fail

    if s.phase.name not in PHASES:
        fail("phase.name", f"expected one of {PHASES}, got {s.phase.name!r}")
    for p in s.phase.to_move:
        if not -1 <= p < n:
            fail("phase.to_move", f"expected seats 0..{n - 1} or -1, got {p}")
    for field, seq in (("positions", s.positions), ("inner", s.inner)):
        if len(seq) != ncards:
            fail(field, f"expected one entry per card in play ({ncards}), got {len(seq)}")
    positions = s.positions
    if not (
        min(positions, default=0) >= 0
        and max(positions, default=-1) < board.num_positions
        and all(map(contains, game.card_colours, s.inner))
    ):
        _check_cards(s)
    if len(s.towers) != board.rows * board.cols:
        fail("towers", f"expected {board.rows * board.cols} spaces, got {len(s.towers)}")
    towers = s.towers
    floors = "".join(towers)
    if set(floors) <= game.letters_in_play and not any(map(towers.__getitem__, board.water)):
        built = list(map(floors.count, game.letter))
    else:
        built = _count_floors(s)
    counts = s.supply.counts
    if len(counts) != kinds:
        fail("supply", f"expected {kinds} counts, got {len(counts)}")
    if min(counts) < 0 or list(map(add, counts, built)) != game.floors_in_all:
        for f in range(kinds):
            in_play = game.floor_owner[f] >= 0
            expected = board.floors[f % 3] if in_play else 0
            if counts[f] < 0 or counts[f] + built[f] != expected:
                fail(
                    "supply",
                    f"floor kind {f}: {counts[f]} left and {built[f]} built,"
                    f" expected {expected} in all",
                )
    if not 0 <= s.roofed < 1 << len(towers) or s.roofed.bit_count() > board.roofs:
        fail("roofed", f"at most {board.roofs} roofs on spaces of the grid, got {s.roofed:#x}")
    roofs = s.roofed
    while roofs:  # the roofed spaces in increasing order
        space = (roofs & -roofs).bit_length() - 1
        if not towers[space]:
            fail("roofed", f"a roof on the empty space {board.label(space)}")
        roofs &= roofs - 1
    if len(s.money) != n or min(s.money) < 0:
        fail("money", f"expected {n} non-negative amounts, got {list(s.money)}")
    if s.from_bank < 0 or sum(s.money) != board.start_money * n + s.from_bank:
        fail("from_bank", "the players' ducats do not add up to the start money plus the bank's")
    if not -1 <= s.actor < n:
        fail("actor", f"expected a seat or -1, got {s.actor}")
    if not -1 <= s.card < ncards:
        fail("card", f"expected a card index or -1, got {s.card}")
    for i, c in enumerate(s.builders):
        if c not in game.colours:
            fail(f"builders[{i}]", f"expected a colour in play, got {c}")
    if not -1 <= s.first_space < len(towers):
        fail("first_space", f"expected a space or -1, got {s.first_space}")
    if s.turns < 0 or s.idle < 0:
        fail("turns", "turn counters must not be negative")
    name = s.phase.name
    to_move = s.phase.to_move
    if name in ("build", "roof") and (s.card < 0 or (not s.builders and name == "build")):
        fail("builders", f"the {name} step needs a relocated card and a builder")
    if name == "build" and to_move != (game.owner[s.builders[0]],):
        fail("phase.to_move", "the build step belongs to the owner of the building colour")
    if name == "layout" and to_move != (-1,):
        fail("phase.to_move", "the lay-out is a chance node")
    if name == "over" and to_move != ():
        fail("phase.to_move", "nobody moves once the game is over")
    if name == "roof" and (s.first_space < 0 or s.roofed.bit_count() < 2):
        fail("roofed", "the roof step needs two placed roofs and a built space")
    if name == "relocate" and to_move != (s.actor,):
        fail("phase.to_move", "the relocation belongs to the actor")
    if name == "layout":
        _check_layout(s)
        return
    # Out of the lay-out every card lies in a row (checked above): count the rows.
    rows = set(positions)
    if max(map(positions.count, rows), default=0) > game.max_row:
        fail("positions", f"a card row holds more than {game.max_row} cards")
    if len(rows) > game.max_rows:
        fail("positions", f"more than {game.max_rows} card rows")
    _check_turn(s)


def _check_cards(s: KiltCastleState) -> None:
    """Each card's position and inner colour, card by card (the first problem raised)."""
    game = s.game
    board = game.board

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    for i in range(len(game.cards)):
        colours = board.cards[game.cards[i]]
        if not -1 <= s.positions[i] < board.num_positions:
            fail(f"positions[{i}]", f"expected a card position or -1, got {s.positions[i]}")
        if s.inner[i] not in colours:
            fail(f"inner[{i}]", f"expected one of the card's colours {colours}, got {s.inner[i]}")
        if s.positions[i] < 0 and (s.phase.name != "layout" or i not in game.doubles):
            fail(f"positions[{i}]", "only a double card may wait to be laid out, in the lay-out")


def _count_floors(s: KiltCastleState) -> list[int]:
    """The floors built per kind, tower by tower (the first bad tower raised)."""
    game = s.game
    board = game.board
    kinds = len(board.colours) * 3

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    built = [0] * kinds
    for space, tower in enumerate(s.towers):
        if tower and space in board.water:
            fail(f"towers[{space}]", "a floor stands on water")
        for letter in tower:
            f = ord(letter) - 97
            if not 0 <= f < kinds or game.floor_owner[f] < 0:
                fail(f"towers[{space}]", f"{letter!r} is not a floor of a colour in play")
            built[f] += 1
    return built


def _check_layout(s: KiltCastleState) -> None:
    """The start lay-out so far: nothing else has happened, and the double cards laid lie
    in the first start slots, each card row within the colour limit."""
    game = s.game
    board = game.board

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    untouched = (
        s.actor == -1
        and s.card == -1
        and not s.builders
        and s.first_space == -1
        and not any(s.towers)
        and not s.roofed
        and s.from_bank == 0
        and s.turns == 0
        and s.idle == 0
        and not s.ducat_day
        and not s.ending
    )
    if not untouched:
        fail("phase", "during the lay-out no turn has begun: nothing is built, moved or paid")
    laid = sorted(s.positions[i] for i in game.doubles if s.positions[i] >= 0)
    slots = game.layout_slots
    if len(laid) >= len(slots) or laid != sorted(slots[: len(laid)]):
        fail(
            "positions",
            f"the lay-out fills the start slots {list(slots)} in order; the laid double cards"
            f" lie at {laid}",
        )
    for i in game.doubles:
        if s.positions[i] < 0 and s.inner[i] != board.cards[game.cards[i]][0]:
            fail(f"inner[{i}]", "a card still to be laid out has no side chosen yet")
    for slot in set(laid):
        counts = [0] * len(board.colours)
        for i in game.doubles:
            if s.positions[i] == slot:
                for c in board.cards[game.cards[i]]:
                    counts[c] += 1
        if max(counts) > board.max_same_colour:
            fail(
                "positions",
                f"the card row at {slot} shows a colour more than {board.max_same_colour} times",
            )


def _check_turn(s: KiltCastleState) -> None:
    """What the steps of a turn require of the card, the builders and the roofs."""
    game = s.game
    board = game.board
    name = s.phase.name

    fail = _fail

    if s.actor < 0 or s.turns < 1:
        fail("actor", f"the {name} step comes after the lay-out: a seat is on turn")
    if name != "over" and s.idle >= game.stall_turns:
        fail("idle", f"the game ends after {game.stall_turns} turns in a row without a floor")
    if s.first_space >= 0 and not s.towers[s.first_space]:
        fail("first_space", "the first floor of this turn stands on that space")
    if name == "relocate":
        if s.card != -1 or s.builders or s.first_space != -1 or s.ducat_day or s.ending:
            fail("card", "a turn begins with nothing relocated, built or pending")
        for colour in game.colours:
            if not any(s.supply.counts[colour * 3 : colour * 3 + 3]):
                fail(
                    "supply", f"{board.colours[colour]} has built its last floor: the game is over"
                )
        return
    if name == "over":
        if s.builders:
            fail("builders", "nobody builds once the game is over")
        return
    colours = board.cards[game.cards[s.card]]
    inner = s.inner[s.card]
    order: tuple[int, ...] = (
        colours if len(colours) == 1 else (inner, colours[0] + colours[1] - inner)
    )
    if s.builders != order[len(order) - len(s.builders) :]:
        fail("builders", f"the card's colours build in the order {order}, got {s.builders}")
    if len(s.builders) == len(order) and s.first_space != -1:
        fail("first_space", "nothing is built before the first colour builds")
    if name == "roof":
        if len(colours) != 2 or s.phase.to_move != (game.owner[order[1]],):
            fail("phase.to_move", "the roof belongs to the second colour's player")
        if s.roofed >> s.first_space & 1 or s.roofed.bit_count() != board.roofs:
            fail("roofed", "a roof moves only when every roof is placed, onto an unroofed tower")
