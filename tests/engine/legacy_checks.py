"""Consistency checks as they were before the last speed-ups of issue 11, frozen: the
oracle the current checks must agree with (the same verdict and the same message for
every state). Only the functions the speed-ups rewrote are copied; the helpers they call
(unchanged) come from the game's module."""

from __future__ import annotations

from operator import add, contains
from typing import Any

from clangames.kilt_castle import observation as kc
from clangames.kings_kilt import observation as kk
from clangames.koa_kingmaker import observation as koa

PHASES = kc.PHASES


def kilt_castle_check_consistency(s: Any) -> None:
    """Kilt Castle's ``check_consistency`` before issue 11's last changes."""
    game = s.game
    board = game.board
    n = game.num_players
    ncards = len(game.cards)
    kinds = len(board.colours) * 3

    fail = kc._fail

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
        kc._check_cards(s)
    if len(s.towers) != board.rows * board.cols:
        fail("towers", f"expected {board.rows * board.cols} spaces, got {len(s.towers)}")
    towers = s.towers
    floors = "".join(towers)
    if set(floors) <= game.letters_in_play and not any(map(towers.__getitem__, board.water)):
        built = list(map(floors.count, game.letter))
    else:
        built = kc._count_floors(s)
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
        kc._check_layout(s)
        return
    # Out of the lay-out every card lies in a row (checked above): count the rows.
    rows = set(positions)
    if max(map(positions.count, rows), default=0) > game.max_row:
        fail("positions", f"a card row holds more than {game.max_row} cards")
    if len(rows) > game.max_rows:
        fail("positions", f"more than {game.max_rows} card rows")
    _kilt_castle_check_turn(s)


def _kilt_castle_check_turn(s: Any) -> None:
    """What the steps of a turn require of the card, the builders and the roofs."""
    game = s.game
    board = game.board
    name = s.phase.name

    fail = kc._fail

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


# King's Kilt's step and progress checks, before the fourth round of 2026-11-29.


def kings_kilt_check_steps(s: Any, n: int) -> None:
    """The seat, phase and progress checks of :func:`check_consistency` (``n`` players)."""
    game = s.game
    geo = game.geo
    fail = kk._fail
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
    if name not in kk._PHASE_NAMES:
        fail("phase.name", f"expected one of {sorted(kk._PHASE_NAMES)}, got {name!r}")
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
    if name in kk._CHANCE_STEPS and to_move != (-1,):
        fail("phase.to_move", f"the {name} step is a chance node: expected [-1]")
    if name == "over" and to_move:
        fail("phase.to_move", "nobody is to move once the game is over")
    if name == "turn" and (s.actor < 0 or s.passed >> s.actor & 1 or s.vacancy >= 0):
        fail("phase", "a turn belongs to a player who has not passed, with no vacancy open")
    limit = kk._deal_limit(game, name, n)
    if not 0 <= s.dealt < limit:
        fail("dealt", f"expected 0..{limit - 1} in the {name} step, got {s.dealt}")
    if s.turns < 0:
        fail("turns", f"expected a count >= 0, got {s.turns}")
    _kings_kilt_check_progress(s, n)


