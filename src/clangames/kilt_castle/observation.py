"""What the players see (everything: Kilt Castle is a game of perfect information once the
cards are laid out) and the checks a saved state must pass."""

from __future__ import annotations

from typing import TYPE_CHECKING

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


def check_consistency(s: KiltCastleState) -> None:
    """Raise StateDecodeError if a decoded state could not arise in a game."""
    game = s.game
    board = game.board
    n = game.num_players
    ncards = len(game.cards)
    kinds = len(board.colours) * 3

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    if s.phase.name not in PHASES:
        fail("phase.name", f"expected one of {PHASES}, got {s.phase.name!r}")
    for p in s.phase.to_move:
        if not -1 <= p < n:
            fail("phase.to_move", f"expected seats 0..{n - 1} or -1, got {p}")
    for field, seq in (("positions", s.positions), ("inner", s.inner)):
        if len(seq) != ncards:
            fail(field, f"expected one entry per card in play ({ncards}), got {len(seq)}")
    for i in range(ncards):
        colours = board.cards[game.cards[i]]
        if not -1 <= s.positions[i] < board.num_positions:
            fail(f"positions[{i}]", f"expected a card position or -1, got {s.positions[i]}")
        if s.inner[i] not in colours:
            fail(f"inner[{i}]", f"expected one of the card's colours {colours}, got {s.inner[i]}")
        if s.positions[i] < 0 and (s.phase.name != "layout" or i not in game.doubles):
            fail(f"positions[{i}]", "only a double card may wait to be laid out, in the lay-out")
    if len(s.towers) != board.rows * board.cols:
        fail("towers", f"expected {board.rows * board.cols} spaces, got {len(s.towers)}")
    built = [0] * kinds
    for space, tower in enumerate(s.towers):
        if tower and space in board.water:
            fail(f"towers[{space}]", "a floor stands on water")
        for letter in tower:
            f = ord(letter) - 97
            if not 0 <= f < kinds or game.floor_owner[f] < 0:
                fail(f"towers[{space}]", f"{letter!r} is not a floor of a colour in play")
            built[f] += 1
    if len(s.supply.counts) != kinds:
        fail("supply", f"expected {kinds} counts, got {len(s.supply.counts)}")
    for f in range(kinds):
        in_play = game.floor_owner[f] >= 0
        expected = board.floors[f % 3] if in_play else 0
        if s.supply.counts[f] < 0 or s.supply.counts[f] + built[f] != expected:
            fail(
                "supply",
                f"floor kind {f}: {s.supply.counts[f]} left and {built[f]} built,"
                f" expected {expected} in all",
            )
    if not 0 <= s.roofed < 1 << len(s.towers) or s.roofed.bit_count() > board.roofs:
        fail("roofed", f"at most {board.roofs} roofs on spaces of the grid, got {s.roofed:#x}")
    for space in range(len(s.towers)):
        if s.roofed >> space & 1 and not s.towers[space]:
            fail("roofed", f"a roof on the empty space {board.label(space)}")
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
    if not -1 <= s.first_space < len(s.towers):
        fail("first_space", f"expected a space or -1, got {s.first_space}")
    if s.turns < 0 or s.idle < 0:
        fail("turns", "turn counters must not be negative")
    name = s.phase.name
    if name in ("build", "roof") and (s.card < 0 or (not s.builders and name == "build")):
        fail("builders", f"the {name} step needs a relocated card and a builder")
    if name == "build" and s.phase.to_move != (game.owner[s.builders[0]],):
        fail("phase.to_move", "the build step belongs to the owner of the building colour")
    if name == "layout" and s.phase.to_move != (-1,):
        fail("phase.to_move", "the lay-out is a chance node")
    if name == "over" and s.phase.to_move != ():
        fail("phase.to_move", "nobody moves once the game is over")
    if name == "roof" and (s.first_space < 0 or s.roofed.bit_count() < 2):
        fail("roofed", "the roof step needs two placed roofs and a built space")
    if name == "relocate" and s.phase.to_move != (s.actor,):
        fail("phase.to_move", "the relocation belongs to the actor")
    sizes = [0] * board.num_positions
    for p in s.positions:
        if p >= 0:
            sizes[p] += 1
    if name != "layout":
        if max(sizes) > game.max_row:
            fail("positions", f"a card row holds more than {game.max_row} cards")
        if sum(1 for size in sizes if size) > game.max_rows:
            fail("positions", f"more than {game.max_rows} card rows")
