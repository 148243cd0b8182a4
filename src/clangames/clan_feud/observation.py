"""What each player may know, re-dealing what they cannot see, and checking saved states.

Private: each hand of action cards (its size is public), a battle commitment until both
sides are in, the order and contents of the action deck (only its size is public), and
which regular events the event deck holds (a draw is chance over the events not yet
drawn, so the state never stores them). Everything else is public.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import attrs

from clangames.clan_feud.rows import occupied_by
from clangames.clan_feud.state import BATTLE_TASKS, ENGLAND, Battle, EnglishArmy, Task
from clangames.engine.codec import describe
from clangames.engine.errors import StateDecodeError
from clangames.engine.phases import CHANCE
from clangames.engine.rng import Rng
from clangames.engine.simultaneous import NOT_COMMITTED, Commitments

if TYPE_CHECKING:
    from clangames.clan_feud.game import ClanFeudGame
    from clangames.clan_feud.state import ClanFeudState

SEALED_PHASES = ("bcards", "btokens")
"""While these run, a battle's commitments are sealed."""


@attrs.frozen(slots=True)
class ClanFeudObservation:
    """One seat's view (``viewer`` -1 for the public view): the state's public fields, the
    viewer's own hand, everyone's hand size, the deck's size, and a battle whose sealed
    commitments show only the viewer's own."""

    viewer: int
    phase: str
    to_move: tuple[int, ...]
    turn: int
    order: tuple[int, ...]
    england: int
    track_start: int
    at_war: bool
    events: tuple[int, ...]
    deck_size: int
    discards: tuple[int, ...]
    controller: tuple[int, ...]
    site: tuple[int, ...]
    towers: tuple[int, ...]
    troops: tuple[tuple[int, ...], ...]
    moved: tuple[int, ...]
    king: int
    regent: int
    gold_out: bool
    money: tuple[int, ...]
    feud: tuple[int, ...]
    vp: tuple[int, ...]
    covered: tuple[int, ...]
    filled: tuple[int, ...]
    pool: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]
    """The viewer's cards per design; empty in the public view."""
    hand_sizes: tuple[int, ...]
    passed: int
    city_dice: tuple[int, ...]
    tasks: tuple[Task, ...]
    battle: Battle | None
    mods: tuple[int, ...] = ()
    """The modifiers of the card played with the die being resolved (public)."""
    upkeep_cut: tuple[int, ...] = ()
    known: tuple[tuple[int, int, int], ...] = ()
    """Stolen cards: (taker, victim, design), the design -1 unless the viewer is the taker
    or the victim (the others know only that one card moved)."""
    english: tuple[EnglishArmy, ...] = ()
    """The English armies on the board: territory, troops and level tokens (public)."""


def _known(s: ClanFeudState, viewer: int | None) -> tuple[tuple[int, int, int], ...]:
    return tuple(
        (t, v, d if viewer is not None and viewer in (t, v) else -1) for t, v, d in s.known
    )


def _sealed_battle(s: ClanFeudState, viewer: int | None) -> Battle | None:
    b = s.battle
    if b is None or s.phase.name not in SEALED_PHASES:
        return b
    side = -1 if viewer is None or viewer not in b.owners else b.owners.index(viewer)

    def seal(c: Commitments) -> Commitments:
        return Commitments(c.seen_by(side)) if side >= 0 else Commitments.open(2)

    return attrs.evolve(b, cards=seal(b.cards), tokens=seal(b.tokens))


def observe(s: ClanFeudState, viewer: int | None) -> ClanFeudObservation:
    """The view of seat ``viewer`` (None: what everyone may know)."""
    return ClanFeudObservation(
        viewer=-1 if viewer is None else viewer,
        phase=s.phase.name,
        to_move=s.to_move,
        turn=s.turn,
        order=s.order,
        england=s.england,
        track_start=s.track_start,
        at_war=s.at_war,
        events=s.events,
        deck_size=sum(s.deck),
        discards=s.discards,
        controller=s.controller,
        site=s.site,
        towers=s.towers,
        troops=s.troops,
        moved=s.moved,
        king=s.king,
        regent=s.regent,
        gold_out=s.gold_out,
        money=s.money,
        feud=s.feud,
        vp=s.vp,
        covered=s.covered,
        filled=s.filled,
        pool=s.pool,
        hand=() if viewer is None else s.hands[viewer],
        hand_sizes=tuple(sum(h) for h in s.hands),
        passed=s.passed,
        city_dice=s.city_dice,
        tasks=s.tasks,
        battle=_sealed_battle(s, viewer),
        mods=s.mods,
        upkeep_cut=s.upkeep_cut,
        known=_known(s, viewer),
        english=s.english,
    )


def resample(s: ClanFeudState, viewer: int, rng: Rng) -> ClanFeudState:
    """A state ``viewer`` cannot tell from ``s``: the other hands dealt again from the
    cards the viewer cannot see (the deck and those hands), and another side's sealed
    commitment chosen again among what its new hand allows.

    Stolen cards: a card the viewer knows a taker holds (it was stolen from the viewer)
    stays in that hand; what the viewer does not know of another theft (which card moved
    between two other players) is chosen again from the taker's new hand."""
    designs = len(s.deck)
    reserved = [[0] * designs for _ in s.hands]
    for taker, victim, d in s.known:
        if victim == viewer and taker != viewer:
            reserved[taker][d] += 1
    unseen: list[int] = []
    for d in range(designs):
        count = s.deck[d] + sum(h[d] - reserved[q][d] for q, h in enumerate(s.hands) if q != viewer)
        unseen += [d] * count
    shuffled, rng = rng.shuffled(unseen)
    hands = [list(h) for h in s.hands]
    at = 0
    for q, h in enumerate(s.hands):
        if q == viewer:
            continue
        size = sum(h) - sum(reserved[q])
        hands[q] = list(reserved[q])
        for d in shuffled[at : at + size]:
            hands[q][d] += 1
        at += size
    deck = [0] * designs
    for d in shuffled[at:]:
        deck[d] += 1
    battle = s.battle
    if battle is not None and s.phase.name in SEALED_PHASES:
        game = s.game
        cards = list(battle.cards.ids)
        tokens = list(battle.tokens.ids)
        for side, q in enumerate(battle.owners):
            if q < 0 or q == viewer:
                continue
            if cards[side] != NOT_COMMITTED:
                options = [game.action_id(game.words["no card"])]
                options += [
                    game.action_id(game.card_actions[d]) for d in range(designs) if hands[q][d]
                ]
                pick, rng = rng.below(len(options))
                cards[side] = options[pick]
            if tokens[side] != NOT_COMMITTED:
                k, rng = rng.below(min(s.feud[q], 40) + 1)
                tokens[side] = game.action_id(game.commit_actions[k])
        battle = attrs.evolve(
            battle, cards=Commitments(tuple(cards)), tokens=Commitments(tuple(tokens))
        )
    known = []
    for taker, victim, d in s.known:
        if viewer not in (taker, victim):
            held = [c for c in range(designs) for _ in range(hands[taker][c])]
            pick, rng = rng.below(len(held))
            d = held[pick]
        known.append((taker, victim, d))
    return attrs.evolve(
        s,
        hands=tuple(tuple(h) for h in hands),
        deck=tuple(deck),
        battle=battle,
        options=None,
        known=tuple(known),
    )


