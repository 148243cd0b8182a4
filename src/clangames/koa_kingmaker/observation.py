"""What each player may know, re-dealing what they cannot see, and checking saved states.

Private: a house's hand, its face-down card until the reveal, its inheritance number.
Public: courts, discard piles, the centre pile, hand sizes, who has a card face down, who
is out, who holds an inheritance card, every card once revealed, and (once the game is
over) every inheritance number, since the players show them to settle a tie.

Every card of a house is accounted for by what is public, so between rounds a house's
hand is known to all. What stays hidden is which card of its hand a house put face down
(until the reveal) and the other houses' inheritance numbers: those are what
:func:`resample` deals again.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, NoReturn

import attrs

from clangames.engine.codec import describe
from clangames.engine.errors import StateDecodeError
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.simultaneous import NOT_COMMITTED, Commitments
from clangames.koa_kingmaker.cards import (
    BANNER,
    CHARACTERS,
    KEEPERS,
    KINDS,
    MAX_HOUSES,
    NOMINATION,
    NOMINATIONS,
    ROYAL,
    ROYALTY,
    full_set,
)
from clangames.koa_kingmaker.rules import PHASE_NAMES, sealing_house

if TYPE_CHECKING:
    from clangames.koa_kingmaker.game import KoaGame
    from clangames.koa_kingmaker.state import KoaState


@attrs.frozen(slots=True)
class KoaObservation:
    """One player's view (``viewer`` -1 for the public view). Card sets are bitmasks of
    card kinds, one entry per house."""

    viewer: int
    phase: str
    to_move: tuple[int, ...]
    round: int
    alive: int
    out_round: tuple[int, ...]
    courts: tuple[int, ...]
    discards: tuple[int, ...]
    centre: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    hand: int
    """The viewer's hand; 0 in the public view."""
    inheritance: tuple[int, ...]
    """The viewer's own number (others 0) until the end, then every number."""
    committed: tuple[bool, ...]
    """Who has a card face down on the table."""
    table: tuple[int, ...]
    """The cards on the table: before the reveal only the viewer's own (others -1)."""
    played: tuple[int, ...]
    """The cards of the latest reveal (this round's once revealed, else the last round's)."""
    recovering: tuple[int, ...]
    hits: tuple[tuple[int, int], ...]
    scored: int
    dealt: int
    """The houses holding an inheritance card, as a bitmask: each lies face down in front of
    its house, so who has one is public while its number is not."""


def observe(s: KoaState, viewer: int | None) -> KoaObservation:
    """The view of seat ``viewer`` (None: what everyone may know)."""
    sealed = s.phase.name in ("seal", "commit")
    if sealed:
        table = (NOT_COMMITTED,) * MAX_HOUSES if viewer is None else s.table.seen_by(viewer)
    else:
        table = s.table.ids
    if s.phase.name == "over":
        inheritance = s.inheritance
    elif viewer is None:
        inheritance = (0,) * MAX_HOUSES
    else:
        inheritance = tuple(k if h == viewer else 0 for h, k in enumerate(s.inheritance))
    return KoaObservation(
        viewer=-1 if viewer is None else viewer,
        phase=s.phase.name,
        to_move=s.to_move,
        round=s.round,
        alive=s.alive,
        out_round=s.out_round,
        courts=s.courts,
        discards=s.discards,
        centre=s.centre,
        hand_sizes=tuple(h.bit_count() for h in s.hands),
        hand=0 if viewer is None else s.hands[viewer],
        inheritance=inheritance,
        committed=s.table.committed() if sealed else (False,) * MAX_HOUSES,
        table=table,
        played=s.played,
        recovering=s.recovering,
        hits=s.hits,
        scored=s.scored,
        dealt=sum(1 << h for h, k in enumerate(s.inheritance) if k),
    )