def _kings_kilt_check_progress(s: Any, n: int) -> None:
    """What each step requires of the deal so far, the pile, the pyramid and the turn:
    a state that passes can be played on to the end by the rules (``n`` players)."""
    game = s.game
    comps = game.components
    geo = game.geo
    k = len(game.clans)
    name = s.phase.name
    fam_size = comps.family_size
    from_deck = comps.family_from_deck
    hand = game.hand_size
    leaders_total = comps.leaders_per_clan * k
    fail = kk._fail

    # The piles' counts read directly (a Multiset's truth and size are Python calls).
    leaders = s.leaders.counts
    members = s.members.counts
    reshuffled = any(s.reshuffled.counts)
    setup = name in kk.SETUP_STEPS or (name == "reveal_top" and s.actor < 0)
    if setup:
        if s.actor != -1 or s.turns or s.passed or s.vacancy != -1 or s.reveal_queue:
            fail(
                "actor",
                "during the setup nobody has a turn: actor -1, no turns, passes,"
                " vacancy or reveals",
            )
        if s.crowned or s.nobles_triggered or s.guardians_triggered or any(s.revealed):
            fail("revealed", "nothing is triggered or revealed during the setup")
        if s.top != -1 or any(s.discards.counts) or any(s.removed.counts) or reshuffled:
            fail("top", "during the setup no pile card shows and nothing is discarded")
    else:
        if s.actor < 0:
            fail("actor", f"the {name} step happens in play: expected a seat, got {s.actor}")
        if s.turns < 1:
            fail("turns", f"a turn has begun by the {name} step: expected >= 1, got {s.turns}")
    step = kk.SETUP_STEPS.index(name) if name in kk.SETUP_STEPS else len(kk.SETUP_STEPS)
    # In play only the hand sizes are checked per player: one max() finds whether any is.
    held = max(map(sum, map(kk._COUNTS, s.hands)))  # a Multiset's len() is a Python call
    players = range(n) if setup or held > hand else range(0)
    for p in players:
        deck_cards = s.from_deck[p].bit_count()
        family = s.families[p].bit_count()
        cards = len(s.hands[p])
        if not setup:
            # In play the rules need no exact family (its bounds are checked above); a hand
            # only shrinks.
            if cards > hand:
                fail(f"hands[{p}]", f"more than the {hand} Influence cards dealt")
            continue
        if step == 0:
            want = (kk._dealt_to(p, s.dealt, n), kk._dealt_to(p, s.dealt, n), 0)
        elif step == 1:
            want = (from_deck, from_deck + kk._dealt_to(p, s.dealt, n), 0)
        elif step == 2:
            want = (from_deck, fam_size, kk._dealt_to(p, s.dealt, n))
        else:
            want = (from_deck, fam_size, hand)
        if (deck_cards, family, cards) != want:
            fail(
                f"families[{p}]",
                f"in the {name} step (dealt {s.dealt}) player {p} should hold {want[0]} deck"
                f" card(s), {want[1]} family card(s) and {want[2]} Influence card(s);"
                f" holds {deck_cards}, {family} and {cards}",
            )
    if step == 0:
        dealt_deck = 0
        for part in s.from_deck:
            dealt_deck |= part
        if s.family_deck != ((1 << k) - 1) & ~dealt_deck:
            fail("family_deck", "the one-per-clan deck holds every clan not yet dealt from it")
    elif s.family_deck:
        fail("family_deck", f"the one-per-clan deck is used up once the {name} step comes")
    if step < 3 and max(s.pyramid) >= 0:
        fail("pyramid", f"the pyramid is built only after the {name} step")
    if step == 3 and any((c >= 0) != (pos < s.dealt) for pos, c in enumerate(s.pyramid)):
        fail("pyramid", f"the base holds the first {s.dealt} cards and nothing else")
    if (
        name == "reveal_top"
        and setup
        and any((c >= 0) != (geo.row[pos] == 1) for pos, c in enumerate(s.pyramid))
    ):
        fail("pyramid", "the setup ends with the bottom row complete and nothing above it")
    if max(leaders) > comps.leaders_per_clan:
        fail("leaders", f"at most {comps.leaders_per_clan} Clan Leaders of a clan are left")
    if step < 3 and sum(leaders) != leaders_total:
        fail("leaders", "the Clan Leaders stay in the pile until the pyramid is built")
    # Clan Members left after the families and hands are dealt (the pile's member layer).
    members_after_deal = comps.members_per_clan * k - fam_size * n - hand * n
    if step == 3 and sum(leaders) + sum(members) != (leaders_total + members_after_deal - s.dealt):
        fail("members", f"the pile has given exactly {s.dealt} cards to the base")
    pile = any(leaders) or any(members)
    if reshuffled and pile:
        fail("reshuffled", "the discards are shuffled in only once the pile has run out")
    pile = pile or reshuffled
    if name == "reveal_top" and (s.top >= 0 or not pile):
        fail("top", "turning up the pile's top card needs a face-down pile and no card showing")
    if name in ("turn", "fill", "reveal") and s.top < 0 and pile:
        fail("top", "the pile's top card lies face up whenever a player decides")
    if s.vacancy >= 0:
        if s.pyramid[s.vacancy] >= 0:
            fail(
                "vacancy", f"space {geo.label(s.vacancy)} is waiting to be filled but holds a card"
            )
        if name == "reveal_top" and geo.row[s.vacancy] != 1:
            fail("vacancy", "the pile fills only a vacancy in the bottom row")
        if name not in ("fill", "reveal_top"):
            fail("vacancy", f"no vacancy is open in the {name} step")
    if s.reveal_queue and name not in ("fill", "reveal", "reveal_top"):
        fail("reveal_queue", f"no reveal is owed in the {name} step")
    if name in ("turn", "fill") and s.passed >> s.actor & 1:
        fail("passed", f"player {s.actor} has passed and takes no more turns")
    if name == "over" and s.passed != (1 << n) - 1:
        fail("passed", "the game ends once every player has passed")
    flags = (s.nobles_triggered, s.guardians_triggered, s.crowned)
    if all(flags) or max(s.pyramid[kk._tally_of(game).trigger_start :], default=-1) < 0:
        return  # every flag set, or no card in a row that sets one
    for (row, span, field), flag in zip(game.trigger_rows, flags, strict=True):
        if row >= 2 and not flag and max(s.pyramid[span]) >= 0:
            fail(field, f"a card has reached row {row}, so it is true")