def check_consistency(s: ClanFeudState) -> None:
    """Raise StateDecodeError naming the field if a decoded state could not arise."""
    from clangames.clan_feud.encoding import CAPS, highest_task_value
    from clangames.clan_feud.playing import MOD_FIELDS
    from clangames.clan_feud.rules import HANDLERS, OPTIONS, RUN, WEIGHTS

    game = s.game
    n = game.num_players
    size = game.board.size
    designs = len(game.deck.designs)

    def fail(field: str, why: str) -> None:
        raise StateDecodeError(f"state.{field}: {why}")

    for field, seq, length in (
        ("order", s.order, n),
        ("money", s.money, n),
        ("feud", s.feud, n),
        ("vp", s.vp, n),
        ("covered", s.covered, n),
        ("filled", s.filled, n),
        ("pool", s.pool, n),
        ("hands", s.hands, n),
        ("troops", s.troops, n),
        ("city_dice", s.city_dice, n),
        ("controller", s.controller, size),
        ("site", s.site, size),
        ("towers", s.towers, size),
        ("moved", s.moved, 3 * size),
        ("deck", s.deck, designs),
        ("discards", s.discards, designs),
    ):
        if len(seq) != length:
            fail(field, f"expected {length} entries, got {len(seq)}")
    if sorted(s.order) != list(range(n)):
        fail("order", f"expected an order of the seats 0..{n - 1}, got {s.order}")
    if not _seats_and_board_look_consistent(s, n, size, designs):
        _check_seats_and_board(s, n, size, designs, fail)
    if not 0 <= s.king < size or not -1 <= s.regent < n:
        fail("king", "King James stands in a territory; the regent is a seat or -1")
    if s.regent >= 0:
        b = s.battle
        with_attackers = b is not None and b.king == 0 and b.owners[0] == s.regent
        if not with_attackers and not any(s.troops[s.regent][3 * s.king : 3 * s.king + 3]):
            fail("regent", "the regent's army is not with King James")
    elif s.gold_out is False and s.king != game.board.king_start:
        fail("king", "King James has not moved before his first claim")
    if not 0 <= s.england <= game.england.last_step:
        fail("england", f"the track runs 0..{game.england.last_step}")
    if len(set(s.events)) != len(s.events) or any(
        not 0 <= e < len(game.events.regular) for e in s.events
    ):
        fail("events", "distinct regular events")
    if len(s.events) > game.deck_size:
        fail("events", f"at most {game.deck_size} regular events are drawn")
    if s.passed >> n:
        fail("passed", "a bitmask of the seats")
    for taker, victim, d in s.known:
        if not (0 <= taker < n and 0 <= victim < n and taker != victim and 0 <= d < designs):
            fail(
                "known", f"expected (taker, victim, design) of two seats, got {(taker, victim, d)}"
            )
        if not s.hands[taker][d]:
            fail("known", f"seat {taker} is known to hold design {d} but does not")
    if s.mods and len(s.mods) != MOD_FIELDS:
        fail("mods", f"expected no modifiers or {MOD_FIELDS}, got {len(s.mods)}")
    if s.mods and not 0 <= s.mods[0] < n:
        fail("mods", "a card's modifiers belong to a seat")
    if s.upkeep_cut and (len(s.upkeep_cut) != n or min(s.upkeep_cut) < 0):
        fail("upkeep_cut", f"expected {n} cuts >= 0")
    _check_english(s, fail)
    if s.battle is not None:
        _check_battle(s, s.battle, fail)
    kind = s.phase.name
    if not s.tasks:
        if kind != "over":
            fail("tasks", "only a finished game has no tasks")
        # what a pending task keeps has to be gone too (these are checked below for a
        # game under way; a finished one passed them by and kept any value)
        _check_mods(s, fail)
        _check_moved(s, fail)
        if s.battle is not None:
            fail("battle", "a battle exists exactly while battle tasks are on the stack")
        _check_armies_hold(s, fail)
        return
    top = s.tasks[-1]
    if kind != top.kind:
        fail("phase", f"the phase {kind!r} is not the top task {top.kind!r}")
    top_value = highest_task_value(game)
    if len(s.tasks) > CAPS["tasks"]:
        fail("tasks", f"at most {CAPS['tasks']} tasks are ever pending, got {len(s.tasks)}")
    for i, task in enumerate(s.tasks):
        if len(task.data) > CAPS["task_data"]:
            fail(
                f"tasks[{i}].data",
                f"a task keeps at most {CAPS['task_data']} values, got {len(task.data)}",
            )
        values = (task.a, task.b, task.c, *task.data)
        if min(values) < -1 or max(values) > top_value:
            fail(
                f"tasks[{i}]",
                f"a task's counters and data run -1..{top_value}, got {describe(values, 120)}",
            )
        if task.kind not in HANDLERS:
            fail(f"tasks[{i}].kind", f"expected one of the rules' tasks, got {describe(task.kind)}")
        if not -1 <= task.player < n:
            fail(f"tasks[{i}].player", f"expected a seat or -1, got {task.player}")
    _check_tasks(s, fail)
    _check_mods(s, fail)
    _check_moved(s, fail)
    _check_armies_hold(s, fail)
    automatic = top.kind in RUN and top.kind not in OPTIONS and top.kind not in WEIGHTS
    if automatic and top.kind not in SEALED_PHASES:
        fail("tasks", f"an automatic task {top.kind!r} cannot wait on top")
    if s.phase.is_chance != (top.kind in WEIGHTS and s.to_move == (CHANCE,)):
        fail("phase", f"the {top.kind!r} task and a chance phase disagree")
    if top.kind in OPTIONS and s.to_move != (top.player,):
        fail("phase.to_move", f"the {top.kind!r} decision belongs to seat {top.player}")
    if (s.battle is not None) != _in_battle(s):
        fail("battle", "a battle exists exactly while battle tasks are on the stack")
    _check_options(s, top, fail)


