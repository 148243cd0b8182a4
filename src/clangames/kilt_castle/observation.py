"""What the players see (everything: Kilt Castle is a game of perfect information once the
cards are laid out) and the checks a saved state must pass."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from itertools import repeat
from operator import add, and_, contains, eq, itemgetter
from typing import TYPE_CHECKING, NoReturn

import attrs

from clangames.engine.errors import StateDecodeError

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame
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
    # The decoder runs this on every state it reads: each field is read once into a local,
    # sizes come from the game's tables (no properties), and every test takes the usual
    # case in one built-in over a whole tuple. The tests and their order are the rules'.
    game = s.game
    board = game.board
    n = len(game.seat_colours)  # one entry per player
    ncards = len(game.cards)
    phase = s.phase
    name = phase.name
    to_move = phase.to_move
    positions = s.positions
    inner = s.inner
    towers = s.towers
    roofed = s.roofed
    money = s.money
    actor = s.actor
    card = s.card
    builders = s.builders
    first_space = s.first_space

    fail = _fail

    if name not in PHASES:
        fail("phase.name", f"expected one of {PHASES}, got {name!r}")
    for p in to_move:
        if not -1 <= p < n:
            fail("phase.to_move", f"expected seats 0..{n - 1} or -1, got {p}")
    if len(positions) != ncards:
        fail("positions", f"expected one entry per card in play ({ncards}), got {len(positions)}")
    if len(inner) != ncards:
        fail("inner", f"expected one entry per card in play ({ncards}), got {len(inner)}")
    tables = _quick_of(game)
    ordered = sorted(positions)  # also counts the card rows, below
    if not (
        ordered
        and ordered[0] >= 0
        and ordered[-1] < len(board.positions)
        and (
            inner in tables.inners
            if tables.inners is not None
            else all(map(contains, game.card_colours, inner))
        )
    ):
        _check_cards(s)
    spaces = len(towers)
    if spaces != board.rows * board.cols:
        fail("towers", f"expected {board.rows * board.cols} spaces, got {spaces}")
    floors = "".join(towers)
    counts = s.supply.counts
    # The usual case at once: the supply and the floors built add up to every floor of
    # the game, so no floor is of a colour out of play and nothing else stands in the
    # towers. Counted in one number with a byte per floor kind (see _Quick), without a
    # call per kind; otherwise the checks in their order.
    left = -1  # the supply as one number, a byte per kind (-1: a count outside 0..255)
    try:
        left = int.from_bytes(bytes(counts), "little")
        quick = (
            len(counts) == tables.kinds
            and len(floors) + sum(counts) < 256
            and sum(map(tables.weight.__getitem__, floors)) + left == tables.total
        )
    except (KeyError, ValueError):  # a letter of no kind, a count outside 0..255
        quick = False
    if not quick or tables.water(towers) != tables.dry:
        built = list(map(floors.count, game.letter))
        if not set(floors) <= game.letters_in_play or any(map(towers.__getitem__, board.water)):
            built = _count_floors(s)
        _check_supply(s, built)
    roof_count = roofed.bit_count()
    if not 0 <= roofed < 1 << spaces or roof_count > board.roofs:
        fail("roofed", f"at most {board.roofs} roofs on spaces of the grid, got {roofed:#x}")
    roofs = roofed
    while roofs:  # the roofed spaces in increasing order
        space = (roofs & -roofs).bit_length() - 1
        if not towers[space]:
            fail("roofed", f"a roof on the empty space {board.label(space)}")
        roofs &= roofs - 1
    if len(money) != n or min(money) < 0:
        fail("money", f"expected {n} non-negative amounts, got {list(money)}")
    if s.from_bank < 0 or sum(money) != board.start_money * n + s.from_bank:
        fail("from_bank", "the players' ducats do not add up to the start money plus the bank's")
    if not -1 <= actor < n:
        fail("actor", f"expected a seat or -1, got {actor}")
    if not -1 <= card < ncards:
        fail("card", f"expected a card index or -1, got {card}")
    colours_in_play = game.colours
    if not tables.colours.issuperset(builders):
        for i, c in enumerate(builders):
            if c not in colours_in_play:
                fail(f"builders[{i}]", f"expected a colour in play, got {c}")
    if not -1 <= first_space < spaces:
        fail("first_space", f"expected a space or -1, got {first_space}")
    if s.turns < 0 or s.idle < 0:
        fail("turns", "turn counters must not be negative")
    if name == "relocate":
        if to_move != (actor,):
            fail("phase.to_move", "the relocation belongs to the actor")
    elif name == "build":
        if card < 0 or not builders:
            fail("builders", f"the {name} step needs a relocated card and a builder")
        if to_move != (game.owner[builders[0]],):
            fail("phase.to_move", "the build step belongs to the owner of the building colour")
    elif name == "roof":
        if card < 0:
            fail("builders", f"the {name} step needs a relocated card and a builder")
        if first_space < 0 or roof_count < 2:
            fail("roofed", "the roof step needs two placed roofs and a built space")
    elif name == "over":
        if to_move != ():
            fail("phase.to_move", "nobody moves once the game is over")
    else:  # the lay-out
        if to_move != (-1,):
            fail("phase.to_move", "the lay-out is a chance node")
        _check_layout(s)
        return
    # Out of the lay-out every card lies in a row (checked above): count the rows. In
    # the sorted positions, a row of more than max_row cards has a card equal to the one
    # max_row places further on.
    max_row = game.max_row
    if any(map(eq, ordered, ordered[max_row:])):
        fail("positions", f"a card row holds more than {max_row} cards")
    if len(set(ordered)) > game.max_rows:
        fail("positions", f"more than {game.max_rows} card rows")
    # What the steps of a turn require of the card, the builders and the roofs.
    if actor < 0 or s.turns < 1:
        fail("actor", f"the {name} step comes after the lay-out: a seat is on turn")
    if name != "over" and s.idle >= game.stall_turns:
        fail("idle", f"the game ends after {game.stall_turns} turns in a row without a floor")
    if first_space >= 0 and not towers[first_space]:
        fail("first_space", "the first floor of this turn stands on that space")
    if name == "relocate":
        if card != -1 or builders or first_space != -1 or s.ducat_day or s.ending:
            fail("card", "a turn begins with nothing relocated, built or pending")
        # Every colour in play has a floor left: a byte of its three in the supply's number
        # (the counts passed the supply check, so none is negative).
        if left >= 0 and all(map(and_, repeat(left), tables.colour_bytes)):
            return
        for colour in colours_in_play:
            if not any(counts[colour * 3 : colour * 3 + 3]):
                fail(
                    "supply", f"{board.colours[colour]} has built its last floor: the game is over"
                )
        return
    if name == "over":
        if builders:
            fail("builders", "nobody builds once the game is over")
        return
    colours = game.card_colours[card]
    order: tuple[int, ...] = (
        colours if len(colours) == 1 else (inner[card], colours[0] + colours[1] - inner[card])
    )
    if builders != order[len(order) - len(builders) :]:
        fail("builders", f"the card's colours build in the order {order}, got {builders}")
    if len(builders) == len(order) and first_space != -1:
        fail("first_space", "nothing is built before the first colour builds")
    if name == "roof":
        if len(colours) != 2 or to_move != (game.owner[order[1]],):
            fail("phase.to_move", "the roof belongs to the second colour's player")
        if roofed >> first_space & 1 or roof_count != board.roofs:
            fail("roofed", "a roof moves only when every roof is placed, onto an unroofed tower")


@attrs.frozen(slots=True)
class _Quick:
    """What :func:`check_consistency`'s quick tests use, made once per game. Floor kind f
    weighs ``256 ** f``: the towers' letters summed by weight and the supply's counts read
    as bytes (little-endian) make one number whose byte f is kind f's floors built plus
    left. While the floors and counts add up to less than 256 no byte carries, so that
    number equals ``total`` exactly when every kind adds up to its floors in the game."""

    game: KiltCastleGame
    kinds: int
    """How many floor kinds (the supply's length)."""
    weight: dict[str, int]
    """A tower letter's weight, by the letter."""
    total: int
    """Every kind's floors in the game, one byte per kind."""
    colours: frozenset[int]
    """The colours in play."""
    colour_bytes: tuple[int, ...]
    """Per colour in play, the bytes of its three kinds in such a number."""
    inners: frozenset[tuple[int, ...]] | None
    """Every ``inner`` the cards allow (a colour of each card), or None when there would
    be more than :data:`_MOST_INNERS` of them: one hashed tuple instead of a call per card."""
    water: Callable[[tuple[str, ...]], object]
    """The towers on the water spaces, picked out of the towers in one C call."""
    dry: object
    """What :attr:`water` picks out of a grid with nothing built."""


_QUICK: dict[int, _Quick] = {}
"""By a loaded game's ``id`` (the game kept alive in its entry); emptied when it holds
many."""


def _quick_of(game: KiltCastleGame) -> _Quick:
    """The game's :class:`_Quick`, made on first use."""
    found = _QUICK.get(id(game))
    if found is None or found.game is not game:
        if len(_QUICK) >= 64:
            _QUICK.clear()
        # (an itemgetter of one space gives that tower itself; of none, an empty slice)
        spaces = sorted(game.board.water)
        water = itemgetter(*spaces) if spaces else _NO_SPACES
        found = _QUICK[id(game)] = _Quick(
            game=game,
            kinds=len(game.letter),
            weight={letter: 256**f for f, letter in enumerate(game.letter)},
            total=sum(count * 256**f for f, count in enumerate(game.floors_in_all)),
            colours=frozenset(game.colours),
            colour_bytes=tuple(0xFFFFFF << 24 * colour for colour in game.colours),
            inners=(
                frozenset(itertools.product(*game.card_colours))
                if math.prod(map(len, game.card_colours)) <= _MOST_INNERS
                else None
            ),
            water=water,
            dry=water(("",) * (game.board.rows * game.board.cols)),
        )
    return found


_MOST_INNERS = 4096
"""The most ``inner`` tuples :class:`_Quick` lists (2 ** 12: twelve double cards)."""
_NO_SPACES = itemgetter(slice(0, 0))


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


def _check_supply(s: KiltCastleState, built: list[int]) -> None:
    """The supply, kind by kind: what is left and what is ``built`` make up each colour
    in play's floors (and nothing of a colour out of play); the first problem raised."""
    game = s.game
    board = game.board
    counts = s.supply.counts
    kinds = len(game.letter)
    if len(counts) != kinds:
        _fail("supply", f"expected {kinds} counts, got {len(counts)}")
    if min(counts) < 0 or list(map(add, counts, built)) != game.floors_in_all:
        for f in range(kinds):
            in_play = game.floor_owner[f] >= 0
            expected = board.floors[f % 3] if in_play else 0
            if counts[f] < 0 or counts[f] + built[f] != expected:
                _fail(
                    "supply",
                    f"floor kind {f}: {counts[f]} left and {built[f]} built,"
                    f" expected {expected} in all",
                )


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
