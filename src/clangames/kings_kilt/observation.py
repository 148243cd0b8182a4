"""What each player may know, re-dealing what they cannot see, and checking saved states.

The re-deal itself (``resample``, drawn from the exact posterior of the deal) lives in
:mod:`clangames.kings_kilt.posterior`.

Private: a player's face-down family cards and Influence hand. Public: the pyramid, the
draw pile's top card and size, the Clan Leaders still in the pile (they are face up as a
kind and every one drawn was seen), the discards, the removed cards, revealed family cards,
hand sizes and who has passed. Nobody knows the order of the pile below its top card; the
state never stores that order, so there is nothing to hide there.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, NoReturn

import attrs

from clangames.engine.errors import StateDecodeError
from clangames.kings_kilt.posterior import resample

__all__ = ["KingsKiltObservation", "check_consistency", "observe", "resample"]

if TYPE_CHECKING:
    from clangames.kings_kilt.game import KingsKiltGame
    from clangames.kings_kilt.state import KingsKiltState


@attrs.frozen(slots=True)
class KingsKiltObservation:
    """One player's view (``viewer`` -1 for the public view). Clans are indices."""

    viewer: int
    phase: str
    to_move: tuple[int, ...]
    actor: int
    pyramid: tuple[int, ...]
    top: int
    pile_size: int
    leaders_in_pile: tuple[int, ...]
    reshuffled_in_pile: tuple[int, ...]
    discards: tuple[int, ...]
    removed: tuple[int, ...]
    family_sizes: tuple[int, ...]
    revealed: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    family: int
    """The viewer's whole family (clan bitmask); 0 in the public view."""
    family_from_deck: int
    """The part of the viewer's family dealt from the one-per-clan deck; 0 in public."""
    hand: tuple[int, ...]
    """The viewer's Influence cards by clan; empty in the public view."""
    passed: int
    crowned: bool
    nobles_triggered: bool
    guardians_triggered: bool
    vacancy: int
    reveal_queue: tuple[int, ...]
    family_deck_size: int
    dealt: int
    turns: int

    def to_json(self) -> object:
        """Plain JSON data."""
        from clangames.engine.codec import encode

        return encode(self)


def observe(s: KingsKiltState, viewer: int | None) -> KingsKiltObservation:
    """The view of seat ``viewer`` (None: what everyone may know)."""
    in_setup = s.actor < 0
    pile_size = 0 if in_setup else s.draw_pile_size
    return KingsKiltObservation(
        viewer=-1 if viewer is None else viewer,
        phase=s.phase.name,
        to_move=s.to_move,
        actor=s.actor,
        pyramid=s.pyramid,
        top=s.top,
        pile_size=pile_size,
        leaders_in_pile=s.leaders.counts,
        reshuffled_in_pile=s.reshuffled.counts,
        discards=s.discards.counts,
        removed=s.removed.counts,
        family_sizes=tuple(f.bit_count() for f in s.families),
        revealed=s.revealed,
        hand_sizes=tuple(len(h) for h in s.hands),
        family=0 if viewer is None else s.families[viewer],
        family_from_deck=0 if viewer is None else s.from_deck[viewer],
        hand=() if viewer is None else s.hands[viewer].counts,
        passed=s.passed,
        crowned=s.crowned,
        nobles_triggered=s.nobles_triggered,
        guardians_triggered=s.guardians_triggered,
        vacancy=s.vacancy,
        reveal_queue=s.reveal_queue,
        family_deck_size=s.family_deck.bit_count(),
        dealt=s.dealt,
        turns=s.turns,
    )


def check_consistency(s: KingsKiltState) -> None:
    """Raise StateDecodeError if a decoded state could not arise in a game."""
    n = s.game.num_players
    try:
        quick = _cards_look_consistent(s, n)
    except Exception:  # odd data: the detailed check words what is wrong
        quick = False
    if not quick:
        _check_cards(s)
    _check_steps(s, n)