_COLUMN_SLOTS = sum(1 << 5 * column for column in range(1, 5))
"""Slot 0 of each board column that has a II/III pair: ``covered >> 2`` brings a column's
III slot there, ``>> 3`` and ``>> 4`` its two II slots."""

_SITES = frozenset(
    (site, towers) for site in range(3) for towers in range(3) if (site > 0) + towers <= 2
)
"""Every (site, tower houses) pair a territory can hold: at most two buildings, of which
one castle or city."""

_NONZERO = bytes([0] + [1] * 255)
"""A ``bytes.translate`` table: a count byte becomes 1 if it is not 0."""


class _Board(NamedTuple):
    """Per game, what the quick test compares whole tuples with (the rules' tables
    included: the rules import this module, so they are looked up once per game here
    rather than imported at each call)."""

    copies: list[int]
    """Each design's number of cards."""
    territory_bytes: int
    """Byte 3t set to 1 for each territory t (its first troop count's byte, little-endian)."""
    territory_counts: int
    """Byte 3t set to 0xFF for each territory t: masks whole counts (``territory_bytes``
    would keep only each count's lowest bit)."""
    amount: int
    """The cap on pounds, feud tokens and victory points."""
    dice: int
    """The cap on a pool's dice of one colour and value."""
    not_exists: int
    """The board slots that do not exist."""
    not_cover: int
    """The board slots the set-up leaves uncovered."""
    supply: tuple[int, ...]
    """Each troop type's supply per clan."""


_BOARDS: weakref.WeakKeyDictionary[ClanFeudGame, _Board] = weakref.WeakKeyDictionary()


def _board(game: ClanFeudGame) -> _Board:
    found = _BOARDS.get(game)
    if found is None:
        from clangames.clan_feud.encoding import CAPS
        from clangames.clan_feud.rules import EXISTS, INITIAL_COVER, SUPPLY

        found = _BOARDS[game] = _Board(
            [design.copies for design in game.deck.designs],
            sum(1 << 24 * t for t in range(game.board.size)),
            sum(0xFF << 24 * t for t in range(game.board.size)),
            CAPS["amount"],
            CAPS["dice"],
            ~EXISTS,
            ~INITIAL_COVER,
            SUPPLY,
        )
    return found


def _seats_and_board_look_consistent(s: ClanFeudState, n: int, size: int, designs: int) -> bool:
    """True only if :func:`_check_seats_and_board` passes: the same conditions tested on
    whole tuples with built-ins instead of a loop per seat, design and territory. False
    (or anything raised here) says nothing: the detailed path then runs and words the
    problem. The fields' lengths are checked before this runs.

    Counts are read as bytes (``bytes()`` refuses one below 0 or above 255: no count of a
    state the check accepts comes near 255), and a seat's troops as one little-endian int
    with a byte a count: masking every third byte and taking the remainder by
    ``2 ** 24 - 1`` sums a troop type over the territories (``2 ** 24`` leaves remainder
    1, and the sum stays far below the modulus), and the same bytes mapped to 0/1 say
    where the seat has an army."""
    try:
        board = _board(s.game)
        cap = board.amount
        money, feud, vp = s.money, s.feud, s.vp
        if min(money) < 0 or min(feud) < 0 or max(money) > cap or max(feud) > cap:
            return False
        if min(vp) < -cap or max(vp) > cap:
            return False
        for covered, filled in zip(s.covered, s.filled, strict=True):
            if (
                covered & board.not_cover
                or filled & board.not_exists
                or filled & covered
                or covered >> 2 & ~(covered >> 3 & covered >> 4) & _COLUMN_SLOTS
            ):
                return False
        pool = s.pool
        dice = b"".join(map(bytes, pool))
        if set(map(len, pool)) != {21} or max(dice) > board.dice or any(dice[5::21]):
            return False
        troops, hands, city = s.troops, s.hands, s.city_dice
        if set(map(len, troops)) != {3 * size}:
            return False
        b = s.battle
        attacker = b.owners[0] if b is not None else -2
        infantry, cavalry, artillery = board.supply
        lanes, counts_of = board.territory_bytes, board.territory_counts
        armies = 0
        for p, row in enumerate(troops):
            extra = b.attackers if p == attacker and b is not None else (0, 0, 0)
            counts = bytes(row)
            troop = int.from_bytes(counts, "little")
            if (
                (troop & counts_of) % 0xFFFFFF + extra[0] > infantry
                or (troop >> 8 & counts_of) % 0xFFFFFF + extra[1] > cavalry
                or (troop >> 16 & counts_of) % 0xFFFFFF + extra[2] > artillery
            ):
                return False
            # byte 3t now says whether the seat has an army in territory t; the seats'
            # sum counts the armies there
            held = int.from_bytes(counts.translate(_NONZERO), "little")
            armies += (held | held >> 8 | held >> 16) & lanes
        if armies & lanes * 0xFE:  # two armies in one territory
            return False
        if set(map(len, hands)) != {designs} or min(city) < 0 or max(city) >= 1 << size:
            return False
        deck, discards = s.deck, s.discards
        b"".join(map(bytes, (deck, discards, *hands)))  # refuses a negative count
        return (
            list(map(sum, zip(deck, discards, *hands, strict=True))) == board.copies
            and min(s.controller) >= -1
            and max(s.controller) < n
            and _SITES.issuperset(zip(s.site, s.towers, strict=True))
        )
    except Exception:  # an odd value: the detailed path says what is wrong
        return False