def resample(s: KoaState, viewer: int, rng: Rng) -> KoaState:
    """A state ``viewer`` cannot tell apart from ``s``: every other house's face-down card
    is chosen again among the cards it could have committed (its hand and that card),
    and the other houses' inheritance numbers are dealt again from the numbers the viewer
    does not hold."""
    game = s.game
    table = s.table
    hands = s.hands
    if s.phase.name in ("seal", "commit"):
        ids = list(table.ids)
        new_hands = list(hands)
        nominable = CHARACTERS | s.alive << NOMINATION
        for h, card in enumerate(table.ids):
            if h == viewer or card == NOT_COMMITTED:
                continue
            pool = hands[h] | 1 << card
            options = game.bits[pool & nominable]
            pick, rng = rng.below(len(options))
            ids[h] = options[pick]
            new_hands[h] = pool & ~(1 << options[pick])
        table = Commitments(tuple(ids))
        hands = tuple(new_hands)
    inheritance = s.inheritance
    if s.phase.name != "over":
        others = [h for h, k in enumerate(inheritance) if k and h != viewer]
        mine = inheritance[viewer]
        numbers = [k for k in range(1, game.max_number + 1) if k != mine]
        numbers_shuffled, rng = rng.shuffled(numbers)
        redealt = list(inheritance)
        for h, k in zip(others, numbers_shuffled, strict=False):
            redealt[h] = k
        inheritance = tuple(redealt)
    return attrs.evolve(s, table=table, hands=hands, inheritance=inheritance)


def check_consistency(s: KoaState) -> None:
    """Raise StateDecodeError if a decoded state could not arise in a game."""
    try:
        quick = _houses_look_consistent(s)
    except Exception:  # odd data: the detailed check words what is wrong
        quick = False
    if not quick:
        _check_houses(s)
    _check_steps(s)


IN_COURT = KEEPERS | 1 << BANNER | NOMINATIONS
"""What a court can hold: its Royalty and the Jester or Banner played to it (step 2), and
the nominations kept for a last hit."""

_CARD_BIT = (*(1 << card for card in range(ROYAL)), 0)
"""The bit of a card on the table by its kind; index -1 (nothing there) gives 0."""


def _houses_look_consistent(s: KoaState) -> bool:
    """True only if :func:`_check_houses` passes, tested in one lean pass over the houses
    (locals, no error text; the decoder runs this on every state it reads). False says
    nothing: the detailed check then finds and words the problem."""
    game = s.game
    houses = game.houses
    inheritance = s.inheritance
    out_round = s.out_round
    hands = s.hands
    courts = s.courts
    discards = s.discards
    centre = s.centre
    ids = s.table.ids
    played = s.played
    alive = s.alive
    rounds = s.round
    if not (
        len(inheritance)
        == len(out_round)
        == len(hands)
        == len(courts)
        == len(discards)
        == len(centre)
        == len(ids)
        == len(played)
        == MAX_HOUSES
        and s.phase.name in PHASE_NAMES
        and rounds >= 0
        and 0 <= alive < 1 << houses
    ):
        return False
    highest = game.max_number
    if houses < MAX_HOUSES:
        # The seats of houses not in the game hold nothing: whole-tail comparisons in C
        # say what the loop below would say of each (a full set of 0, no number, out -1).
        zeros, unset = _ABSENT[houses]
        tail = played[houses:]
        if not (
            hands[houses:] == courts[houses:] == discards[houses:] == centre[houses:] == zeros
            and inheritance[houses:] == zeros
            and ids[houses:] == out_round[houses:] == unset
            and min(tail) >= -1
            and max(tail) < ROYAL
        ):
            return False
    numbers = 0  # the inheritance numbers seen, as a bitmask
    living = alive  # shifted right once per house: bit 0 is the house's
    for full, hand, court, discard, middle, card, number, shown, out in zip(
        _full_sets(game)[:houses],
        hands,
        courts,
        discards,
        centre,
        ids,
        inheritance,
        played,
        out_round,
        strict=False,  # the houses in the game: the per-house fields have MAX_HOUSES
    ):
        if not (-1 <= card < ROYAL and -1 <= shown < ROYAL and 0 <= number <= highest):
            return False
        if number:
            if numbers >> number & 1:
                return False
            numbers |= 1 << number
        # Exactly the house's own set, no card in two places: the union is the set (a
        # negative part would make it negative) and the parts add up to it as numbers
        # (non-negative numbers add up to more than their union as soon as two share a
        # bit, a card).
        bit = _CARD_BIT[card]
        if (
            hand | court | discard | middle | bit != full
            or hand + court + discard + middle + bit != full
        ):
            return False
        if middle & ~ROYALTY or discard & ~CHARACTERS or hand & ROYALTY or court & ~IN_COURT:
            return False
        if living & 1:
            if out or not court & KEEPERS:
                return False
        elif out < 1 or out > rounds or court & KEEPERS:
            return False
        living >>= 1
    for h, source in s.hits:
        if not 0 <= h < houses or not -1 <= source < houses:
            return False
    hits = s.hits
    if (len(hits) > 1 and not _hits_are_one_round(hits)) or not 0 <= s.scored < 1 << houses:
        return False
    recovering = s.recovering
    return not recovering or (
        min(recovering) >= 0
        and max(recovering) < houses
        and (len(recovering) == 1 or _ascending(recovering))
    )


