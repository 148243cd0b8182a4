"""A turn of Kilt Castle: relocate a building card, then every colour on it builds a floor
(with a roof when the second build lands on the first one's space), then a ducat day if
the relocation emptied a card row; the end of the game and its final pay-out.

This module is the hot path of search and simulation: legal actions come from shared
action objects indexed by card, position and space, and a move edits a :class:`Draft`
(the state thawed by the kernel) that is frozen once at the end. A choice with exactly
one option (one floor kind on one space, one roof to move) is applied without asking.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import add, itemgetter
from typing import TYPE_CHECKING, Any, Protocol

from clangames.engine.data import replace_at
from clangames.engine.draft import drafting, kept_apply, maker, owned_apply
from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.kilt_castle import scoring
from clangames.kilt_castle.actions import (
    CREST_WORDS,
    Build,
    KiltCastleAction,
    Lay,
    MoveRoof,
    Relocate,
    card_name,
)

if TYPE_CHECKING:
    from clangames.kilt_castle.game import KiltCastleGame
    from clangames.kilt_castle.state import KiltCastleState

OVER = Phase.over()

TARGET_MEMO_LIMIT = 1 << 14
"""Lay-outs (counts per position) whose target masks a game keeps before it forgets them
all (random play meets a few thousand)."""

ROOF_MEMO_LIMIT = 1 << 12
"""Roof lay-outs whose roof moves a game keeps before it forgets them all."""


_thaw: Callable[[KiltCastleState], Any]
_freeze: Callable[[Any], KiltCastleState]
"""The move's thaw (a copy) and freeze, specialised to KiltCastleState by
:func:`bind_state_type`."""

apply_owned: Callable[[KiltCastleState, Any, int], KiltCastleState]
""":func:`apply` on a state nobody else holds, which becomes its successor (the kernel's
fast path; see :mod:`clangames.engine.rollout`): no copy of its fields, and the thaw and
freeze inline (:func:`clangames.engine.draft.owned_apply` of :func:`_move`, made by
:func:`bind_state_type`)."""

apply_kept: Callable[[KiltCastleState, Any, int], KiltCastleState]
kept_state: Callable[[Any], KiltCastleState]
"""The fast path's kept draft (:func:`clangames.engine.draft.kept_apply` of :func:`_move`,
made by :func:`bind_state_type`): :func:`apply_owned` without the freeze, the draft edited
from one move to the next and frozen once by ``kept_state`` when the playout ends."""


def bind_state_type(state_type: type[KiltCastleState]) -> None:
    """Bind the moves' draft copier and freezer, and the fast path's moves, to the state
    class, once: the state module calls it right after defining the class (it imports
    this module, so this module cannot import the class at its own import time)."""
    global _thaw, _freeze, apply_owned, apply_kept, kept_state
    _thaw, _freeze = drafting(state_type)
    apply_owned = owned_apply(state_type, _move)
    apply_kept, kept_state = kept_apply(state_type, _move)


class Draft(Protocol):
    """A :class:`KiltCastleState` thawed for editing by one move (the kernel's
    :mod:`clangames.engine.draft`): the same fields, assignable until it is frozen."""

    game: KiltCastleGame
    phase: Phase
    positions: tuple[int, ...]
    inner: tuple[int, ...]
    towers: tuple[str, ...]
    roofed: int
    supply: Multiset
    money: tuple[int, ...]
    from_bank: int
    actor: int
    card: int
    builders: tuple[int, ...]
    first_space: int
    ducat_day: bool
    ending: bool
    turns: int
    idle: int
    options: tuple[KiltCastleAction, ...] | None


_memo_row = dict.__getitem__
"""A memo's look-up called as dict's own method: a dict subclass's ``memo[key]`` goes
through Python's generic slot for subclasses, several times the cost."""


# -- legal actions --------------------------------------------------------------------------
def legal_actions(s: KiltCastleState, player: int) -> tuple[KiltCastleAction, ...]:
    """The legal actions of the player to move, sorted by action id."""
    options = s.options  # kept only by a state that asks a builder (see settle)
    if options is not None:
        return options
    name = s.phase.name
    if name == "relocate":
        return relocations(s.game, s.positions)
    if name == "build":
        return build_options(
            s.game,
            s.towers,
            s.roofed,
            s.supply.counts,
            s.money,
            s.positions[s.card],
            s.builders[0],
        )
    if name == "roof":
        return roof_options(s.game, s.roofed)
    return ()