def _check_seats_and_board(
    s: ClanFeudState, n: int, size: int, designs: int, fail: Callable[[str, str], None]
) -> None:
    """Each seat's amounts, board, dice, troops and hand, the cards of every design, and
    each territory's controller, buildings and armies, field by field: the detailed path,
    which words the first problem (:func:`_seats_and_board_look_consistent` is the quick
    one)."""
    from clangames.clan_feud.encoding import CAPS
    from clangames.clan_feud.rules import EXISTS, INITIAL_COVER, SUPPLY

    game = s.game
    cap = CAPS["amount"]
    for p in range(n):
        for field, what in (("money", "pounds"), ("feud", "feud tokens")):
            value = getattr(s, field)[p]
            if value < 0:
                fail(f"{field}[{p}]", f"{what} are never negative, got {value}")
            if value > cap:
                fail(f"{field}[{p}]", f"{what} stay within 0..{cap}, got {value}")
        if not -cap <= s.vp[p] <= cap:
            fail(f"vp[{p}]", f"victory points stay within -{cap}..{cap}, got {s.vp[p]}")
        if s.covered[p] & ~INITIAL_COVER:
            fail(f"covered[{p}]", "only the set-up's covered slots can be covered")
        if s.filled[p] & ~EXISTS or s.filled[p] & s.covered[p]:
            fail(f"filled[{p}]", "a die sits only on an existing, uncovered slot")
        for column in range(1, 5):
            if s.covered[p] >> (5 * column + 2) & 1 and (
                not s.covered[p] >> (5 * column + 3) & 1 or not s.covered[p] >> (5 * column + 4) & 1
            ):
                fail(f"covered[{p}]", f"column {column}'s III slot is bought before its II")
        if len(s.pool[p]) != 21 or min(s.pool[p]) < 0 or s.pool[p][5]:
            fail(f"pool[{p}]", "21 counts >= 0, and a black die never shows 3")
        if max(s.pool[p]) > CAPS["dice"]:
            fail(f"pool[{p}]", f"at most {CAPS['dice']} dice of one colour and value")
        if len(s.troops[p]) != 3 * size or min(s.troops[p]) < 0:
            fail(f"troops[{p}]", f"expected {3 * size} counts >= 0")
        for k in range(3):
            total = sum(s.troops[p][k::3])
            if s.battle is not None and s.battle.owners[0] == p:
                total += s.battle.attackers[k]
            if total > SUPPLY[k]:
                fail(f"troops[{p}]", f"{total} troops of type {k} exceed the supply {SUPPLY[k]}")
        if len(s.hands[p]) != designs or min(s.hands[p]) < 0:
            fail(f"hands[{p}]", "card counts per design, never negative")
        if not 0 <= s.city_dice[p] < 1 << size:
            fail(f"city_dice[{p}]", f"expected a bitmask of the {size} territories")
    for d, design in enumerate(game.deck.designs):
        total = s.deck[d] + s.discards[d] + sum(h[d] for h in s.hands)
        if total != design.copies or s.deck[d] < 0 or s.discards[d] < 0:
            fail("deck", f"design {design.id} has {total} cards, not {design.copies}")
    for t in range(size):
        if not -1 <= s.controller[t] < n:
            fail(f"controller[{t}]", f"expected a seat or -1, got {s.controller[t]}")
        if not 0 <= s.site[t] <= 2 or s.towers[t] < 0 or (s.site[t] > 0) + s.towers[t] > 2:
            fail(f"towers[{t}]", "at most 2 buildings, one castle-or-city")
        holders = [p for p in range(n) if any(s.troops[p][3 * t : 3 * t + 3])]
        if len(holders) > 1:
            fail(f"troops[{t}]", f"seats {holders} all have armies in territory {t}")


def _check_english(s: ClanFeudState, fail: Callable[[str, str], None]) -> None:
    """English armies: on known territories, one a territory, in order, on no clan army's
    ground, of known level tokens, within England's supply, and only while at war."""
    b = s.battle
    track = s.game.england
    supply = track.supply
    calm = not s.english and (b is None or ENGLAND not in b.owners)
    if calm and len(supply) >= 3 and min(supply) >= 0:
        return  # no English army anywhere: nothing below can fail (the usual case)
    from clangames.clan_feud.war import english_total

    size = s.game.board.size
    places = [a.territory for a in s.english]
    recruiting = {(task.player, task.b) for task in s.tasks if task.kind == "recruit"}
    if places != sorted(set(places)) or any(not 0 <= t < size for t in places):
        fail("english", "at most one English army a territory, by ascending territory")
    for i, army in enumerate(s.english):
        t = army.territory
        if min(army.troops) < 0 or not any(army.troops):
            fail(f"english[{i}]", "an English army has troops, never a negative count")
        if not army.tokens or any(not 1 <= k <= len(track.levels) for k in army.tokens):
            fail(f"english[{i}]", f"level tokens are levels 1..{len(track.levels)}")
        if len(army.tokens) > sum(track.supply):
            fail(f"english[{i}]", f"an army carries at most {sum(track.supply)} level tokens")
        # a recruit into t in progress gathers its troops there, then they attack
        if any(
            any(row[3 * t : 3 * t + 3]) and (p, t) not in recruiting
            for p, row in enumerate(s.troops)
        ):
            fail(f"english[{i}]", "a clan army stands in an English army's territory")
    if b is not None and b.owners[0] == ENGLAND and not b.levels:
        fail("battle.levels", "an attacking English army carries its level tokens")
    totals = english_total(s)
    if any(totals[k] > track.supply[k] for k in range(3)):
        fail("english", f"England has {totals} troops on the board, beyond {track.supply}")
    at_war = track.at_war(s.england)
    if not at_war and (s.english or (b is not None and ENGLAND in b.owners)):
        fail("english", "English armies stand only while England is at war")


def _check_battle(s: ClanFeudState, b: Battle, fail: Callable[[str, str], None]) -> None:
    """A battle's numbers within what a battle can hold: places on the board, sides 0 or
    1, a revealed card of a known design, counters within the supply and the caps the
    observation declares (the same bounds as its encoding)."""
    from clangames.clan_feud.actions import MAX_COMMIT
    from clangames.clan_feud.encoding import CAPS

    game = s.game
    size = game.board.size
    n = game.num_players
    designs = len(game.deck.designs)
    actions = len(game.actions)
    side_cap = CAPS["troops"] * 3 * size
    levels = len(game.england.levels)
    checks = (
        ("territory", 0 <= b.territory < size, f"a territory 0..{size - 1}"),
        ("owners", all(-1 <= q < n for q in b.owners), f"two seats 0..{n - 1} or -1"),
        ("origin", -1 <= b.origin < size, f"a territory 0..{size - 1} or -1"),
        ("attackers", all(0 <= k <= CAPS["troops"] for k in b.attackers), "troop counts"),
        ("king", -1 <= b.king <= 1, "a side 0 or 1, or -1"),
        ("roller", -1 <= b.roller <= 1, "a side 0 or 1, or -1"),
        ("played", all(-1 <= d < designs for d in b.played), f"designs 0..{designs - 1} or -1"),
        ("spent", all(0 <= k <= MAX_COMMIT for k in b.spent), f"tokens 0..{MAX_COMMIT}"),
        ("rounds", 0 <= b.rounds <= CAPS["task_value"], f"0..{CAPS['task_value']}"),
        ("levels", all(1 <= k <= levels for k in b.levels), f"levels 1..{levels}"),
    )
    for field, ok, expected in checks:
        if not ok:
            fail(f"battle.{field}", f"expected {expected}, got {describe(getattr(b, field), 120)}")
    for field in ("artillery", "hits", "losses"):
        if not all(0 <= k <= side_cap for k in getattr(b, field)):
            fail(f"battle.{field}", f"expected two counts 0..{side_cap}")
    for field in ("cards", "tokens"):
        ids = getattr(b, field).ids
        if len(ids) != 2 or not all(-1 <= a < actions for a in ids):
            fail(f"battle.{field}", "expected two sealed action ids (or -1)")
    if len(b.levels) > sum(game.england.supply):
        fail("battle.levels", f"at most {sum(game.england.supply)} level tokens")
    # the defender holds the ground: a clan with its army there and control of it, or
    # England with an army there (a state with the sides swapped played on into
    # negative troop counts)
    attacker, defender = b.owners
    t = b.territory
    if attacker == defender:
        fail("battle.owners", f"expected two different sides, got {b.owners}")
    if defender == ENGLAND:
        from clangames.clan_feud.war import holds

        if not holds(s, t):
            fail("battle.owners", f"England defends territory {t}, where no English army stands")
    elif s.controller[t] != defender or not any(s.troops[defender][3 * t : 3 * t + 3]):
        fail(
            "battle.owners",
            f"seat {defender} defends territory {t}, which it must control with an army there",
        )