def _cards_look_consistent(s: KingsKiltState, n: int) -> bool:
    """True only if :func:`_check_cards` passes, tested in a lean pass (locals, the cards
    counted by clan in a few C calls, no error text; the decoder runs this on every state
    it reads). False says nothing: the detailed check then finds and words the problem."""
    tally = _tally_of(s.game)
    k = tally.kinds
    pyramid = s.pyramid
    families = s.families
    from_deck = s.from_deck
    revealed = s.revealed
    hands = s.hands
    top = s.top
    if not (
        len(pyramid) == tally.size
        and len(families) == len(from_deck) == len(revealed) == len(hands) == n
    ):
        return False
    # Every pile's and hand's counts in one list, one count per clan each: the list is
    # built in the frame (a chained iterator handed to ``bytes`` cost twice as much).
    leaders = s.leaders.counts
    members = s.members.counts
    reshuffled = s.reshuffled.counts
    discards = s.discards.counts
    removed = s.removed.counts
    if not len(leaders) == len(members) == len(reshuffled) == len(discards) == len(removed) == k:
        return False
    counts = [*leaders, *members, *reshuffled, *discards, *removed]
    for hand in hands:
        held = hand.counts
        if len(held) != k:
            return False
        counts += held
    try:  # one byte per count: bytes() refuses a count outside 0..255
        flat = bytes(counts)
    except ValueError:
        return False
    if sum(flat) > tally.room:
        return False
    limit = tally.limit
    family_size = tally.family_size
    deck_size = tally.deck_size
    dealt = 0  # the clans dealt from the one-per-clan deck so far
    for p in range(n):
        family = families[p]
        deck = from_deck[p]
        if (
            not 0 <= family < limit
            or family.bit_count() > family_size
            or revealed[p] & ~family
            or deck & ~family
            or deck.bit_count() > deck_size
            or deck & dealt
        ):
            return False
        dealt |= deck
    deck_left = s.family_deck
    if dealt & deck_left or not 0 <= deck_left < limit:
        return False
    # Every card of every clan accounted for exactly once, counted in one number with a
    # byte per clan (clan 0 the highest): the piles and hands (each pile's counts read as
    # one number, and all of them added up by one remainder, see _Tally), the pyramid's
    # cards and the top card (-1 adds nothing, anything but a clan has no weight), and
    # the family cards. No byte can carry into the next (``room``).
    weight = tally.weight
    spread = tally.spread
    try:
        cards = (
            int.from_bytes(flat, "big") % tally.modulus
            + sum(map(weight.__getitem__, pyramid))
            + weight[top]
            + sum(map(spread.__getitem__, families))
            + spread[deck_left]
        )
    except KeyError:  # a space or the top holding no clan
        return False
    return cards == tally.expected


@attrs.frozen(slots=True)
class _Tally:
    """What :func:`_cards_look_consistent` counts the cards of a game with, made once per
    game. A byte per clan c at weight ``256 ** (k - 1 - c)``: a pile's counts as a byte
    string read as a number, big-endian, are its counts by clan. Concatenated, pile i
    stands at ``256 ** (k * j)`` times its number; ``256 ** k`` leaves remainder 1 by
    ``modulus = 256 ** k - 1``, so the remainder of the whole is the sum of the piles'
    numbers, exactly, as long as no byte of that sum reaches 255."""

    game: KingsKiltGame
    kinds: int
    """The clans: each pile's and hand's length (one count per clan)."""
    size: int
    """The pyramid's spaces."""
    limit: int
    """One more than the largest clan bitmask."""
    family_size: int
    """The most family cards a player holds."""
    deck_size: int
    """The most family cards a player gets from the one-per-clan deck."""
    room: int
    """The most cards the piles and hands may hold together for no clan's byte to reach
    255 once the pyramid, the top card and the family cards are added."""
    modulus: int
    weight: dict[int, int]
    """A clan's weight by its index, and -1 (no card) 0."""
    spread: tuple[int, ...]
    """A clan bitmask's cards, one per clan in it, by the bitmask."""
    expected: int
    """Every clan's cards, each counted once."""
    trigger_start: int
    """The first pyramid space of the rows whose first card sets a flag: every such row
    lies at or after it."""


_TALLIES: dict[int, _Tally] = {}
"""By a loaded game's ``id`` (the game kept alive in its entry); emptied when it holds
many."""


def _tally_of(game: KingsKiltGame) -> _Tally:
    """The game's :class:`_Tally`, made on first use."""
    tally = _TALLIES.get(id(game))
    if tally is None or tally.game is not game:
        tally = _tally(game)
    return tally