def relocations(
    game: KiltCastleGame, positions: tuple[int, ...] | list[int]
) -> tuple[KiltCastleAction, ...]:
    """Every legal relocation, sorted by action id (card, then target position).

    Which positions a card may move to depends only on where it lies and on how many
    cards lie at each position (:func:`target_masks`), not on which card lies where: the
    cards' positions are summed, in C, into one number holding a count per position, and
    the target masks of each such count are memoised per game (a few thousand recur in
    random play, while the positions themselves rarely repeat). Each card's actions for
    its mask come from the card's own memo (:class:`~clangames.kilt_castle.game.
    RelocationMemo`, which lists a missing mask itself), so the listing is a few C-level
    passes over the cards with no Python step per card."""
    # One getter picks each card's item of a per-position tuple; with two cards or more
    # (a board file with fewer is refused) it returns a tuple, one item per card.
    pick = itemgetter(*positions)
    counts = sum(pick(game.position_units))
    masks = game.target_memo.get(counts)
    if masks is None:
        masks = target_masks(game, positions, counts)
    found: list[KiltCastleAction] = []
    any(map(found.extend, map(_memo_row, game.relocation_memo, pick(masks))))
    return tuple(found)


def target_masks(
    game: KiltCastleGame, positions: tuple[int, ...] | list[int], counts: int
) -> tuple[int, ...]:
    """For each card position, the bitmask of the positions a card lying there may move
    to (0 where no card lies), for the lay-out ``positions``, whose count per position is
    ``counts`` (the memo's key, see :func:`relocations`); kept in ``game.target_memo``.

    A card's targets are judged on the lay-out after it leaves: at most ``max_row`` cards
    in the target row, at most ``max_rows`` non-empty rows, and a card landing on an empty
    position needs a card on the position behind it, one step counter-clockwise (with the
    ``relocation_neighbour="either"`` parameter: on either neighbour, one step either way).
    The track is a circle: position 0 lies just ahead of the last one. A card sharing its
    row leaves the lay-out's rows as they are, so all such cards share one target set (less
    their own position); only a lone card changes the rows by leaving."""
    last = game.last_position
    bits = game.position_bits
    sizes = [0] * (last + 1)
    occupied = 0
    for p in positions:
        sizes[p] += 1
        occupied |= bits[p]
    max_row = game.max_row
    full = 0
    for p in positions:
        if sizes[p] >= max_row:
            full |= bits[p]
    rows = occupied.bit_count()
    circle = game.all_positions
    either = game.relocation_either
    shared = occupied & ~full
    if rows < game.max_rows:
        # a new row may open just ahead of a card (bit p to p + 1, the last one to 0)...
        near = (occupied << 1) | (occupied >> last)
        if either:  # ...or, in the first reading, just behind one too
            near |= (occupied >> 1) | ((occupied & 1) << last)
        shared |= near & circle & ~occupied
    spread = rows - 1 < game.max_rows
    others = game.other_positions
    masks = [0] * (last + 1)
    for p in positions:
        if sizes[p] == 1:
            after = occupied ^ bits[p]
            mask = after & ~full
            if spread:
                near = (after << 1) | (after >> last)
                if either:
                    near |= (after >> 1) | ((after & 1) << last)
                mask |= near & circle & ~occupied
        else:
            mask = shared & others[p]
        masks[p] = mask
    memo = game.target_memo
    if len(memo) >= TARGET_MEMO_LIMIT:
        memo.clear()
    found = memo[counts] = tuple(masks)
    return found