def _hits_are_one_round(hits: tuple[tuple[int, int], ...]) -> bool:
    """True if ``hits`` could be what one round's count left: a house hit by the count at
    most once and counter-attacked at most once (it nominated one house), so at most two
    entries a house."""
    counted = [h for h, source in hits if source < 0]
    countered = [h for h, source in hits if source >= 0]
    return len(set(counted)) == len(counted) and len(set(countered)) == len(countered)


def _ascending(houses: tuple[int, ...]) -> bool:
    """True if ``houses`` are strictly ascending (the returns are owed in house order)."""
    return all(a < b for a, b in pairwise(houses))


_ABSENT = {
    houses: ((0,) * (MAX_HOUSES - houses), (-1,) * (MAX_HOUSES - houses))
    for houses in range(MAX_HOUSES)
}
"""By the number of houses in the game: the tails (zeros, -1s) of the per-house fields at
the seats of the houses that are not."""

_FULL_SETS: dict[tuple[int, int], tuple[int, ...]] = {}


def _full_sets(game: KoaGame) -> tuple[int, ...]:
    """Every house's own set of cards (0 for a house not in the game), per game shape."""
    key = (game.houses, game.automated_mask)
    found = _FULL_SETS.get(key)
    if found is None:
        found = _FULL_SETS[key] = tuple(
            full_set(h, game.is_automated(h), game.houses) if h < game.houses else 0
            for h in range(MAX_HOUSES)
        )
    return found