def _tally(game: KingsKiltGame) -> _Tally:
    k = len(game.clans)
    spaces = range(game.geo.size)
    trigger_spaces = [q for row, span, _ in game.trigger_rows if row >= 2 for q in spaces[span]]
    n = game.num_players
    weight = {c: 256 ** (k - 1 - c) for c in range(k)}
    tally = _Tally(
        game=game,
        kinds=k,
        size=game.geo.size,
        limit=1 << k,
        family_size=game.components.family_size,
        deck_size=game.components.family_from_deck,
        room=254 - game.geo.size - 1 - (n + 1),
        modulus=256**k - 1,
        weight={-1: 0, **weight},
        spread=tuple(sum(weight[c] for c in clans) for clans in game.bits),
        expected=game.components.cards_per_clan * sum(weight.values()),
        trigger_start=min(trigger_spaces, default=game.geo.size),
    )
    if len(_TALLIES) >= 64:
        _TALLIES.clear()
    _TALLIES[id(game)] = tally
    return tally


def _check_cards(s: KingsKiltState) -> None:
    """The card and range checks of :func:`check_consistency`, field by field, raising a
    StateDecodeError for the first problem."""
    game = s.game
    k = len(game.clans)
    n = game.num_players
    geo = game.geo

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    if len(s.pyramid) != geo.size:
        fail("pyramid", f"expected {geo.size} spaces, got {len(s.pyramid)}")
    for i, c in enumerate(s.pyramid):
        if not -1 <= c < k:
            fail(f"pyramid[{i}]", f"expected a clan index 0..{k - 1} or -1, got {c}")
    if not -1 <= s.top < k:
        fail("top", f"expected a clan index 0..{k - 1} or -1, got {s.top}")
    piles = {
        "leaders": s.leaders,
        "members": s.members,
        "reshuffled": s.reshuffled,
        "discards": s.discards,
        "removed": s.removed,
    }
    for field, pile in piles.items():
        if len(pile.counts) != k or min(pile.counts) < 0:
            fail(field, f"expected {k} non-negative counts, got {list(pile.counts)}")
    seqs = (
        ("families", s.families),
        ("from_deck", s.from_deck),
        ("revealed", s.revealed),
        ("hands", s.hands),
    )
    for field, seq in seqs:
        if len(seq) != n:
            fail(field, f"expected one entry per player ({n}), got {len(seq)}")
    for p in range(n):
        hand = s.hands[p]
        if len(hand.counts) != k or min(hand.counts) < 0:
            fail(f"hands[{p}]", f"expected {k} non-negative counts, got {list(hand.counts)}")
        if not 0 <= s.families[p] < 1 << k:
            fail(f"families[{p}]", f"expected a clan bitmask below {1 << k}, got {s.families[p]}")
        if s.families[p].bit_count() > game.components.family_size:
            fail(f"families[{p}]", f"more than {game.components.family_size} family cards")
        if s.revealed[p] & ~s.families[p]:
            fail(f"revealed[{p}]", "reveals a card that is not in the family")
        if s.from_deck[p] & ~s.families[p]:
            fail(f"from_deck[{p}]", "names a card that is not in the family")
        if s.from_deck[p].bit_count() > game.components.family_from_deck:
            fail(f"from_deck[{p}]", f"more than {game.components.family_from_deck} deck cards")
        for q in range(p):
            if s.from_deck[p] & s.from_deck[q]:
                fail(f"from_deck[{p}]", f"shares a clan of the one-per-clan deck with player {q}")
        if s.from_deck[p] & s.family_deck:
            fail(f"from_deck[{p}]", "shares a clan with the undealt family deck")
    if not 0 <= s.family_deck < 1 << k:
        fail("family_deck", f"expected a clan bitmask below {1 << k}, got {s.family_deck}")
    totals = [0] * k
    for c in s.pyramid:
        if c >= 0:
            totals[c] += 1
    if s.top >= 0:
        totals[s.top] += 1
    for pile in (*piles.values(), *s.hands):
        for c, count in enumerate(pile.counts):
            totals[c] += count
    for fam in (*s.families, s.family_deck):
        for c in game.bits[fam]:
            totals[c] += 1
    expected = game.components.cards_per_clan
    for c, total in enumerate(totals):
        if total != expected:
            fail(
                "cards",
                f"clan {game.clans[c]} has {total} cards accounted for, expected {expected}",
            )