def _check_mods(s: ClanFeudState, fail: Callable[[str, str], None]) -> None:
    """A card played with a die leaves its modifiers until its 'cardend' task clears them."""
    ends = tuple(t.player for t in s.tasks if t.kind == "cardend")
    if s.mods[:1] != ends:
        fail(
            "mods",
            "expected a card's modifiers (its seat first) exactly while its 'cardend' task"
            f" is pending; got modifiers of seat(s) {s.mods[:1]} and 'cardend' of {ends}",
        )


def _check_armies_hold(s: ClanFeudState, fail: Callable[[str, str], None]) -> None:
    """Outside a Military move and a battle, every clan army stands in a territory its
    clan controls (an army's arrival takes control, or starts a battle). A state that
    broke this let another clan recruit beside the army and play on into positions the
    rules cannot continue (an English march with nowhere to step). The armies are read
    from the rows' memo (:func:`occupied_by`: a played state shares its rows with the
    states before it), and a move or battle is looked for only where an army stands
    outside its clan's land, which is rare: the check runs on every state the harness
    sees."""
    controller = s.controller
    for p, row in enumerate(s.troops):
        for t in occupied_by(row):
            if controller[t] != p:
                if s.battle is not None or any(task.kind == "move" for task in s.tasks):
                    return
                holder = controller[t]
                fail(
                    f"troops[{p}]",
                    f"seat {p}'s army stands in territory {t}, which "
                    + ("nobody controls" if holder < 0 else f"seat {holder} controls")
                    + "; outside a Military move or a battle an army holds its territory",
                )


def _check_moved(s: ClanFeudState, fail: Callable[[str, str], None]) -> None:
    """The troops marked as moved: none outside a Military move, and within that move
    never more than the moving clan has in the territory (the rest are still to move)."""
    moving = [task.player for task in s.tasks if task.kind == "move"]
    if not moving:
        if any(s.moved):
            fail("moved", "troops are marked as moved only during a Military move")
        return
    row = s.troops[moving[-1]] if moving[-1] >= 0 else ()
    if len(row) != len(s.moved) or any(
        not 0 <= m <= have for m, have in zip(s.moved, row, strict=True)
    ):
        fail(
            "moved",
            f"expected counts from 0 to seat {moving[-1]}'s troops in each territory,"
            f" got {describe(s.moved, 120)}",
        )


def _in_battle(s: ClanFeudState) -> bool:
    return any(t.kind in BATTLE_TASKS for t in s.tasks)


# ---------------------------------------------------------------------------------------
# The task stack of a saved state, kind by kind


class _Spec(NamedTuple):
    """What one task kind's fields may hold in any state the rules make: who it concerns
    (``none`` -1, ``seat`` a seat, ``any`` either), the ranges of ``a``, ``b`` and ``c``,
    the length of ``data`` and the range of its values. A bound is a number or the name of
    a quantity of the game (:func:`_sizes`)."""

    player: str = "none"
    a: tuple[int | str, int | str] = (0, 0)
    b: tuple[int | str, int | str] = (0, 0)
    c: tuple[int | str, int | str] = (0, 0)
    length: tuple[int | str, int | str] = (0, 0)
    data: tuple[int | str, int | str] = (0, 0)


_COUNT = (0, "top")
"""A counter the rules decrement until it runs out (cards to draw, armies to move...)."""

TASK_FIELDS: dict[str, _Spec] = {
    # set-up and the turn
    "turn": _Spec(),
    "lot": _Spec(length=(0, "seat"), data=(0, "seat")),
    "start": _Spec(a=(0, "seat")),
    "final": _Spec(),
    # phase 1
    "phase1": _Spec(),
    "tiebreak": _Spec("seat", length=(2, "seats"), data=(0, "seat")),
    "order": _Spec("seat", length=(0, "seats-2"), data=(0, "seat")),
    "roll": _Spec(a=(0, 1), length=("rolls", "rolls"), data=(0, "dice")),
    "p1order": _Spec("any", a=(0, "seats")),
    "p1cards": _Spec("any", a=(0, "seat"), b=(0, "seats")),
    # phase 2 and the columns
    "phase2": _Spec(a=(0, "seat")),
    "assign": _Spec("seat", a=(0, "designs")),
    "cardend": _Spec("seat"),
    "feud": _Spec("seat", a=(1, 3), b=(0, 1), c=(0, "pool")),
    "income": _Spec("seat", a=(1, 3)),
    "income_roll": _Spec("seat", a=(0, "size")),
    "intrigue": _Spec("seat", a=(1, 3)),
    "draw": _Spec("seat", a=_COUNT),
    "build": _Spec("seat", a=(1, 3), b=(0, 1)),
    "place": _Spec("seat", a=(0, 2)),
    "military": _Spec("seat", a=(1, 3)),
    "recruit": _Spec("seat", a=(1, 3), b=(-1, "terr"), c=(0, 2), length=(0, 3), data=(0, "take")),
    "free_recruit": _Spec("seat", a=(0, 2), b=(0, "take"), c=(0, "terr")),
    "move": _Spec("seat", a=_COUNT, b=_COUNT, c=(0, 1)),
    "army": _Spec("seat", a=(0, "terr"), c=(0, 3), length=(3, 3), data=(0, "take")),
    "step": _Spec("seat", a=(0, "terr"), b=_COUNT, c=_COUNT, length=(6, "size+5"), data=(0, "top")),
    # a battle (its round's steps, last first, in military._ROUND_TASKS)
    "round": _Spec(),
    "bcards": _Spec(),
    "btokens": _Spec(),
    "breveal": _Spec(),
    "bart": _Spec(a=(0, 1)),
    "bstrength": _Spec(),
    "broll": _Spec("seat", a=(0, 1), b=(1, "most_roll")),
    "bhits": _Spec(a=(0, 1), b=(1, "most_roll")),
    "bcas": _Spec(),
    "bloss": _Spec("any", a=(0, 1)),
    "bdeclare": _Spec("any"),
    "bdefend": _Spec("seat"),
    "bretreat": _Spec("seat"),
    # phase 3, England at war, the effect programs and the card primitives
    "phase3": _Spec(a=(0, 4)),
    "draw_event": _Spec(),
    "p3cards": _Spec("seat"),
    "upkeep": _Spec("seat", a=(0, "size")),
    "upkeep_pay": _Spec("seat", a=(1, "upkeep")),
    "espawn": _Spec(),
    "emarch": _Spec("any", a=_COUNT, length=(0, "size"), data=(0, "terr")),
    "emove": _Spec("any", a=(0, "terr"), b=_COUNT, c=(0, 1), length=(0, 1), data=(0, "terr")),
    "prog": _Spec("seat", a=(0, "nodes"), length=(0, "task_data"), data=(-1, "top")),
    "steal": _Spec("seat", a=(0, 1), b=_COUNT),
    "steal_card": _Spec("seat", a=(0, "seat"), b=_COUNT),
    "modify": _Spec(
        "seat", a=_COUNT, b=(0, 1), c=(0, "nodes-1"), length=(0, "pool"), data=(0, "pool-1")
    ),
    "reroll": _Spec("seat", a=_COUNT, b=(-1, "seat"), length=(0, "pool"), data=(0, "colours-1")),
    "th1": _Spec("seat", a=(0, 4)),
}
"""Each task kind's fields (see :mod:`rules`, :mod:`military`, :mod:`war`, :mod:`playing`
and :mod:`interpret` for their meaning): the one table the saved-state check reads."""