def build_options(
    game: KiltCastleGame,
    towers: tuple[str, ...] | list[str],
    roofed: int,
    supply: tuple[int, ...] | list[int],
    money: tuple[int, ...] | list[int],
    position: int,
    colour: int,
) -> tuple[KiltCastleAction, ...]:
    """The builds open to ``colour`` for a card at ``position``, sorted by action id: the
    first empty space of the line (free) and every unroofed tower of the line whose price
    the builder can pay (free on their own top floor), each with every floor kind left.

    The line is walked once from the card's side (which finds the first empty space); a
    line runs straight, so its spaces are in id order or in reverse, and the builds of a
    reversed line are gathered back to front."""
    base = colour * 3
    if supply[base] and supply[base + 1] and supply[base + 2]:  # the usual case
        kinds = 7
    else:
        kinds = (
            (1 if supply[base] else 0)
            | (2 if supply[base + 1] else 0)
            | (4 if supply[base + 2] else 0)
        )
        if not kinds:
            return ()
    seat = game.owner[colour]
    cash = money[seat]
    floor_owner = game.letter_owner
    bits = game.space_bits
    table = game.build_actions
    line, backwards, line_mask = game.build_lines[position]
    roofed &= line_mask  # most lines carry no roof: one test then skips every bit test
    out: tuple[KiltCastleAction, ...] = ()
    empty_seen = False
    for space in line:
        tower = towers[space]
        if tower:
            # cheapest test first: a builder can usually pay, which settles the price
            if (len(tower) > cash and floor_owner[tower[-1]] != seat) or (
                roofed and roofed & bits[space]
            ):
                continue
        elif empty_seen:
            continue
        else:
            empty_seen = True
        if backwards:
            out = table[space][kinds] + out
        else:
            out += table[space][kinds]
    return out


def roof_options(game: KiltCastleGame, roofed: int) -> tuple[KiltCastleAction, ...]:
    """The placed roofs that may be moved, sorted by space (memoised per game by the
    roofed spaces' bitmask: a board has few roofs, so few masks recur)."""
    memo = game.roof_memo
    found = memo.get(roofed)
    if found is None:
        if len(memo) >= ROOF_MEMO_LIMIT:
            memo.clear()
        table = game.roof_actions
        found = memo[roofed] = tuple(
            table[space] for space in game.board.spaces if roofed >> space & 1
        )
    return found


# -- transitions -----------------------------------------------------------------------------
def apply(s: KiltCastleState, action: Any, player: int) -> KiltCastleState:
    """The successor state for a legal action (checked by the kernel beforehand)."""
    return _freeze(_move(_thaw(s), action, player))


def _move(d: Draft, action: Any, player: int) -> Draft:
    """The draft edited by the move: every kind of action's rule."""
    kind = type(action)
    if kind is Build:
        if build(d, action.row * d.game.cols + action.col, action.crests):
            if d.builders:
                settle(d)
            else:  # the turn's last builder: nothing left to settle
                end_turn(d)
    elif kind is Relocate:
        relocate(d, d.game.card_slot[action.card], action.to)
    elif kind is MoveRoof:
        move_roof(d, action.row * d.game.cols + action.col)
        settle(d)
    else:
        lay(d, d.game.card_slot[action.card], action.inner)
    return d


def lay(d: Draft, slot: int, inner: int) -> None:
    """Lay the next double card of the start lay-out; after the last one, the game starts."""
    game = d.game
    k = len(game.doubles) - d.positions.count(-1)  # single cards are laid from the start
    d.positions = replace_at(d.positions, slot, game.layout_slots[k])
    d.inner = replace_at(d.inner, slot, inner)
    if k + 1 == len(game.layout_slots):
        start_game(d)


def start_game(d: Draft) -> None:
    """The player whose colour faces away from the board on the lone card opens."""
    game = d.game
    lone = d.positions.index(game.start_position)
    colours = game.board.cards[game.cards[lone]]
    outer = colours[0] if len(colours) == 1 or colours[1] == d.inner[lone] else colours[1]
    start_turn(d, game.owner[outer])


def start_turn(d: Draft, seat: int) -> None:
    """``seat`` begins a turn: relocate a card."""
    d.actor = seat
    d.card = -1
    d.builders = ()
    d.first_space = -1
    d.turns += 1
    d.phase = d.game.relocate_phase[seat]


def relocate(d: Draft, slot: int, to: int) -> None:
    """Move the card, turn a double card over, note a ducat day if its row is now empty,
    then the colours on the card build in order: the one now facing the board first."""
    game = d.game
    positions = list(d.positions)
    source = positions[slot]
    positions[slot] = to
    d.positions = tuple(positions)
    d.card = slot
    turn_over = game.turn_over[slot]
    if turn_over is None:  # a single-colour card
        d.builders = game.card_colours[slot]
    else:
        faces = list(d.inner)
        inner, outer = turn_over[faces[slot]]
        faces[slot] = inner
        d.inner = tuple(faces)
        d.builders = (inner, outer)
    if source not in positions:
        d.ducat_day = True
    settle(d)


_pile = maker(Multiset)
"""``Multiset(counts)`` without attrs' ``__init__``: a build remakes the supply at every step."""