_PHASE_NAMES = frozenset(
    (
        "deal_family",
        "deal_third",
        "deal_influence",
        "build_base",
        "reveal_top",
        "turn",
        "fill",
        "reveal",
        "over",
    )
)


_COUNTS = attrgetter("counts")
"""A Multiset's counts by clan."""


def _fail(field: str, why: str) -> NoReturn:
    """Refuse a decoded state: what is wrong with which field."""
    raise StateDecodeError(f"state.{field}: {why}")


def _check_steps(s: KingsKiltState, n: int) -> None:
    """The seat, phase and progress checks of :func:`check_consistency` (``n`` players)."""
    game = s.game
    geo = game.geo
    fail = _fail
    if not 0 <= s.passed < 1 << n:
        fail("passed", f"expected a seat bitmask below {1 << n}, got {s.passed}")
    if not -1 <= s.actor < n:
        fail("actor", f"expected a seat or -1, got {s.actor}")
    if not -1 <= s.vacancy < geo.size:
        fail("vacancy", f"expected a space index or -1, got {s.vacancy}")
    queue = s.reveal_queue
    if len(queue) > n:
        fail("reveal_queue", f"at most {n} reveals are owed at once, got {len(queue)}")
    if queue and (min(queue) < 0 or max(queue) >= n):
        for i, p in enumerate(queue):
            if not 0 <= p < n:
                fail(f"reveal_queue[{i}]", f"expected a seat 0..{n - 1}, got {p}")
    phase = s.phase
    name = phase.name
    to_move = phase.to_move
    if name not in _PHASE_NAMES:
        fail("phase.name", f"expected one of {sorted(_PHASE_NAMES)}, got {name!r}")
    for p in to_move:
        if not -1 <= p < n:
            fail("phase.to_move", f"expected seats 0..{n - 1} or -1, got {p}")
    if name in ("turn", "fill") and to_move != (s.actor,):
        fail("phase.to_move", f"the {name} step belongs to the actor {s.actor}")
    if name == "fill":
        if s.vacancy < 0 or geo.row[s.vacancy] == 1:
            fail("vacancy", "the fill step needs a vacancy above row 1")
        below = geo.beneath[s.vacancy]
        if any(s.pyramid[q] < 0 for q in below):
            fail("vacancy", "the fill step needs a card in both spaces beneath the vacancy")
    if name == "reveal" and (not queue or to_move != queue[:1]):
        fail("reveal_queue", "the reveal step belongs to the first seat in the queue")
    if phase.simultaneous:
        fail("phase.simultaneous", "King's Kilt has no simultaneous steps")
    if name in _CHANCE_STEPS and to_move != (-1,):
        fail("phase.to_move", f"the {name} step is a chance node: expected [-1]")
    if name == "over" and to_move:
        fail("phase.to_move", "nobody is to move once the game is over")
    if name == "turn" and (s.actor < 0 or s.passed >> s.actor & 1 or s.vacancy >= 0):
        fail("phase", "a turn belongs to a player who has not passed, with no vacancy open")
    limit = _deal_limit(game, name, n)
    if not 0 <= s.dealt < limit:
        fail("dealt", f"expected 0..{limit - 1} in the {name} step, got {s.dealt}")
    if s.turns < 0:
        fail("turns", f"expected a count >= 0, got {s.turns}")
    _check_progress(s, n)


SETUP_STEPS = ("deal_family", "deal_third", "deal_influence", "build_base")
"""The setup steps, in order; ``reveal_top`` ends the setup (with no actor yet)."""
_CHANCE_STEPS = frozenset((*SETUP_STEPS, "reveal_top"))
"""The chance steps: the setup's deals and turning up the pile's top card."""


def _dealt_to(seat: int, dealt: int, n: int) -> int:
    """How many of ``dealt`` cards dealt round the table from seat 0 went to ``seat``."""
    return dealt // n + (1 if seat < dealt % n else 0)