UNDER: dict[str, frozenset[str]] = {
    "army": frozenset({"move"}),
    "step": frozenset({"move"}),
    "free_recruit": frozenset({"recruit"}),
    "emove": frozenset({"emarch"}),
    "p3cards": frozenset({"upkeep"}),
    "steal": frozenset({"prog"}),
    "steal_card": frozenset({"prog"}),
    "modify": frozenset({"prog"}),
    "reroll": frozenset({"prog"}),
    "th1": frozenset({"prog"}),
}
"""The task a step of a decision is always pushed over (the kinds not named here go over
several; the turn's own frame is left free, as scenarios set up in tests put it over a
stand-in)."""

ONCE = frozenset(
    {"turn", "lot", "start", "phase2", "phase3", "assign", "cardend", "move", "army", "step"}
    | {"recruit", "free_recruit", "espawn", "emarch", "emove", "roll", "order", "tiebreak"}
    | {"upkeep_pay", "draw_event", "p1order", "p1cards", "phase1", "place", "th1", "modify"}
    | {"reroll", "steal", "steal_card", "build", "military"}
)
"""Kinds of which at most one is ever pending (a card's bonus action adds only a Feud, Income
or Intrigue task to its die's)."""


def _sizes(s: ClanFeudState) -> dict[str, int]:
    """The quantities the bounds of :data:`TASK_FIELDS` name, for ``s``'s game."""
    from clangames.clan_feud.actions import COLOURS, MAX_ROLL, MAX_TAKE, MAX_UPKEEP
    from clangames.clan_feud.encoding import CAPS, highest_task_value

    game = s.game
    n = game.num_players
    size = game.board.size
    colours = len(COLOURS)
    return {
        "seat": n - 1,
        "seats": n,
        "seats-2": n - 2,
        "terr": size - 1,
        "size": size,
        "size+5": size + 5,
        "designs": len(game.deck.designs),
        "nodes": len(game.nodes),
        "nodes-1": len(game.nodes) - 1,
        "pool": 3 * colours,
        "pool-1": 3 * colours - 1,
        "colours-1": colours - 1,
        "rolls": colours * n,
        "dice": max(len(rows) for rows in game.roll_table) - 1,
        "take": MAX_TAKE,
        "most_roll": MAX_ROLL,
        "upkeep": MAX_UPKEEP,
        "task_data": CAPS["task_data"],
        "top": highest_task_value(game),
    }


_Ranges = dict[str, tuple[str, tuple[tuple[int, int], ...]]]
_RANGES: weakref.WeakKeyDictionary[ClanFeudGame, _Ranges] = weakref.WeakKeyDictionary()
"""Per game, :data:`TASK_FIELDS` with its named bounds worked out: (player, the ranges of
a, b, c, the data's length and values), so that reading a state looks them up only."""


def _ranges(s: ClanFeudState) -> _Ranges:
    game = s.game
    found = _RANGES.get(game)
    if found is None:
        sizes = _sizes(s)
        found = {
            kind: (
                spec.player,
                tuple(
                    (
                        sizes[lo] if isinstance(lo, str) else lo,
                        sizes[hi] if isinstance(hi, str) else hi,
                    )
                    for lo, hi in (spec.a, spec.b, spec.c, spec.length, spec.data)
                ),
            )
            for kind, spec in TASK_FIELDS.items()
        }
        _RANGES[game] = found
    return found