def _check_houses(s: KoaState) -> None:
    """The per-house checks of :func:`check_consistency`, field by field, raising a
    StateDecodeError for the first problem."""
    game = s.game
    houses = game.houses

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    per_house = {
        "inheritance": s.inheritance,
        "out_round": s.out_round,
        "hands": s.hands,
        "courts": s.courts,
        "discards": s.discards,
        "centre": s.centre,
        "table.ids": s.table.ids,
        "played": s.played,
    }
    for field, seq in per_house.items():
        if len(seq) != MAX_HOUSES:
            fail(field, f"expected {MAX_HOUSES} entries (one per house), got {len(seq)}")
    if s.phase.name not in PHASE_NAMES:
        fail("phase.name", f"expected one of {list(PHASE_NAMES)}, got {s.phase.name!r}")
    if s.round < 0:
        fail("round", f"expected a non-negative round, got {s.round}")
    if not 0 <= s.alive < 1 << houses:
        fail("alive", f"expected a bitmask of the {houses} houses, got {s.alive}")
    numbers = [k for k in s.inheritance if k]
    if len(set(numbers)) != len(numbers) or not all(1 <= k <= game.max_number for k in numbers):
        fail("inheritance", f"expected distinct numbers 1..{game.max_number}, got {s.inheritance}")
    for h in range(MAX_HOUSES):
        in_game = h < houses
        alive = bool(s.alive >> h & 1)
        out = s.out_round[h]
        if not in_game:
            if out != -1 or s.inheritance[h]:
                fail(f"out_round[{h}]", f"house {h} is not in a {game.num_players}-player game")
        elif alive != (out == 0) or out < 0 or out > s.round:
            fail(f"out_round[{h}]", f"{out} disagrees with alive={alive} in round {s.round}")
        for field in ("table.ids", "played"):
            card = per_house[field][h]
            if not -1 <= card < ROYAL:  # a character or a nomination
                fail(f"{field}[{h}]", f"expected a playable card kind or -1, got {card}")
        full = full_set(h, game.is_automated(h), game.houses) if in_game else 0
        seen = 0
        for field in ("hands", "courts", "discards", "centre"):
            cards = per_house[field][h]
            if not 0 <= cards < 1 << KINDS:
                fail(f"{field}[{h}]", f"expected a bitmask of card kinds, got {cards}")
            if cards & seen:
                fail(f"{field}[{h}]", "holds a card that is also somewhere else")
            seen |= cards
        card = s.table.ids[h]
        if card >= 0:
            if seen >> card & 1:
                fail(f"table.ids[{h}]", "the card on the table is also somewhere else")
            seen |= 1 << card
        if seen != full:
            fail(
                f"cards[{h}]",
                f"house {h}'s cards {seen:#x} are not exactly its own set {full:#x}",
            )
        if s.centre[h] & ~ROYALTY or s.discards[h] & ~CHARACTERS:
            fail(f"centre[{h}]", "the centre holds Royalty only, a discard pile characters only")
        if s.hands[h] & ROYALTY or s.courts[h] & ~IN_COURT:
            fail(
                f"hands[{h}]",
                "Royalty never leaves the court but for the centre, and a court holds only"
                " Royalty, the Jester, the Banner and nominations",
            )
        if alive and not s.courts[h] & KEEPERS:
            fail(f"courts[{h}]", f"house {h} is in the game without Royalty or Jester")
        if not alive and in_game and s.courts[h] & KEEPERS:
            fail(f"courts[{h}]", f"house {h} is out but still has Royalty or a Jester")
    for i, (h, source) in enumerate(s.hits):
        if not 0 <= h < houses or not -1 <= source < houses:
            fail(f"hits[{i}]", f"expected (house, source) of houses in the game, got {(h, source)}")
    if not _hits_are_one_round(s.hits):
        fail(
            "hits",
            "a round hits a house by the count at most once and counter-attacks it at most"
            f" once, got {describe(s.hits, 120)}",
        )
    if not 0 <= s.scored < 1 << houses:
        fail("scored", f"expected a bitmask of the {houses} houses, got {describe(s.scored)}")
    for i, h in enumerate(s.recovering):
        if not 0 <= h < houses:
            fail(f"recovering[{i}]", f"expected a house in the game, got {h}")
    if not _ascending(s.recovering):
        fail(
            "recovering",
            f"expected distinct houses in ascending order, got {describe(s.recovering, 120)}",
        )


_INITIAL: dict[int, KoaState] = {}
"""By a loaded game's ``id``: its initial state (which keeps the game alive, so the id
stays its own); emptied when it holds many."""


def _initial_state(game: KoaGame) -> KoaState:
    """The game's initial state, made once (states never change)."""
    initial = _INITIAL.get(id(game))
    if initial is None or initial.game is not game:
        if len(_INITIAL) >= 64:
            _INITIAL.clear()
        initial = _INITIAL[id(game)] = game.initial_state()
    return initial


_SHAPES = {"inherit": (CHANCE,), "seal": (CHANCE,), "over": ()}
"""The steps whose ``to_move`` is fixed: chance's, or nobody's."""


def _fail(field: str, why: str) -> NoReturn:
    """Refuse a decoded state: what is wrong with which field."""
    raise StateDecodeError(f"state.{field}: {why}")