def _check_progress(s: KingsKiltState, n: int) -> None:
    """What each step requires of the deal so far, the pile, the pyramid and the turn:
    a state that passes can be played on to the end by the rules (``n`` players)."""
    # The decoder runs this on every state it reads: each field is read once into a
    # local, and the players' holdings are compared as whole lists (the loop that words
    # a problem runs only when they differ).
    game = s.game
    comps = game.components
    k = len(game.clans)
    name = s.phase.name
    fam_size = comps.family_size
    from_deck = comps.family_from_deck
    hand = game.hand_size
    leaders_per_clan = comps.leaders_per_clan
    fail = _fail
    actor = s.actor
    top = s.top
    vacancy = s.vacancy
    passed = s.passed
    pyramid = s.pyramid
    dealt = s.dealt
    queue = s.reveal_queue

    # The piles' counts read directly (a Multiset's truth and size are Python calls).
    leaders = s.leaders.counts
    members = s.members.counts
    reshuffled = any(s.reshuffled.counts)
    setup = name in SETUP_STEPS or (name == "reveal_top" and actor < 0)
    if setup:
        if actor != -1 or s.turns or passed or vacancy != -1 or queue:
            fail(
                "actor",
                "during the setup nobody has a turn: actor -1, no turns, passes,"
                " vacancy or reveals",
            )
        if s.crowned or s.nobles_triggered or s.guardians_triggered or any(s.revealed):
            fail("revealed", "nothing is triggered or revealed during the setup")
        if top != -1 or any(s.discards.counts) or any(s.removed.counts) or reshuffled:
            fail("top", "during the setup no pile card shows and nothing is discarded")
    else:
        if actor < 0:
            fail("actor", f"the {name} step happens in play: expected a seat, got {actor}")
        if s.turns < 1:
            fail("turns", f"a turn has begun by the {name} step: expected >= 1, got {s.turns}")
    step = _STEP.get(name, len(SETUP_STEPS))
    held = [sum(hand.counts) for hand in s.hands]  # a Multiset's len() is a Python call
    if setup:
        if [
            list(map(int.bit_count, s.from_deck)),
            list(map(int.bit_count, s.families)),
            held,
        ] != _holdings(step, dealt, n, from_deck, fam_size, hand):
            _check_holdings(s, n, step, name)
    elif max(held) > hand:
        # In play the rules need no exact family (its bounds are checked above); a hand
        # only shrinks.
        for p in range(n):
            if held[p] > hand:
                fail(f"hands[{p}]", f"more than the {hand} Influence cards dealt")
    if step == 0:
        dealt_deck = 0
        for part in s.from_deck:
            dealt_deck |= part
        if s.family_deck != ((1 << k) - 1) & ~dealt_deck:
            fail("family_deck", "the one-per-clan deck holds every clan not yet dealt from it")
    elif s.family_deck:
        fail("family_deck", f"the one-per-clan deck is used up once the {name} step comes")
    if step < 3 and max(pyramid) >= 0:
        fail("pyramid", f"the pyramid is built only after the {name} step")
    if step == 3 and any((c >= 0) != (pos < dealt) for pos, c in enumerate(pyramid)):
        fail("pyramid", f"the base holds the first {dealt} cards and nothing else")
    geo = game.geo
    if (
        name == "reveal_top"
        and setup
        and any((c >= 0) != (geo.row[pos] == 1) for pos, c in enumerate(pyramid))
    ):
        fail("pyramid", "the setup ends with the bottom row complete and nothing above it")
    if max(leaders) > leaders_per_clan:
        fail("leaders", f"at most {leaders_per_clan} Clan Leaders of a clan are left")
    leaders_total = leaders_per_clan * k
    if step < 3 and sum(leaders) != leaders_total:
        fail("leaders", "the Clan Leaders stay in the pile until the pyramid is built")
    if step == 3:
        # Clan Members left after the families and hands are dealt (the pile's member layer).
        members_after_deal = comps.members_per_clan * k - fam_size * n - hand * n
        if sum(leaders) + sum(members) != (leaders_total + members_after_deal - dealt):
            fail("members", f"the pile has given exactly {dealt} cards to the base")
    pile = any(leaders) or any(members)
    if reshuffled and pile:
        fail("reshuffled", "the discards are shuffled in only once the pile has run out")
    pile = pile or reshuffled
    if name == "reveal_top" and (top >= 0 or not pile):
        fail("top", "turning up the pile's top card needs a face-down pile and no card showing")
    if name in ("turn", "fill", "reveal") and top < 0 and pile:
        fail("top", "the pile's top card lies face up whenever a player decides")
    if vacancy >= 0:
        if pyramid[vacancy] >= 0:
            fail("vacancy", f"space {geo.label(vacancy)} is waiting to be filled but holds a card")
        if name == "reveal_top" and geo.row[vacancy] != 1:
            fail("vacancy", "the pile fills only a vacancy in the bottom row")
        if name not in ("fill", "reveal_top"):
            fail("vacancy", f"no vacancy is open in the {name} step")
    if queue and name not in ("fill", "reveal", "reveal_top"):
        fail("reveal_queue", f"no reveal is owed in the {name} step")
    if name in ("turn", "fill") and passed >> actor & 1:
        fail("passed", f"player {actor} has passed and takes no more turns")
    if name == "over" and passed != (1 << n) - 1:
        fail("passed", "the game ends once every player has passed")
    flags = (s.nobles_triggered, s.guardians_triggered, s.crowned)
    # (``max``'s keyword ``default`` costs as much as the rest of the test: an empty slice
    # takes ``_NO_CARD`` instead.)
    if all(flags) or max(pyramid[_tally_of(game).trigger_start :] or _NO_CARD) < 0:
        return  # every flag set, or no card in a row that sets one
    for (row, span, field), flag in zip(game.trigger_rows, flags, strict=True):
        if row >= 2 and not flag and max(pyramid[span]) >= 0:
            fail(field, f"a card has reached row {row}, so it is true")