def _check_tasks(s: ClanFeudState, fail: Callable[[str, str], None]) -> None:
    """Each task's fields within what its kind holds (:data:`TASK_FIELDS`, then
    :data:`_TASK_CHECKS`), and the stack's simple shape: ``turn`` and ``final`` only at
    the bottom (``final`` alone), a step of a decision over the task that pushed it
    (:data:`UNDER`), no kind of :data:`ONCE` twice, a battle's steps those of one round
    on top, each seat's upkeep once."""
    ranges = _ranges(s)
    n = s.game.num_players
    tasks = s.tasks
    seen: set[str] = set()
    for i, task in enumerate(tasks):
        kind = task.kind
        player, ((alo, ahi), (blo, bhi), (clo, chi), (llo, lhi), (dlo, dhi)) = ranges[kind]
        data = task.data
        if player == "none" and task.player != -1:
            fail(f"tasks[{i}].player", f"a {kind!r} task concerns nobody (-1), got {task.player}")
        if player == "seat" and not 0 <= task.player < n:
            fail(
                f"tasks[{i}].player",
                f"a {kind!r} task belongs to a seat 0..{n - 1}, got {task.player}",
            )
        if not (alo <= task.a <= ahi and blo <= task.b <= bhi and clo <= task.c <= chi):
            for field, value, lo, hi in (
                ("a", task.a, alo, ahi),
                ("b", task.b, blo, bhi),
                ("c", task.c, clo, chi),
            ):
                if not lo <= value <= hi:
                    fail(
                        f"tasks[{i}].{field}",
                        f"a {kind!r} task's {field} runs {lo}..{hi}, got {value}",
                    )
        if not llo <= len(data) <= lhi:
            fail(f"tasks[{i}].data", f"a {kind!r} task keeps {llo}..{lhi} values, got {len(data)}")
        if data and not (dlo <= min(data) and max(data) <= dhi):
            fail(
                f"tasks[{i}].data",
                f"a {kind!r} task's values run {dlo}..{dhi}, got {describe(data, 120)}",
            )
        if i and kind in ("turn", "final"):
            fail(f"tasks[{i}].kind", f"a {kind!r} task only ever sits at the bottom")
        below = UNDER.get(kind)
        if below is not None and (i == 0 or tasks[i - 1].kind not in below):
            fail(f"tasks[{i}].kind", f"a {kind!r} task sits over {' or '.join(sorted(below))}")
        if kind in ONCE:
            if kind in seen:
                fail(f"tasks[{i}].kind", f"at most one {kind!r} task is pending")
            seen.add(kind)
        check = _TASK_CHECKS.get(kind)
        if check is not None:
            check(s, i, task, fail)
    if tasks[0].kind == "final" and len(tasks) > 1:
        fail("tasks[0].kind", "the final count is the only task left")
    battle = [t for t in tasks if t.kind in BATTLE_TASKS]
    if battle:
        ranks = [_ROUND_RANK.get(t.kind, 0) - (t.kind in ("bloss", "bart")) * t.a for t in battle]
        tie = [(t.kind, t.a) for t in battle[4:]] == [("bhits", 1), ("bhits", 0)]
        in_order = ranks == list(range(len(ranks))) or (tie and ranks == [0, 1, 2, 3, 4, 4])
        on_top = all(t.kind in BATTLE_TASKS for t in tasks[-len(battle) :])
        if not in_order or not on_top or (len(battle) > 1 and battle[0].kind != "bdeclare"):
            fail(
                "tasks",
                "a battle's steps are what is left of one round, in order, on top of the"
                f" stack; got {[t.kind for t in battle]}",
            )
    upkeeps = [t.player for t in tasks if t.kind == "upkeep"]
    if len(set(upkeeps)) != len(upkeeps):
        fail("tasks", "each seat pays its upkeep once a turn")


_ROUND_RANK = {
    "bdeclare": 0,
    "bloss": 2,
    "bcas": 3,
    "bstrength": 4,
    "broll": 4,
    "bhits": 4,
    "bart": 6,
    "breveal": 7,
    "btokens": 8,
    "bcards": 9,
}
"""A battle task's place in a round's steps, bottom first (``bloss`` and ``bart`` one
less for side 1, which goes first); the comparison of strengths becomes a roll, or a
die each on a tie. ``round``, ``bdefend`` and ``bretreat`` (place 0) wait alone."""


def _check_options(s: ClanFeudState, top: Task, fail: Callable[[str, str], None]) -> None:
    """The decision or chance node on top has something to choose from (a field that
    its own range allows may still leave none: a seat's troops gone, its land taken)."""
    from clangames.clan_feud.rules import OPTIONS, WEIGHTS

    if s.phase.is_chance and top.kind in WEIGHTS:
        empty = not s.chance_weights()
    elif not s.phase.simultaneous and top.kind in OPTIONS:
        empty = not s.legal_actions(top.player)
    else:
        return
    if empty:
        fail("tasks", f"the {top.kind!r} task on top has no option to choose from")