def _check_steps(s: KoaState) -> None:
    """The phase and progress checks of :func:`check_consistency`."""
    game = s.game
    houses = game.houses
    fail = _fail
    phase = s.phase
    name = phase.name
    to_move = phase.to_move
    simultaneous = phase.simultaneous
    shape = _SHAPES.get(name)
    if shape is not None and (to_move != shape or simultaneous):
        fail("phase.to_move", f"the {name} step has to_move {shape}")
    if name == "commit":
        # The players in the game (the houses were checked: ``alive`` is a mask of them)
        # in seat order, from the game's table of a mask's bits.
        ids = s.table.ids
        waiting = tuple(
            [p for p in game.bits[s.alive & (1 << len(game.seats)) - 1] if ids[p] == NOT_COMMITTED]
        )
        if to_move != waiting or not simultaneous:
            fail("phase.to_move", f"the players still owing a card are {waiting}")
    elif name == "seal":
        if sealing_house(s) < 0:
            fail("phase", "the seal step needs an automated household with cards to seal")
    elif name == "over":
        if s.alive.bit_count() > 2:
            fail("alive", "the game ends only once two or fewer houses are left")
    elif name == "inherit":
        if 0 not in s.inheritance[:houses]:
            fail("inheritance", "the deal step needs a house without an inheritance card")
    elif name in ("return", "discard"):
        if len(to_move) != 1 or simultaneous:
            fail("phase.to_move", f"the {name} step belongs to one player")
        if name == "return" and (
            not s.recovering
            or to_move != s.recovering[:1]
            or not s.discards[s.recovering[0]] & CHARACTERS
        ):
            fail("recovering", "the return step belongs to the first house in the queue")
        if name == "discard" and (
            not s.hits or to_move != (s.hits[0][0],) or not s.courts[s.hits[0][0]] & KEEPERS
        ):
            fail("hits", "the discard step belongs to the house taking the first hit")
        if to_move[0] not in game.seats:
            fail("phase.to_move", "only a real player decides; automated households follow a rule")
    _check_progress(s)


def _check_progress(s: KoaState) -> None:
    """What the deal and each step of a round require: a state that passes can be played
    on to the end by the rules."""
    game = s.game
    houses = game.houses
    name = s.phase.name
    fail = _fail
    # The inheritance cards are dealt house by house from house 0, before round 1.
    dealing = s.inheritance[:houses]
    dealt = dealing.index(0) if 0 in dealing else houses
    if any(s.inheritance[dealt:houses]):
        fail(
            "inheritance", f"the cards are dealt to houses 0, 1, ... in order; got {s.inheritance}"
        )
    if name == "inherit":
        if s.round != 0:
            fail("round", f"the inheritance cards are dealt before round 1, got round {s.round}")
        initial = _initial_state(game)
        same = (
            s.alive == initial.alive
            and s.hands == initial.hands
            and s.courts == initial.courts
            and s.table == initial.table
            and s.played == initial.played
            and not (s.recovering or s.hits or s.scored)
        )
        if not same:
            fail("phase", "while the inheritance cards are dealt, no card has been played")
        return
    if s.round < 1 or dealt != houses:
        fail("round", f"round {s.round} of the {name} step comes after the whole deal")
    ids = s.table.ids
    alive = s.alive
    if name in ("seal", "commit"):
        for h in game.bits[~alive & (1 << MAX_HOUSES) - 1]:  # the houses out, in order
            if ids[h] != NOT_COMMITTED:
                fail(f"table.ids[{h}]", f"house {h} is out and puts no card face down")
    pending = s.recovering or s.hits or (s.scored and name != "over")
    if name in ("seal", "commit", "over") and pending:
        fail("hits", f"nothing of a round's resolution is pending in the {name} step")
    if name == "seal":
        for p in game.seats:
            if ids[p] != NOT_COMMITTED:
                fail(
                    f"table.ids[{p}]",
                    "the automated households put their cards face down before the players",
                )
    elif name == "commit":
        hands = s.hands
        for h in game.automated:
            if alive >> h & 1 and hands[h] and ids[h] == NOT_COMMITTED:
                fail(f"table.ids[{h}]", "every automated household with cards has sealed one")
    if name == "over" and ids.count(NOT_COMMITTED) != len(ids):
        fail("table.ids", "the table is cleared once the game is over")