_STEP = {name: step for step, name in enumerate(SETUP_STEPS)}
"""A setup step's place in the setup (any other step comes after it)."""
_NO_CARD = (-1,)
"""A row of spaces with no card (what ``max`` finds in an empty slice of the pyramid)."""


def _holdings(
    step: int, dealt: int, n: int, from_deck: int, fam_size: int, hand: int
) -> list[list[int]]:
    """What each of ``n`` players holds at setup step ``step`` with ``dealt`` cards of it
    dealt round the table from seat 0: their deck cards, family cards and Influence cards,
    one list of each."""
    each, more = divmod(dealt, n)  # the first ``more`` seats have had one card more

    def round_of(start: int) -> list[int]:
        return [start + each + 1] * more + [start + each] * (n - more)

    if step == 0:
        return [round_of(0), round_of(0), [0] * n]
    if step == 1:
        return [[from_deck] * n, round_of(from_deck), [0] * n]
    if step == 2:
        return [[from_deck] * n, [fam_size] * n, round_of(0)]
    return [[from_deck] * n, [fam_size] * n, [hand] * n]


def _check_holdings(s: KingsKiltState, n: int, step: int, name: str) -> None:
    """Player by player, what :func:`_holdings` says each holds during the setup; the
    first player who differs raised."""
    comps = s.game.components
    from_deck = comps.family_from_deck
    fam_size = comps.family_size
    hand = s.game.hand_size
    for p in range(n):
        deck_cards = s.from_deck[p].bit_count()
        family = s.families[p].bit_count()
        cards = len(s.hands[p])
        if step == 0:
            want = (_dealt_to(p, s.dealt, n), _dealt_to(p, s.dealt, n), 0)
        elif step == 1:
            want = (from_deck, from_deck + _dealt_to(p, s.dealt, n), 0)
        elif step == 2:
            want = (from_deck, fam_size, _dealt_to(p, s.dealt, n))
        else:
            want = (from_deck, fam_size, hand)
        if (deck_cards, family, cards) != want:
            _fail(
                f"families[{p}]",
                f"in the {name} step (dealt {s.dealt}) player {p} should hold {want[0]} deck"
                f" card(s), {want[1]} family card(s) and {want[2]} Influence card(s);"
                f" holds {deck_cards}, {family} and {cards}",
            )


def _deal_limit(game: KingsKiltGame, phase: str, n: int) -> int:
    """How many cards the setup step ``phase`` deals with ``n`` players (``dealt`` counts
    them); 1 otherwise."""
    comps = game.components
    if phase == "deal_family":
        return comps.family_from_deck * n
    if phase == "deal_third":
        return (comps.family_size - comps.family_from_deck) * n
    if phase == "deal_influence":
        return comps.hand_size(n) * n
    if phase == "build_base":
        return game.geo.width
    return 1