def _check_phase3(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    """Phase 3 begins after phase 2, and draws one event a turn at its stage 1."""
    if task.a and any(t.kind == "phase2" for t in s.tasks[i:]):
        fail(f"tasks[{i}].a", "phase 3 waits at stage 0 until phase 2 is over")
    # ``a`` is the next stage: stage 1 pushes the draw, stage 2 reads the card drawn
    drawing = any(t.kind == "draw_event" for t in s.tasks[i:])
    drawn = s.turn - 1 + (task.a >= 2 and not drawing)
    if len(s.events) != drawn:
        fail(
            "events",
            f"expected {drawn} events drawn by turn {s.turn} at stage {task.a} of phase 3,"
            f" got {len(s.events)}",
        )


def _distinct(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    if len(set(task.data)) != len(task.data):
        fail(f"tasks[{i}].data", f"the seats of a {task.kind!r} task are distinct")


def _check_start(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    held = sum(c >= 0 for c in s.controller)
    if held != task.a:
        fail(
            "controller",
            f"while seat {task.a} draws its start, {task.a} territories are controlled, not {held}",
        )


def _check_roll(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    table = s.game.roll_table
    for j, count in enumerate(task.data):
        if count >= len(table[j % 7]):
            fail(
                f"tasks[{i}].data[{j}]",
                f"at most {len(table[j % 7]) - 1} dice of that colour, got {count}",
            )


def _check_recruit(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    if task.c >= task.a or (task.b < 0 and (task.c or task.data)):
        fail(
            f"tasks[{i}].c",
            f"a level {task.a} recruit has {task.a} troop stages, begun once its territory"
            f" is named; got stage {task.c} in territory {task.b}",
        )


def _check_army(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    """A moving army (``army`` taking its troops, ``step`` on its way) stands in territory
    ``a`` among its clan's troops there that have not moved yet."""
    t, row = task.a, s.troops[task.player]
    if any(task.data[k] + s.moved[3 * t + k] > row[3 * t + k] for k in range(3)):
        fail(
            f"tasks[{i}].data",
            f"the army's troops {describe(task.data[:3])} are not among seat {task.player}'s"
            f" unmoved troops in territory {t}",
        )


def _check_taking(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    """An army being formed: stage ``c`` has asked for artillery, then cavalry, then
    infantry (none yet of a type not asked), and asks about the King (stage 3) only with
    troops taken, of the regent, where the King stands."""
    stage, data = task.c, task.data
    if any(data[k] for k in range(3 - stage)):
        fail(f"tasks[{i}].data", f"stage {stage} has not yet asked for {describe(data)}")
    if stage == 3 and not (any(data) and s.regent == task.player and s.king == task.a):
        fail(f"tasks[{i}].c", "the King is asked about only as the regent's army leaves him")
    _check_army(s, i, task, fail)


def _check_move(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    moving = False
    for j, above in enumerate(s.tasks[i + 1 :], i + 1):
        if above.kind in ("army", "step"):
            moving = True
            if above.player != task.player:
                fail(
                    f"tasks[{j}].player",
                    f"expected seat {task.player}, whose move this army makes, got {above.player}",
                )
    if task.b > task.a or (moving and not task.b):
        fail(
            f"tasks[{i}].b",
            f"a move's armies begun run 0..{task.a}, at least 1 while one is moving; got {task.b}",
        )


def _check_step(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    from clangames.clan_feud.actions import MAX_TAKE

    data = task.data
    size = s.game.board.size
    if (
        max(data[:3]) > MAX_TAKE
        or data[3] > 1
        or any(t >= size for t in data[4:])
        or data[-1] != task.a
    ):
        fail(
            f"tasks[{i}].data",
            "a step's data is infantry, cavalry, artillery, the King 0/1, the origin and the"
            f" territories visited, the last where it stands; got {describe(data, 120)}",
        )
    _check_army(s, i, task, fail)


def _check_battle_task(
    s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]
) -> None:
    b = s.battle
    if b is None:
        return  # refused by the check of the whole stack
    side = 1 if task.kind in ("bdefend", "bretreat") else task.a
    if task.player >= 0 and task.player != b.owners[side]:
        fail(
            f"tasks[{i}].player",
            f"the {task.kind!r} decision belongs to side {side}'s seat {b.owners[side]}",
        )


def _check_upkeep(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    p = task.player
    if task.a and not any(s.troops[p][3 * task.a - 3 : 3 * task.a]):
        fail(f"tasks[{i}].a", f"seat {p} has no troops to remove in territory {task.a - 1}")


def _check_upkeep_pay(
    s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]
) -> None:
    p = task.player
    if i == len(s.tasks) - 1 and task.a > s.money[p] + s.feud[p]:
        fail(f"tasks[{i}].a", f"seat {p} cannot pay an upkeep of {task.a}")


def _check_espawn(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    if not s.events:
        fail("events", "English armies spawn where the last event drawn says")


def _check_emarch(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    if list(task.data) != sorted(set(task.data)):
        fail(f"tasks[{i}].data", "the territories of the armies done, ascending and distinct")


def _check_emove(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    from clangames.clan_feud.war import holds

    if len(task.data) != task.c:
        fail(f"tasks[{i}].data", "an English move keeps its target once it is named (c = 1)")
    if i == len(s.tasks) - 1 and not holds(s, task.a):
        fail(f"tasks[{i}].a", f"no English army stands in territory {task.a} to move")


def _check_steal_card(
    s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]
) -> None:
    if task.a == task.player:
        fail(f"tasks[{i}].a", "a card is stolen from another seat")


def _check_modify(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    from clangames.clan_feud.effects import Primitive

    e = s.game.nodes[task.c]
    if not (isinstance(e, Primitive) and e.name == "modify_die"):
        fail(f"tasks[{i}].c", "a 'modify' task names a modify_die node of the cards")


def _check_reroll(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    table = s.game.roll_table
    if task.b < 0 and task.data:
        fail(f"tasks[{i}].data", "dice are picked once the seat to reroll is named")
    for c in set(task.data):
        if task.data.count(c) >= len(table[c]):
            fail(f"tasks[{i}].data", f"at most {len(table[c]) - 1} dice of colour {c}")


def _check_prog(s: ClanFeudState, i: int, task: Task, fail: Callable[[str, str], None]) -> None:
    """An effect program's frames: (node, counter) pairs of statement nodes, a counter
    only where the interpreter keeps one (a ``repeat``'s repetitions left anywhere; the
    cards left to discard or the troops left to remove on the top frame of a waiting
    program only)."""
    from clangames.clan_feud.effects import If, May, Or, Primitive, Repeat, Seq

    game = s.game
    data = task.data
    where = f"tasks[{i}].data"
    if len(data) % 2:
        fail(where, f"an effect program keeps (node, counter) pairs, got {len(data)} values")
    size = game.board.size
    top = len(data) - 2
    waits = i == len(s.tasks) - 1  # the program waits on a decision in its top frame
    for j in range(0, len(data), 2):
        node, counter = data[j], data[j + 1]
        if not 0 <= node < len(game.nodes):
            fail(f"{where}[{j}]", f"expected an expression node 0..{len(game.nodes) - 1}")
        e = game.nodes[node]
        if not isinstance(e, (Primitive, Seq, If, Or, May, Repeat)):
            fail(f"{where}[{j}]", f"node {node} is not a statement of an effect")
        name = e.name if isinstance(e, Primitive) else ""
        if waits and j == top and not _waits(e, name, counter):
            fail(f"{where}[{j}]", f"node {node} with counter {counter} asks nothing")
        if counter < 0:
            continue
        if isinstance(e, Repeat):
            ok = counter <= e.times
        elif name == "discard_cards":
            ok = waits and j == top and counter <= sum(s.hands[task.player])
        elif name == "remove_troops":
            ok = waits and j == top and counter % 64 <= size
        else:
            ok = False
        if not ok:
            fail(f"{where}[{j + 1}]", f"node {node} keeps no counter {counter} there")


def _waits(e: object, name: str, counter: int) -> bool:
    """Whether the interpreter stops for a decision at a top frame of ``e`` with ``counter``."""
    from clangames.clan_feud.effects import May, Or, Repeat

    if name == "discard_cards":
        return counter > 0
    if name == "remove_troops":
        return counter >= 64
    return isinstance(e, (Or, May)) or (isinstance(e, Repeat) and counter > 0)


_TASK_CHECKS: dict[str, Callable[[ClanFeudState, int, Task, Callable[[str, str], None]], None]] = {
    "lot": _distinct,
    "tiebreak": _distinct,
    "order": _distinct,
    "start": _check_start,
    "phase3": _check_phase3,
    "roll": _check_roll,
    "recruit": _check_recruit,
    "army": _check_taking,
    "move": _check_move,
    "step": _check_step,
    "broll": _check_battle_task,
    "bloss": _check_battle_task,
    "bdefend": _check_battle_task,
    "bretreat": _check_battle_task,
    "upkeep": _check_upkeep,
    "upkeep_pay": _check_upkeep_pay,
    "espawn": _check_espawn,
    "emarch": _check_emarch,
    "emove": _check_emove,
    "steal_card": _check_steal_card,
    "modify": _check_modify,
    "reroll": _check_reroll,
    "prog": _check_prog,
}
"""What a kind's table entry cannot say (its values' relations to each other and to the
state), by kind."""