def build(d: Draft, space: int, crests: int) -> bool:
    """The current builder puts a floor on ``space``, paying for an overbuild; a second
    build on the first build's space gets a roof. False if the turn now waits for the
    builder to choose which placed roof moves."""
    game = d.game
    builders = d.builders
    colour = builders[0]
    towers = list(d.towers)
    tower = towers[space]
    if tower:
        seat = game.owner[colour]
        payee = game.letter_owner[tower[-1]]
        if payee != seat:
            money = list(d.money)
            price = len(tower)
            money[seat] -= price
            money[payee] += price
            d.money = tuple(money)
    kind = colour * 3 + crests
    towers[space] = tower + game.letter[kind]
    d.towers = tuple(towers)
    counts = list(d.supply.counts)
    left = counts[kind] = counts[kind] - 1
    d.supply = _pile(tuple(counts))
    if not left:
        base = colour * 3
        if not (counts[base] or counts[base + 1] or counts[base + 2]):
            d.ending = True
    d.builders = builders[1:]
    first = d.first_space
    if first < 0:
        d.first_space = space
        return True
    if space != first:
        return True
    placed = d.roofed.bit_count()
    if placed < game.board.roofs:  # an unused roof
        d.roofed |= 1 << space
        return True
    if placed == 0:  # a board without roofs
        return True
    if placed == 1:  # the only roof moves: nothing to choose
        d.roofed = 1 << space
        return True
    d.phase = game.roof_phase[game.owner[colour]]
    return False


def move_roof(d: Draft, source: int) -> None:
    """The roof on ``source`` moves onto the tower just built twice."""
    d.roofed = (d.roofed & ~(1 << source)) | 1 << d.first_space


def settle(d: Draft) -> None:
    """Carry the turn forward until someone must decide: each colour still to build either
    has no option (skips), exactly one (built at once) or several (asked); then the ducat
    day, the end of the game or the next turn."""
    game = d.game
    position = d.positions[d.card]
    builders = d.builders
    while builders:
        colour = builders[0]
        options = build_options(
            game, d.towers, d.roofed, d.supply.counts, d.money, position, colour
        )
        if not options:
            builders = d.builders = builders[1:]
            continue
        if len(options) > 1:
            d.phase = game.build_phase[colour]
            d.options = options
            return
        only: Any = options[0]
        if not build(d, only.row * game.cols + only.col, only.crests):
            return
        builders = d.builders
    end_turn(d)


def end_turn(d: Draft) -> None:
    """After the building: the ducat day if one is due, then the end of the game (a colour
    has built its last floor, or too many turns in a row passed without a floor) or the
    next player's turn."""
    game = d.game
    if d.first_space >= 0:
        d.idle = 0
    else:
        d.idle += 1
    if d.ducat_day:
        d.ducat_day = False
        pay(d, scoring.ducat_day(game, d.towers, d.roofed))
    if d.ending or d.idle >= game.stall_turns:
        pay(d, scoring.final_payout(game, d.towers, d.roofed))
        d.builders = ()
        d.phase = OVER
        return
    # start_turn, inlined: this runs once a turn
    seat = d.actor = game.next_seat[d.actor]
    d.card = -1
    d.builders = ()
    d.first_space = -1
    d.turns += 1
    d.phase = game.relocate_phase[seat]


def pay(d: Draft, amounts: tuple[int, ...]) -> None:
    """The bank pays each seat its amount."""
    d.money = tuple(map(add, d.money, amounts))
    d.from_bank += sum(amounts)


# -- words -------------------------------------------------------------------------------------
def _seat(s: KiltCastleState, seat: int) -> str:
    colours = s.game.board.colours
    return f"player {seat} ({'/'.join(colours[c] for c in s.game.seat_colours[seat])})"