# KOA Kingmaker's step and progress checks, before the fourth round of 2026-11-29.


def koa_check_steps(s: Any) -> None:
    """The phase and progress checks of :func:`check_consistency`."""
    game = s.game
    houses = game.houses
    fail = koa._fail
    phase = s.phase
    name = phase.name
    to_move = phase.to_move
    simultaneous = phase.simultaneous
    shape = koa._SHAPES.get(name)
    if shape is not None and (to_move != shape or simultaneous):
        fail("phase.to_move", f"the {name} step has to_move {shape}")
    if name == "commit":
        waiting = tuple(
            p for p in game.seats if s.alive >> p & 1 and s.table.ids[p] == koa.NOT_COMMITTED
        )
        if to_move != waiting or not simultaneous:
            fail("phase.to_move", f"the players still owing a card are {waiting}")
    elif name == "seal":
        if koa.sealing_house(s) < 0:
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
            or not s.discards[s.recovering[0]] & koa.CHARACTERS
        ):
            fail("recovering", "the return step belongs to the first house in the queue")
        if name == "discard" and (
            not s.hits or to_move != (s.hits[0][0],) or not s.courts[s.hits[0][0]] & koa.KEEPERS
        ):
            fail("hits", "the discard step belongs to the house taking the first hit")
        if to_move[0] not in game.seats:
            fail("phase.to_move", "only a real player decides; automated households follow a rule")
    _koa_check_progress(s)


def _koa_check_progress(s: Any) -> None:
    """What the deal and each step of a round require: a state that passes can be played
    on to the end by the rules."""
    game = s.game
    houses = game.houses
    name = s.phase.name
    fail = koa._fail
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
        initial = koa._initial_state(game)
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
        for h in range(koa.MAX_HOUSES):
            if ids[h] != koa.NOT_COMMITTED and not alive >> h & 1:
                fail(f"table.ids[{h}]", f"house {h} is out and puts no card face down")
    pending = s.recovering or s.hits or (s.scored and name != "over")
    if name in ("seal", "commit", "over") and pending:
        fail("hits", f"nothing of a round's resolution is pending in the {name} step")
    if name == "seal":
        for p in game.seats:
            if ids[p] != koa.NOT_COMMITTED:
                fail(
                    f"table.ids[{p}]",
                    "the automated households put their cards face down before the players",
                )
    elif name == "commit":
        hands = s.hands
        for h in game.automated:
            if alive >> h & 1 and hands[h] and ids[h] == koa.NOT_COMMITTED:
                fail(f"table.ids[{h}]", "every automated household with cards has sealed one")
    if name == "over" and ids.count(koa.NOT_COMMITTED) != len(ids):
        fail("table.ids", "the table is cleared once the game is over")