def describe(s: KiltCastleState, action: Any) -> str:
    """A sentence about what ``action`` does in ``s``."""
    game = s.game
    board = game.board
    if isinstance(action, Lay):
        k = sum(1 for i in game.doubles if s.positions[i] >= 0)
        # asked about once the lay-out is complete (out of its turn) there is no position
        at = f" at position {game.layout_slots[k]}" if k < len(game.layout_slots) else ""
        return (
            f"the card {card_name(board, action.card)} is laid out{at}"
            f" with {board.colours[action.inner]} towards the board"
        )
    if isinstance(action, Relocate):
        slot = game.card_slot[action.card]
        source = s.positions[slot]
        emptied = sum(1 for p in s.positions if p == source) == 1
        tail = "; its row empties, so a ducat day follows the building" if emptied else ""
        return (
            f"{_seat(s, s.actor)} moves the {card_name(board, action.card)} card from position"
            f" {source} to {action.to}{tail}"
        )
    if isinstance(action, Build):
        space = board.space(action.row, action.col)
        colour = s.builders[0] if s.builders else 0
        tower = s.towers[space]
        what = f"a {CREST_WORDS[action.crests]} {board.colours[colour]} floor"
        if not tower:
            where = f"{action.row}.{action.col}"
            return f"{_seat(s, game.owner[colour])} builds {what} on the empty space {where}"
        payee = game.letter_owner[tower[-1]]
        price = (
            "free: the top floor is their own"
            if payee == game.owner[colour]
            else f"paying {len(tower)} ducat{'s' if len(tower) > 1 else ''} to player {payee}"
        )
        return (
            f"{_seat(s, game.owner[colour])} overbuilds the {len(tower)}-floor tower at"
            f" {action.row}.{action.col} with {what}, {price}"
        )
    if isinstance(action, MoveRoof):
        return (
            f"the roof on {action.row}.{action.col} moves onto the tower at"
            f" {board.label(s.first_space)}"
        )
    return repr(action)


def prompt(s: KiltCastleState) -> str:
    """What is being decided now."""
    name = s.phase.name
    game = s.game
    board = game.board
    if name == "relocate":
        return f"{_seat(s, s.actor)}: move a building card clockwise"
    if name == "build":
        colour = s.builders[0]
        side, index = board.positions[s.positions[s.card]]
        line = "column" if side in ("north", "south") else "row"
        return (
            f"{_seat(s, game.owner[colour])}: build one {board.colours[colour]} floor in {line}"
            f" {index} (from the {side})"
        )
    if name == "roof":
        return (
            f"{_seat(s, s.to_move[0])}: choose the roof that"
            f" moves onto {board.label(s.first_space)}"
        )
    if name == "over":
        return "the game is over"
    return "chance: lay out the next double-colour card"


def explain_illegal(s: KiltCastleState, action: Any, player: int) -> str:
    """Why a well-formed action is not legal here, as specifically as the rules allow."""
    game = s.game
    board = game.board
    text = game.action_text(action)
    here = f"{text!r} is not legal: "
    name = s.phase.name
    if isinstance(action, Relocate) and name == "relocate":
        slot = game.card_slot[action.card]
        source = s.positions[slot]
        if action.to == source:
            return here + "a card must move at least one position clockwise"
        sizes = [s.positions.count(q) for q in range(board.num_positions)]
        if sizes[action.to] >= game.max_row:
            return here + f"the card row at {action.to} already has {game.max_row} cards"
        rows = sum(1 for size in sizes if size) - (sizes[source] == 1)
        if sizes[action.to] == 0 and rows >= game.max_rows:
            return here + f"that would make more than {game.max_rows} card rows"
        if game.relocation_either:
            return here + f"a card alone at {action.to} needs a card on a neighbouring position"
        behind = (action.to - 1) % board.num_positions
        return (
            here + f"a card alone at {action.to} needs a card on the position behind it"
            f" ({behind}, counter-clockwise)"
        )
    if isinstance(action, Build) and name == "build":
        colour = s.builders[0]
        seat = game.owner[colour]
        space = board.space(action.row, action.col)
        line = board.lines[s.positions[s.card]]
        if s.supply.counts[colour * 3 + action.crests] == 0:
            return here + f"no {CREST_WORDS[action.crests]} {board.colours[colour]} floor is left"
        if space not in line:
            return here + f"{action.row}.{action.col} is not in the card's line"
        tower = s.towers[space]
        if not tower:
            return here + "only the first empty space of the line may be built on for free"
        if s.roofed >> space & 1:
            return here + "a tower with a roof cannot be overbuilt"
        return here + f"overbuilding costs {len(tower)} ducats; player {seat} has {s.money[seat]}"
    if isinstance(action, MoveRoof) and name == "roof":
        return here + f"there is no roof on {action.row}.{action.col}"
    # The front-ends list the legal actions themselves: this says only why not.
    return here + f"that is not a move of this step ({prompt(s)})"
