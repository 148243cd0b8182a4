"""The exact posterior of the King's Kilt deal one player cannot see, and its sampler.

A re-deal (``resample``) must draw from every deal of the hidden cards that is consistent
with what the viewer sees, each with its probability under the rules' dealing. Given the
families, the other players' hands and the pile's hidden members are a uniform deal of the
hidden cards left; the work is in the families. Up to a constant, a deal of the families
has probability

    prod over clans c of  (a + r_c) falling (T_c + K_c)   /   prod over third draws j of Z_j

where ``a`` is the Clan Members per clan outside the one-per-clan deck, ``r_c`` is 1 when
clan c's deck card was left undealt (it went back to the members), ``T_c`` counts the
third family cards of clan c (everyone's), ``K_c`` the members of clan c seen since (the
viewer's hand, the pyramid, the pile's top, the discards...; the viewer knows it: the
clan's members less the viewer's family card, the others' revealed cards and the hidden
copies), and ``Z_j`` the members the j-th third was drawn among (those of the clans its
player did not hold). The numerator is the thirds' draws (``m_t``, one copy fewer of a
clan each time) and the draws of the cards seen since (the falling factorials carry on).
The denominator couples the players only a little: ``Z_j`` is at least ``Zmin_j`` (the
members left less ``a`` for each clan the player held) and exceeds it by one for each
earlier third of a clan the player holds.

So the sampler draws a deal with probability proportional to the numerator, exactly, from
a dynamic programme over the clans (each clan's holder in the deck deal, the undealt rest
or another player, and which players have it as a third; the state is how many deck and
third cards each other player, and the rest, still need), then keeps it with probability
``prod Zmin_j / Z_j`` (for several thirds per player, in an order of them drawn
uniformly), else draws again: the kept deals have exactly the posterior's distribution,
and few are redrawn (on average 7% of the draws with 4 players, 3% with 3, 1% with 2).
During the family deal every split of the undealt deck is equally likely (a weight of 1
per clan). A state the rules cannot reach (a
position built by hand: no deck cards, family sizes the deal does not give) has no such
posterior; there every consistent deal gets the same weight.

The programme's tables depend only on what the viewer knows, so they are cached (a few
of them, least recently used dropped) and the re-deals a search makes from one position
share them: each is one uniform number below the tables' total, read as the path it
falls on (a bisection per clan), the acceptance test, and the hands. Making them costs
far more than a re-deal, so once the family deal is over (one third each) a re-deal
first tries :class:`QuickDeal`, a proposal drawn without tables and kept with probability
target over bound times proposal: exact too, and the tables are made only where it does
not apply (the deal under way, several thirds each) or, rarely, all its tries fail. Where
other players show family cards, its rest and deck split come from :class:`_Joint`, a
small programme over the players that never proposes a split a shown card rules out.
A position drawn from more than a few times (a search's root) reads its rest, or the
joint's split with its product of bounds, from a flat list, and hands its kept try to the
re-deal unpacked.
"""

from __future__ import annotations

import functools
import itertools
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import perm
from operator import add
from typing import TYPE_CHECKING, TypeVar

from clangames.engine.draft import drafting, maker
from clangames.engine.piles import Multiset
from clangames.engine.rng import Rng

if TYPE_CHECKING:
    from clangames.kings_kilt.state import KingsKiltState

_MASK64 = (1 << 64) - 1

_CACHED = 8
"""How many keys' tables are kept (a search re-deals one position; the harness and the
pictures re-deal a state for each seat)."""

_REFILL = 1 << 32
"""Below this many values left in the stream's random number, a generator word is
appended before a small draw (the chance it must be redone stays under ``n / 2**32``)."""


class _Stream:
    """Uniform integers below any bound, as digits of one random number ``x`` (uniform
    below ``m``) that the generator's 64-bit words are appended to.

    Exact: while ``x`` is uniform below ``m``, a draw that lands below the largest multiple
    of ``n`` not above ``m`` splits it into a uniform digit and a quotient uniform below
    ``m // n`` (independent of the digit), and one that does not leaves ``x - limit``
    uniform below ``m % n``. One generator word serves several draws."""

    __slots__ = ("m", "seed", "x")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.x = 0
        self.m = 1

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, for any ``n >= 1``."""
        x, m = self.x, self.m
        limit = n << 32
        if m >= limit:
            # The usual draw (no word needed, the digit kept) with one division fewer:
            # ``x < m - m % n`` exactly when ``x // n < m // n``. The loop below redoes a
            # refused draw from the same ``x`` and ``m``, so the words consumed and the
            # digits given are the loop's own.
            q = m // n
            y, digit = divmod(x, n)
            if y < q:
                self.x = y
                self.m = q
                return digit
        while True:
            while m < limit:
                s = self.seed = (self.seed + 0x9E3779B97F4A7C15) & _MASK64
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                x = x << 64 | z ^ z >> 31
                m <<= 64
            q, r = divmod(m, n)
            if x < m - r:
                self.x, digit = divmod(x, n)
                self.m = q
                return digit
            x -= m - r
            m = r

    def order(self, items: list[int]) -> list[int]:
        """A uniformly shuffled copy of ``items`` (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


Key = tuple[
    bool,  # the family deal is under way
    int,  # third family cards dealt so far (the rules' count for the phase)
    int,  # players
    int,  # the viewer
    int,  # Clan Members per clan
    int,  # family cards dealt from the one-per-clan deck (the rules' number)
    int,  # third family cards per player (the rules' number)
    int,  # the viewer's family
    int,  # the viewer's deck cards
    tuple[int, ...],  # every player's revealed family cards
    tuple[int, ...],  # every player's family size
    tuple[int, ...],  # every player's number of deck cards
    int,  # the undealt family deck's size
    tuple[int, ...],  # hidden copies of each clan
]
"""Everything the posterior of the families depends on: what the viewer knows."""


class FamilyPosterior:
    """The family deals one player cannot rule out, as the tables of a dynamic programme
    over the clans, with the sampler's acceptance test (see the module's docstring).

    A deal is an int of bit lanes ``width`` bits wide: for the i-th other player (seat
    order) their deck cards in lane ``2i`` and whole family in lane ``2i + 1``, the undealt
    family deck in lane ``2m`` (``m`` other players), and, for the acceptance test, how
    many earlier thirds hit each seat's deck cards in lane ``2m + 1 + seat``."""

    __slots__ = (
        "a",
        "canonical",
        "dealt",
        "deck_v",
        "guards",
        "lanes",
        "layers",
        "members",
        "mode",
        "moves",
        "n",
        "others",
        "start",
        "sums",
        "thirds_v",
        "total",
        "viewer",
        "width",
        "zmin",
    )

    def __init__(self, key: Key) -> None:
        (
            family_deal,
            dealt,
            n,
            viewer,
            per_clan,
            from_deck,
            extra,
            fam_v,
            deck_v,
            revealed,
            fam_sizes,
            deck_sizes,
            undealt,
            pool,
        ) = key
        k = len(pool)
        a = per_clan - 1
        others = tuple(p for p in range(n) if p != viewer)
        m = len(others)
        need_deck = [deck_sizes[p] for p in others]
        need_third = [fam_sizes[p] - deck_sizes[p] for p in others]
        rest_need = undealt if family_deal else k - sum(deck_sizes)
        if rest_need < 0 or min(need_third, default=0) < 0:
            raise ValueError("no consistent deal exists: the family sizes do not add up")
        rev = [revealed[p] for p in others]
        thirds_v = fam_v & ~deck_v
        seen = self._seen(key) if not family_deal else None
        # The acceptance test applies to the rules' deals with thirds dealt: "fast" with one
        # third each (collision counts in lanes), "orders" with more (an order drawn).
        mode = "none"
        zmin: tuple[int, ...] = ()
        members = a * k + rest_need
        if seen is not None and dealt:
            zmin = tuple(members - j - a * (from_deck + j // n) for j in range(dealt))
            if min(zmin) >= 1:
                mode = "fast" if extra == 1 else "orders"
            else:  # pragma: no cover - the components' checks rule it out
                seen = None
        self.a = a
        self.n = n
        self.others = others
        self.dealt = dealt
        self.deck_v = deck_v
        self.thirds_v = thirds_v
        self.members = members
        self.mode = mode
        self.zmin = zmin
        self.width = max(k, 4)
        self.viewer = viewer
        self.lanes = 2 * m + 1

        # The state: how many deck and third cards each other player still needs, and the
        # undealt rest, in fields with a guard bit (a field taken below 0 clears it).
        most = max([rest_need, *need_deck, *need_third, 1])
        field = most.bit_length() + 1
        guard = 1 << (field - 1)
        guards = 0
        start = 0
        needs = [*itertools.chain(*zip(need_deck, need_third, strict=True)), rest_need]
        for f, need in enumerate(needs):
            guards |= guard << (f * field)
            start += (guard + need) << (f * field)
        self.start = start

        moves = [
            self._moves(c, pool[c], seen, rev, need_third, rest_need, field, family_deal)
            for c in range(k)
        ]
        # Others with the same needs and the same revealed cards are interchangeable: the
        # weight still to come is the same for states that differ by swapping them, so the
        # programme is run on states with such players' fields sorted (``canonical``).
        kinds: dict[tuple[int, int, int], list[int]] = {}
        for i in range(m):
            kinds.setdefault((need_deck[i], need_third[i], rev[i]), []).append(i)
        groups = tuple(tuple(g) for g in kinds.values() if len(g) > 1)
        canonical = _canonical(field, groups)
        self.canonical = canonical
        self.moves = moves
        self.guards = guards
        sums: list[dict[int, int]] = [{} for _ in range(k)]
        sums.append({guards: 1})
        self.sums = sums
        self.total = self._total(0, start)
        self.layers: list[dict[int, tuple[list[int], list[tuple[int, int, int]]]]] = [
            {} for _ in range(k)
        ]
        if not self.total:
            raise ValueError("no consistent deal exists: the state is inconsistent")

    def _total(self, c: int, s: int) -> int:
        """The weight of every way to finish the deal from clan ``c`` in state ``s`` (one
        with the interchangeable players' fields sorted)."""
        memo = self.sums[c]
        got = memo.get(s)
        if got is not None:
            return got
        guards = self.guards
        canonical = self.canonical
        below = self.sums[c + 1]
        last = c + 1 == len(self.moves)
        t = 0
        for delta, weight, _ in self.moves[c]:
            nxt = s - delta
            if nxt & guards != guards:
                continue
            if canonical is not None:
                nxt = canonical(nxt)
            b = below.get(nxt)
            if b is None:
                b = 0 if last else self._total(c + 1, nxt)
            t += weight * b
        memo[s] = t
        return t

    def _table(self, c: int, s: int) -> tuple[list[int], list[tuple[int, int, int]]]:
        """Clan ``c``'s ways from state ``s`` with their cumulative weights (each way's
        weight times the weight still to come after it), made the first time a draw
        passes there and kept."""
        guards = self.guards
        canonical = self.canonical
        cums: list[int] = []
        steps: list[tuple[int, int, int]] = []
        t = 0
        for delta, weight, bits in self.moves[c]:
            nxt = s - delta
            if nxt & guards != guards:
                continue
            nxt_key = nxt if canonical is None else canonical(nxt)
            b = self.sums[c + 1].get(nxt_key)
            if b is None:
                b = 0 if c + 1 == len(self.moves) else self._total(c + 1, nxt_key)
            if b:
                t += weight * b
                cums.append(t)
                steps.append((weight, nxt, bits))
        table = (cums, steps)
        self.layers[c][s] = table
        return table

    @staticmethod
    def _seen(key: Key) -> list[int] | None:
        """``K_c`` for every clan, if the state is one the rules' deal reaches (every deck
        and family size as the deal gives them, no more cards seen than exist); else None."""
        (
            _,
            dealt,
            n,
            viewer,
            per_clan,
            from_deck,
            _,
            fam_v,
            _,
            revealed,
            fam_sizes,
            deck_sizes,
            _,
            pool,
        ) = key
        if deck_sizes != (from_deck,) * n or fam_sizes != _dealt_sizes(n, dealt, from_deck):
            return None
        shown = _shown(revealed, viewer, len(pool))
        seen = [per_clan - (fam_v >> c & 1) - shown[c] - hidden for c, hidden in enumerate(pool)]
        return seen if min(seen) >= 0 else None

    def _moves(
        self,
        c: int,
        hidden: int,
        seen: list[int] | None,
        rev: list[int],
        need_third: list[int],
        rest_need: int,
        field: int,
        family_deal: bool,
    ) -> list[tuple[int, int, int]]:
        """Every way clan ``c`` can be dealt, as (state decrement, weight, deal bits): who
        has its deck card (the viewer, another player or the undealt rest) and which other
        players have it as a third (every player showing it has it one way or the other)."""
        others = self.others
        m = len(others)
        width = self.width
        rest_lane = 2 * m
        bit = 1 << c
        viewer = self.viewer
        viewer_third = bool(self.thirds_v & bit)
        showing = 0
        can_take = 0
        for i in range(m):
            showing |= (rev[i] >> c & 1) << i
            can_take |= (need_third[i] > 0) << i
        # The deck card's holder: the viewer (-1) if it is theirs, else another player or
        # the undealt rest.
        holders = [-1] if self.deck_v & bit else [*range(m), *([rest_lane] if rest_need else [])]
        fast = self.mode == "fast"
        a = self.a
        weights: dict[tuple[bool, int, int], int] = {}
        out = []
        for holder in holders:
            is_rest = holder == rest_lane
            is_other = 0 <= holder < m
            own = 1 << holder if is_other else 0
            must = showing & ~own
            if must & ~can_take:
                continue  # a player showing the clan without its deck card has it as a third
            free = can_take & ~own & ~must
            delta = 0
            bits = 0
            if is_rest:
                delta = 1 << (rest_lane * field)
                bits = bit << (rest_lane * width)
            elif is_other:
                delta = 1 << (2 * holder * field)
                bits = bit << (2 * holder * width) | bit << ((2 * holder + 1) * width)
            seat = viewer if holder == -1 else others[holder] if is_other else -1
            sub = free
            while True:  # every subset of the free takers, with the forced ones
                takers = sub | must
                size = takers.bit_count()
                left = hidden - (size + is_other - showing.bit_count()) - (is_rest and family_deal)
                if left >= 0:
                    weight = weights.get((is_rest, size, left))
                    if weight is None:
                        weight = 1
                        if seen is not None:
                            thirds = size + viewer_third
                            weight = perm(a + is_rest, thirds) * perm(left + seen[c], seen[c])
                        weights[(is_rest, size, left)] = weight
                    if weight:
                        move_delta = delta
                        move_bits = bits
                        hits = 0
                        for i in range(m):
                            if takers >> i & 1:
                                move_delta |= 1 << ((2 * i + 1) * field)
                                move_bits |= bit << ((2 * i + 1) * width)
                                hits += others[i] < seat
                        if fast and 0 <= seat < self.dealt:
                            hits += viewer_third and viewer < seat
                            move_bits += hits << ((self.lanes + seat) * width)
                        out.append((move_delta, weight, move_bits))
                if not sub:
                    break
                sub = (sub - 1) & free
        return out

    # -- sampling -----------------------------------------------------------------------------
    def path(self, u: int) -> tuple[int, int, int]:
        """The deal that the number ``u`` (below ``total``) falls on, and the interval of
        numbers that fall on it: a deal's numbers are one interval, as long as its weight."""
        state = self.start
        deal = 0
        walked = []
        for c, layer in enumerate(self.layers):
            table = layer.get(state)
            cums, steps = table if table is not None else self._table(c, state)
            i = bisect_right(cums, u)
            base = cums[i - 1] if i else 0
            weight, state, bits = steps[i]
            u = (u - base) // weight
            deal += bits
            walked.append((base, weight))
        low, high = 0, 1
        for base, weight in reversed(walked):
            low, high = base + weight * low, base + weight * high
        return deal, low, high

    def draw(self, stream: _Stream) -> int:
        """A deal with the posterior's distribution, from ``stream``."""
        layers = self.layers
        total = self.total
        start = self.start
        while True:
            u = stream.below(total)
            state = start
            deal = 0
            for c, layer in enumerate(layers):
                table = layer.get(state)
                cums, steps = table if table is not None else self._table(c, state)
                i = bisect_right(cums, u)
                if i:
                    u -= cums[i - 1]
                weight, state, bits = steps[i]
                u //= weight
                deal += bits
            if self.mode == "none":
                return deal
            if self.mode == "fast":
                hits = deal >> (self.lanes * self.width)
                if not hits:
                    return deal  # no earlier third hit a deck card: every Z_j is Zmin_j
                num, den = self._fast_odds(deal)
            else:
                num, den = self._odds(deal, [stream.order(t) for t in self._thirds(deal)])
            if stream.below(den) < num:
                return deal

    def _fast_odds(self, deal: int) -> tuple[int, int]:
        """``prod Zmin_j`` and ``prod Z_j`` with one third each: ``Z_j`` exceeds ``Zmin_j``
        by the earlier thirds of the player's deck clans (counted in the deal's lanes)."""
        width = self.width
        lane = (1 << width) - 1
        shift = self.lanes * width
        num = den = 1
        for j, least in enumerate(self.zmin):
            num *= least
            den *= least + (deal >> (shift + j * width) & lane)
        return num, den

    def _lane(self, deal: int, lane: int) -> int:
        return deal >> (lane * self.width) & ((1 << self.width) - 1)

    def decks(self, deal: int) -> list[int]:
        """Every seat's deck cards in ``deal`` (the viewer's as known)."""
        out = [self.deck_v] * self.n
        for i, p in enumerate(self.others):
            out[p] = self._lane(deal, 2 * i)
        return out

    def families(self, deal: int) -> list[int]:
        """Every other seat's family in ``deal`` (the viewer's entry: their deck cards
        and thirds, as known)."""
        out = [self.deck_v | self.thirds_v] * self.n
        for i, p in enumerate(self.others):
            out[p] = self._lane(deal, 2 * i + 1)
        return out

    def rest(self, deal: int) -> int:
        """The one-per-clan deck cards ``deal`` leaves undealt."""
        return self._lane(deal, 2 * len(self.others))

    def _thirds(self, deal: int) -> list[list[int]]:
        """Every seat's third family cards in ``deal``, by clan."""
        decks = self.decks(deal)
        families = self.families(deal)
        return [
            [c for c in range(self.width) if (f & ~d) >> c & 1]
            for f, d in zip(families, decks, strict=True)
        ]

    def _odds(self, deal: int, orders: list[list[int]]) -> tuple[int, int]:
        """``prod Zmin_j`` and ``prod Z_j`` for the thirds drawn in ``orders`` (each seat's,
        in the order they came), as the rules deal them: seat ``j % n`` draws the j-th."""
        a = self.a
        n = self.n
        rest = self.rest(deal)
        copies = [a + (rest >> c & 1) for c in range(self.width)]
        held = self.decks(deal)
        members = self.members
        num = den = 1
        for j in range(self.dealt):
            p = j % n
            third = orders[p][j // n]
            mine = held[p]
            num *= members - j - a * mine.bit_count()
            den *= members - j - sum(copies[c] for c in range(self.width) if mine >> c & 1)
            copies[third] -= 1
            held[p] = mine | 1 << third
        return num, den

    def acceptance(self, deal: int) -> Fraction:
        """The chance the sampler keeps ``deal`` once drawn (for the tests' exact
        distribution): ``prod Zmin_j / Z_j``, averaged over the thirds' orders."""
        if self.mode == "none":
            return Fraction(1)
        if self.mode == "fast":
            return Fraction(*self._fast_odds(deal))
        orders = [list(itertools.permutations(t)) for t in self._thirds(deal)]
        chances = [
            Fraction(*self._odds(deal, [list(o) for o in pick]))
            for pick in itertools.product(*orders)
        ]
        return sum(chances, Fraction(0)) / len(chances)

    def deals(self) -> Iterator[tuple[int, Fraction]]:
        """Every deal with the chance the sampler gives it, exactly (the tests' check):
        the tables' intervals tile ``[0, total)``, each deal kept with its acceptance."""
        weighted = []
        u = 0
        while u < self.total:
            deal, low, high = self.path(u)
            if low != u:
                raise RuntimeError(
                    f"the tables' intervals do not tile: the deal at {u} starts at {low}"
                )
            weighted.append((deal, Fraction(high - low, self.total) * self.acceptance(deal)))
            u = high
        mass = sum((w for _, w in weighted), Fraction(0))
        for deal, w in weighted:
            yield deal, w / mass


@functools.lru_cache(maxsize=64)
def _canonical(field: int, groups: tuple[tuple[int, ...], ...]) -> Callable[[int], int] | None:
    """The map from a state of the programme (``field`` bits per count, each other player's
    deck and third counts side by side) to the same state with the fields of each group of
    interchangeable players sorted; None when no two players are interchangeable. Its
    results are kept (states are few, and the same layout recurs from state to state)."""
    if not groups:
        return None
    pair = (1 << (2 * field)) - 1
    seen: dict[int, int] = {}

    def canonical(s: int) -> int:
        got = seen.get(s)
        if got is not None:
            return got
        out = s
        for group in groups:
            values = sorted((s >> (2 * i * field) & pair for i in group), reverse=True)
            for i, value in zip(group, values, strict=True):
                out = out & ~(pair << (2 * i * field)) | value << (2 * i * field)
        seen[s] = out
        return out

    return canonical


_TABLES: OrderedDict[Key, FamilyPosterior] = OrderedDict()
"""The posteriors' tables made last, by key (at most ``_CACHED``)."""


_Made = TypeVar("_Made")


def _kept(
    cache: OrderedDict[Key, _Made], limit: int, key: Key, make: Callable[[Key], _Made]
) -> _Made:
    """``make(key)``, kept in ``cache`` for the last ``limit`` keys used (the least recently
    used dropped first): what depends only on the key is made once while a search needs it."""
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    made = cache[key] = make(key)
    while len(cache) > limit:
        cache.popitem(last=False)
    return made


def posterior(key: Key) -> FamilyPosterior:
    """The posterior's tables for what a viewer knows (kept for the last few keys)."""
    return _kept(_TABLES, _CACHED, key, FamilyPosterior)


Tried = tuple[list[int], list[int], int, list[int]]
"""A kept quick try, unpacked (see :meth:`QuickDeal.tried`)."""


class QuickDeal:
    """A cheap exact draw for a position whose tables are not made yet, in the usual case
    (the deal over, one third each): a proposal drawn without tables, kept with
    probability target / (bound * proposal), so that a kept deal has exactly the
    posterior's distribution.

    The proposal: the undealt rest's clans with weight ``rho_c`` against ``beta_c`` (the
    clan's factor of the posterior undealt or held by another player; a small programme
    over the clans and the rest's size), the other players' deck cards a uniform split of
    the held clans, and each other player's third a draw without replacement from the
    copies a hidden third may be (``Q0_c``: the hidden copies, less the holder's own deck
    card) of the clans they do not hold. The posterior's weight is the proposal's times
    the thirds' normalisers ``R_i`` and ``Zmin_j / Z_j`` (a clan's factor with ``s`` thirds
    is its factor with none times ``Q0_c`` falling ``s``), so a deal is kept with
    probability ``prod R_i / B_i * prod Zmin_j / Z_j``, ``B_i`` a bound of ``R_i`` over all
    deals: the copies left less the most a player's deck cards can take from them.

    Where others show family cards, a shown card is a deck card or the player's third: the
    copies a third may be count the shown ones too, a player with a shown card outside
    their deck cards has it as their third (no draw; its weight is its clan's copies
    left), and the rest and deck split are drawn from :class:`_Joint` with weights that
    include each player's bound given their deck cards, so the odds divide by those."""

    __slots__ = (
        "beta",
        "bound",
        "clans",
        "copies_by",
        "deck_v",
        "draws",
        "flat",
        "from_deck",
        "held",
        "joint",
        "least",
        "others",
        "outside",
        "owns",
        "pool",
        "rest_need",
        "rho",
        "shown",
        "shows",
        "spans_den",
        "third_v",
        "viewer",
        "viewer_third",
        "ways",
        "width",
        "zmin",
        "zprod",
    )

    def __init__(self, key: Key, seen: list[int]) -> None:
        (_, _, n, viewer, per_clan, from_deck, _, fam_v, deck_v, revealed, _, _, _, hidden) = key
        k = len(hidden)
        a = per_clan - 1
        third_v = fam_v & ~deck_v
        others = _others(n, viewer)
        shows = revealed[:viewer] + revealed[viewer + 1 :]
        any_shown = any(shows)
        # The copies of each clan the others' family cards may be: the hidden ones and the
        # ones they show (a shown card is a deck card or a third like a hidden one).
        pool = tuple(map(add, hidden, _shown(revealed, viewer, k))) if any_shown else hidden
        held = list(_clans_of(~deck_v & ((1 << k) - 1)))
        rest_need = k - from_deck * n
        # A clan's factor, ``(a + r) falling (T + K)`` with no other player's third: its
        # copies less one plus those seen since are ``a`` less the viewer's third.
        beta = [perm(a, (third_v >> c & 1) + seen[c]) if pool[c] else 0 for c in held]
        rho = [perm(a + 1, (third_v >> c & 1) + seen[c]) for c in held]
        # ways[j][r]: the weight of dealing clans held[j:] with r of them to the rest (the
        # proposal where nobody else shows a card; else the joint's programme has it).
        ways: list[list[int]] = []
        if not any_shown:
            ways = [[0] * (rest_need + 1) for _ in range(len(held) + 1)]
            ways[len(held)][0] = 1
            for j in range(len(held) - 1, -1, -1):
                after = ways[j + 1]
                b = beta[j]
                row = ways[j]
                row[0] = b * after[0]
                r_j = rho[j]
                for r in range(1, rest_need + 1):
                    row[r] = b * after[r] + r_j * after[r - 1]
        lows = sorted([pool[c] - 1 for c in held if pool[c]])
        self.clans = k
        self.others = others
        self.shows = shows
        self.shown = any_shown
        self.joint: _Joint | None = None
        self.width = max(k, 4)
        self.deck_v = deck_v
        self.third_v = third_v
        self.from_deck = from_deck
        self.pool = pool
        self.held = held
        self.rest_need = rest_need
        self.beta = beta
        self.rho = rho
        self.ways = ways
        # The copies a third may be, whatever the deal: every hidden copy less one per
        # deck card held by another player; a player's deck cards hold at least ``least``.
        self.bound = sum(pool) - from_deck * (n - 1)
        self.least = sum(lows[:from_deck]) if len(lows) >= from_deck * (n - 1) else -1
        members = a * k + rest_need
        self.zmin = [members - p - a * from_deck for p in range(n)]
        # The parts of the odds that no deal changes, multiplied out once: the thirds'
        # bounds where nobody else shows a card, and every ``Zmin_j``.
        spans_den = 1
        for i in range(n - 1):
            spans_den *= self.bound - (i if i > self.least else self.least)
        self.spans_den = spans_den
        zprod = 1
        for least_z in self.zmin:
            zprod *= least_z
        self.zprod = zprod
        self.viewer = viewer
        self.viewer_third = third_v.bit_length() - 1
        # ``Q0_c`` depends only on which clans the others hold as deck cards (their union),
        # and a player's own copies only on their deck cards: both kept as they are met.
        self.copies_by: dict[int, tuple[int, ...]] = {}
        self.owns: dict[int, int] = {}
        # By deck cards: the copies their owner's third may be, and the clans outside them.
        self.outside: dict[int, tuple[int, tuple[int, ...]]] = {}
        # Once drawn from a few times (a search's re-deals of one position), the rests are
        # read from a flat list (see :meth:`_flatten`).
        self.draws = 0
        self.flat: tuple[list[int], list[tuple[int, tuple[list[int], ...]]]] | None = None

    @property
    def possible(self) -> bool:
        """Whether any deal can come of the proposal."""
        if self.least < 0:
            return False
        if self.shown:  # (no rest has weight if no deal of the clans has: none is drawn)
            return self._joint().total > 0
        return self.ways[0][self.rest_need] > 0

    def _joint(self) -> _Joint:
        """Where others show family cards, the proposal of the undealt rest and the deck
        split (made on the first draw): see :class:`_Joint`."""
        joint = self.joint = _Joint(self)
        return joint

    def draw(self, stream: _Stream) -> int | None:
        """One try: a deal with the posterior's distribution, or None (not kept)."""
        decks, rest, _ = self._propose(stream)
        return self._finish(stream, decks, rest)

    def tried(self, stream: _Stream) -> Tried | None:
        """:meth:`draw`'s try as the re-deal uses it, unpacked: the other players' deck
        cards and thirds (seat order), the undealt rest, and the copies of each clan left
        hidden once the others' face-down family cards are taken out (``Q0_c`` less the
        thirds), which are the Clan Members and the others' hands to deal."""
        decks, rest, bounds = self._propose(stream)
        return self._complete(stream, decks, rest, bounds)

    def _propose(self, stream: _Stream) -> tuple[list[int], int, int]:
        """The proposal's deck split (the other players' deck cards) and undealt rest,
        and where others show cards and the joint's flat list is made, the product of the
        split's bounds (the odds' denominator's part :meth:`_odds` would ask the joint
        for; else 0)."""
        if self.shown:
            joint = self.joint if self.joint is not None else self._joint()
            number = stream.below(joint.total)
            listed = joint.flat
            if listed is None:
                rest, chosen = joint.choose(number)
                return chosen, rest, 0
            at = bisect_right(listed[0], number)
            rest, chosen = listed[1][at]
            return chosen, rest, joint.dens[at]
        r = self.rest_need
        rest = 0
        if r:
            u = stream.below(self.ways[0][r])
            flat = self.flat
            if flat is None:
                self.draws += 1
                if self.draws > _FLATTEN_AFTER:
                    flat = self.flat = self._flatten()
            if flat is not None:
                ends, picks = flat
                rest, splits = picks[bisect_right(ends, u)]
            else:
                rest, splits = self._rest_at(u)
        else:
            splits = self._splits_of(tuple(self.held))
        decks = splits[stream.below(len(splits))] if len(splits) > 1 else splits[0]
        return decks, rest, 0

    def _rest_at(self, u: int) -> tuple[int, tuple[list[int], ...]]:
        """The undealt rest the number ``u`` (below ``ways[0][rest_need]``) falls on, read
        from the programme clan by clan, with the deck splits of the clans it leaves."""
        held = self.held
        beta = self.beta
        rho = self.rho
        ways = self.ways
        r = self.rest_need
        rest = 0
        holders = []
        for j, c in enumerate(held):
            stay = beta[j] * ways[j + 1][r]
            if u < stay:
                u //= beta[j]
                holders.append(c)
            else:
                u = (u - stay) // rho[j]
                rest |= 1 << c
                r -= 1
        return rest, self._splits_of(tuple(holders))

    def _flatten(self) -> tuple[list[int], list[tuple[int, tuple[list[int], ...]]]]:
        """Every rest :meth:`_rest_at` can give, in its order, with the ends of their
        intervals of numbers: each rest's numbers are one interval as long as its weight
        (the clan-by-clan reading divides by a whole weight each time), so a bisection of
        the ends gives the same rest for the same number."""
        held = self.held
        beta = self.beta
        rho = self.rho
        ways = self.ways
        ends: list[int] = []
        picks: list[tuple[int, tuple[list[int], ...]]] = []
        running = 0

        def leaves(j: int, r: int, rest: int, holders: list[int], scale: int) -> None:
            nonlocal running
            if not scale or not ways[j][r]:
                return  # no number falls here
            if j == len(held):
                running += scale
                ends.append(running)
                picks.append((rest, self._splits_of(tuple(holders))))
                return
            leaves(j + 1, r, rest, [*holders, held[j]], scale * beta[j])
            if r:
                leaves(j + 1, r - 1, rest | 1 << held[j], holders, scale * rho[j])

        leaves(0, self.rest_need, 0, [], 1)
        return ends, picks

    def _splits_of(self, holders: tuple[int, ...]) -> tuple[list[int], ...]:
        """Every split of ``holders`` into the other players' deck cards."""
        return _split_table(holders, self.from_deck, len(self.others))

    def _finish(self, stream: _Stream, decks: list[int], rest: int) -> int | None:
        """:meth:`_complete`'s kept try as a deal's bit lanes, or None (the odds asked of
        the bounds player by player: the same as the flat list's product)."""
        got = self._complete(stream, decks, rest)
        return None if got is None else self._deal(got[0], got[1], rest)

    def _complete(
        self, stream: _Stream, decks: list[int], rest: int, bounds: int = 0
    ) -> Tried | None:
        """The thirds, drawn one other player after another, and the acceptance test
        (``bounds``: as :meth:`_odds` takes it). The ``Z_j`` of the odds are multiplied
        out as the thirds are drawn: the earlier thirds among a player's deck clans that
        widen the copies their own third may be are the ones that make their ``Z_j``
        exceed ``Zmin_j``, so one count serves both."""
        holders = 0
        for mine in decks:
            holders |= mine
        start = self.copies_by.get(holders)
        if start is None:
            start = self.copies_by[holders] = tuple(self._copies(decks))
        copies = list(start)
        thirds: list[int] = []
        shows = self.shows
        outside_of = self.outside
        others = self.others
        zmin = self.zmin
        viewer = self.viewer
        own_third = self.viewer_third
        spans = []
        widened = 1  # prod Z_j (see :meth:`_odds`)
        for i, mine in enumerate(decks):
            hits = 0  # the earlier other players' thirds among this one's deck clans
            for taken in thirds:
                hits += mine >> taken & 1
            forced = shows[i] & ~mine
            if forced:
                # A shown card outside the deck cards is the third: no choice, and its
                # weight is the copies of its clan left (at most the span, so bounded).
                if forced & (forced - 1):
                    return None  # two shown cards outside the deck cards: not a deal
                third = forced.bit_length() - 1
                span = copies[third]
                if not span:
                    return None
            else:
                # The copies left outside the player's deck clans: those less the ones taken.
                got = outside_of.get(mine)
                if got is None:
                    got = self._outside(mine)
                span, outside = got
                span += hits - i
                if not span:
                    return None
                x = stream.below(span)
                third = -1
                for c in outside:
                    count = copies[c]
                    if x < count:
                        third = c
                        break
                    x -= count
            copies[third] -= 1
            thirds.append(third)
            spans.append(span)
            seat = others[i]
            if viewer < seat:  # (the viewer's third came before this seat's)
                hits += mine >> own_third & 1
            widened *= zmin[seat] + hits
        hits = 0
        deck_v = self.deck_v
        for taken in thirds[:viewer]:
            hits += deck_v >> taken & 1
        num, den = self._odds(decks, thirds, spans, bounds, widened * (zmin[viewer] + hits))
        if num != den and stream.below(den) >= num:
            return None
        # The copies left are the hidden ones less the others' face-down family cards: a
        # shown card counts in ``pool`` and in the player's family alike.
        return decks, thirds, rest, copies

    def _outside(self, mine: int) -> tuple[int, tuple[int, ...]]:
        """For a player with the deck cards ``mine``: the copies a third of theirs may be
        before any other third is taken (every hidden copy less the deck cards dealt and
        the copies of their own clans), and the clans outside ``mine`` (kept)."""
        owns = self.owns.get(mine)
        if owns is None:
            owns = self._owns(mine)
        got = self.outside[mine] = (self.bound - owns, _clans_of(((1 << self.clans) - 1) & ~mine))
        return got

    def _owns(self, mine: int) -> int:
        """The copies of the clans of the deck cards ``mine``, less those cards (kept)."""
        pool = self.pool
        owns = 0
        for c in _clans_of(mine):
            owns += pool[c] - 1
        self.owns[mine] = owns
        return owns

    def _copies(self, decks: list[int]) -> list[int]:
        """``Q0_c``: the hidden copies of each clan less the deck cards others hold."""
        copies = list(self.pool)
        for mine in decks:
            for c in _clans_of(mine):
                copies[c] -= 1
        return copies

    def _odds(
        self,
        decks: list[int],
        thirds: list[int],
        spans: list[int],
        bounds: int = 0,
        widened: int = 0,
    ) -> tuple[int, int]:
        """The chance a drawn deal is kept, as (numerator, denominator): the thirds'
        normalisers over their bounds, times ``Zmin_j / Z_j`` for every seat's third (more
        by one for each earlier seat's third among the seat's deck clans). ``bounds``, if
        not 0, is the product of the thirds' bounds where others show cards, read with the
        split from the joint's flat list (the same product: see :meth:`_Joint.flatten`).
        ``widened``, if not 0, is ``prod Z_j``, as :meth:`_complete` counts it while it
        draws the thirds (the same product as the seat loop's here)."""
        num = self.zprod
        if bounds:
            den = bounds
            for span in spans:
                num *= span
        elif self.shown:
            den = 1
            holders = 0
            for mine in decks:
                holders |= mine
            # The joint's bounds, kept by deck cards (a drawn split's are all positive,
            # so they are the thirds' bounds themselves).
            bound_of = self.joint._bound if self.joint is not None else self._joint()._bound
            for i, span in enumerate(spans):
                num *= span
                den *= bound_of(i, decks[i], holders)
        else:
            den = self.spans_den
            for span in spans:
                num *= span
        if widened:
            return num, den * widened
        viewer = self.viewer
        taken: list[int] = []
        i = 0
        for p, least_z in enumerate(self.zmin):
            if p == viewer:
                mine, third = self.deck_v, self.viewer_third
            else:
                mine, third = decks[i], thirds[i]
                i += 1
            hits = 0
            for t in taken:
                hits += mine >> t & 1
            den *= least_z + hits
            taken.append(third)
        return num, den

    def _deal(self, decks: list[int], thirds: list[int], rest: int) -> int:
        """A deal's bit lanes (as :class:`FamilyPosterior`'s)."""
        width = self.width
        deal = 0
        for i, (mine, third) in enumerate(zip(decks, thirds, strict=True)):
            deal |= mine << (2 * i * width) | (mine | 1 << third) << ((2 * i + 1) * width)
        return deal | rest << (2 * len(decks) * width)

    def distribution(self) -> dict[int, Fraction]:
        """Every deal with the chance a try keeps it, normalised over the tries that keep
        one: the proposal's chances, each deal weighed by its odds (the tests' check)."""
        out: dict[int, Fraction] = {}
        if self.shown:
            joint = self.joint if self.joint is not None else self._joint()
            for rest, chosen, chance in joint.chances():
                self._walk(chosen, rest, chance, [], [], out)
            mass = sum(out.values(), Fraction(0))
            return {deal: w / mass for deal, w in out.items()}
        held = self.held
        total = self.ways[0][self.rest_need]
        for rest_clans in itertools.combinations(held, self.rest_need):
            rest = sum(1 << c for c in rest_clans)
            weight = Fraction(1, total)
            for j, c in enumerate(held):
                weight *= self.rho[j] if rest >> c & 1 else self.beta[j]
            if not weight:
                continue
            splits = self._splits_of(tuple(c for c in held if not rest >> c & 1))
            for decks in splits:
                self._walk(decks, rest, weight / len(splits), [], [], out)
        mass = sum(out.values(), Fraction(0))
        return {deal: w / mass for deal, w in out.items()}

    def _walk(
        self,
        decks: list[int],
        rest: int,
        chance: Fraction,
        thirds: list[int],
        spans: list[int],
        out: dict[int, Fraction],
    ) -> None:
        """Every way the thirds' draws go from here, as :meth:`_finish` draws them."""
        i = len(thirds)
        if i == len(decks):
            num, den = self._odds(decks, thirds, spans)
            deal = self._deal(decks, thirds, rest)
            out[deal] = out.get(deal, Fraction(0)) + chance * Fraction(num, den)
            return
        copies = self._copies(decks)
        for c in thirds:
            copies[c] -= 1
        mine = decks[i]
        forced = self.shows[i] & ~mine
        if forced:
            if forced & (forced - 1):
                return
            third = forced.bit_length() - 1
            if copies[third]:
                self._walk(decks, rest, chance, [*thirds, third], [*spans, copies[third]], out)
            return
        span = sum(n for c, n in enumerate(copies) if not mine >> c & 1)
        for c, count in enumerate(copies):
            if count and not mine >> c & 1:
                self._walk(
                    decks, rest, chance * Fraction(count, span), [*thirds, c], [*spans, span], out
                )


class _Joint:
    """The quick draw's proposal of the undealt rest and the deck split where others show
    family cards: each rest ``R`` and split with weight ``prod rho/beta`` times, per other
    player, the bound of their third's weight given their deck cards
    (:meth:`_bound`: the copies of the clan whose shown card must be the third, else of
    the clans outside the deck cards), so that the thirds' odds stay near 1
    and no split a shown card rules out is drawn.

    A dynamic programme over the players: ``sums[R][(i, left)]`` is the weight of dealing
    the clans ``left`` to players ``i`` onwards. A draw is one number below ``total``, read
    as a rest and then, player by player, a choice of deck cards (each with weight its
    bound times the weight still to come)."""

    __slots__ = (
        "bounds",
        "cums",
        "dens",
        "draws",
        "flat",
        "from_deck",
        "last",
        "quick",
        "rests",
        "sums",
        "total",
    )

    def __init__(self, quick: QuickDeal) -> None:
        self.quick = quick
        self.from_deck = quick.from_deck
        self.last = len(quick.shows) - 1
        held = quick.held
        everything = sum(1 << c for c in held)
        # Per player, the bound by deck cards (doubled, plus one where another player holds
        # the deck card of the clan whose shown card must be the third).
        self.bounds: list[dict[int, int]] = [{} for _ in quick.shows]
        self.rests: list[tuple[int, int, int]] = []  # (rest, holders, its factor)
        self.sums: list[dict[tuple[int, int], int]] = []
        self.cums: list[int] = []
        total = 0
        factors = list(zip(held, quick.rho, quick.beta, strict=True))
        # With two other players the weight of a rest is one pass over the first one's
        # deck cards (the second's are what is left), summed here without the programme's
        # memo, which nothing reads then (:meth:`_options` asks the last player's bound).
        pairs = self.last == 1
        shown_first, shown_second = (*quick.shows, 0, 0)[:2]
        first, second = self.bounds[0], self.bounds[-1]
        bound_of = self._bound
        for rest in _masks(tuple(held), quick.rest_need):
            base = 1
            for c, rho, beta in factors:
                base *= rho if rest >> c & 1 else beta
            if not base:
                continue
            holders = everything & ~rest
            sums: dict[tuple[int, int], int] = {}
            if pairs:
                # (the bounds' memo read inline, its keys as in :meth:`_bound`)
                held_first = shown_first & holders
                held_second = shown_second & holders
                got = 0
                for mine in _subsets(holders, self.from_deck):
                    bound = first.get(mine << 1 | (held_first & ~mine != 0))
                    if bound is None:
                        bound = bound_of(0, mine, holders)
                    if bound:
                        other = holders & ~mine
                        after = second.get(other << 1 | (held_second & ~other != 0))
                        if after is None:
                            after = bound_of(1, other, holders)
                        got += bound * after
                weight = base * got
            else:
                weight = base * self._sum(0, holders, holders, sums)
            if weight:
                total += weight
                self.rests.append((rest, holders, base))
                self.sums.append(sums)
                self.cums.append(total)
        self.total = total
        self.draws = 0
        self.flat: tuple[list[int], list[tuple[int, list[int]]]] | None = None
        self.dens: list[int] = []  # with the flat list, each split's product of bounds

    def _bound(self, i: int, mine: int, holders: int) -> int:
        """A bound of the i-th other player's third's weight given their deck cards
        ``mine`` (and everyone's, ``holders``), 0 where the split is not allowed: the
        copies of the clan whose shown card must be the third (one fewer if another player
        holds its deck card; two such cards: 0), else the copies left outside ``mine`` (at
        most every copy less the deck cards dealt, less the more of ``i`` and of the copies
        ``mine`` holds, each earlier third having come from one or the other). Kept by
        deck cards and whether ``holders`` has the forced clan."""
        quick = self.quick
        forced = quick.shows[i] & ~mine
        key = mine << 1 | (forced & holders != 0)
        row = self.bounds[i]
        got = row.get(key)
        if got is None:
            pool = quick.pool
            if not forced:
                owns = quick.owns.get(mine)
                if owns is None:
                    owns = quick._owns(mine)
                got = quick.bound - (i if i > owns else owns)
            elif forced & (forced - 1):
                got = 0
            else:
                got = pool[forced.bit_length() - 1] - (forced & holders != 0)
            if got < 0:
                got = 0
            row[key] = got
        return got

    def _sum(self, i: int, left: int, holders: int, sums: dict[tuple[int, int], int]) -> int:
        """The weight of dealing ``left`` to players ``i`` onwards (kept in ``sums``)."""
        if i == self.last:
            return self._bound(i, left, holders)
        got = sums.get((i, left))
        if got is None:
            got = 0
            bound_of = self._bound
            if i + 1 == self.last:  # the last player's deck cards are what is left
                # (the bounds' memo read inline: this is the hottest loop of the table)
                shown, shown_last = self.quick.shows[i], self.quick.shows[i + 1]
                row, row_last = self.bounds[i], self.bounds[i + 1]
                for mine in _subsets(left, self.from_deck):
                    bound = row.get(mine << 1 | (shown & ~mine & holders != 0))
                    if bound is None:
                        bound = bound_of(i, mine, holders)
                    if bound:
                        other = left & ~mine
                        after = row_last.get(other << 1 | (shown_last & ~other & holders != 0))
                        if after is None:
                            after = bound_of(i + 1, other, holders)
                        got += bound * after
            else:
                for mine in _subsets(left, self.from_deck):
                    bound = bound_of(i, mine, holders)
                    if bound:
                        got += bound * self._sum(i + 1, left & ~mine, holders, sums)
            sums[(i, left)] = got
        return got

    def _options(self, at: int, i: int, left: int) -> Iterator[tuple[int, int, int]]:
        """Player ``i``'s deck cards from ``left`` with their bound and the weight of the
        deal from there on (for the ``at``-th rest)."""
        _, holders, _ = self.rests[at]
        sums = self.sums[at]
        for mine in _subsets(left, self.from_deck):
            bound = self._bound(i, mine, holders)
            if bound:
                after = self._sum(i + 1, left & ~mine, holders, sums)
                if after:
                    yield mine, bound, bound * after

    def choose(self, u: int) -> tuple[int, list[int]]:
        """The rest and deck split that the number ``u`` (below ``total``) falls on. A
        position re-dealt again and again reads it from :meth:`flatten`'s list (the same
        split for the same number: the list's intervals are the programme's, in order)."""
        if self.flat is None:
            self.draws += 1
            if self.draws > _FLATTEN_AFTER:
                ends, picks, self.dens = self._flat()
                self.flat = ends, picks
        if self.flat is not None:
            ends, picks = self.flat
            return picks[bisect_right(ends, u)]
        return self.walk(u)

    def walk(self, u: int) -> tuple[int, list[int]]:
        """:meth:`choose` read from the programme: the rest, then each player's deck
        cards in turn."""
        at = bisect_right(self.cums, u)
        if at:
            u -= self.cums[at - 1]
        rest, left, base = self.rests[at]
        holders = left
        sums = self.sums[at]
        u //= base
        decks = []
        last = self.last
        shows = self.quick.shows
        bound_of = self._bound
        # :meth:`_options` read inline (the bounds' memo as in :meth:`_bound`, the last
        # player's bound for the weight after the one before them): a first re-deal walks
        # the programme once, and this is most of its proposal.
        for i in range(last):
            row = self.bounds[i]
            held_i = shows[i] & holders
            after_row = self.bounds[last] if i + 1 == last else None
            held_last = shows[last] & holders
            chosen = 0
            for mine in _subsets(left, self.from_deck):
                bound = row.get(mine << 1 | (held_i & ~mine != 0))
                if bound is None:
                    bound = bound_of(i, mine, holders)
                if not bound:
                    continue
                other = left & ~mine
                if after_row is not None:
                    after = after_row.get(other << 1 | (held_last & ~other != 0))
                    if after is None:
                        after = bound_of(last, other, holders)
                else:
                    after = self._sum(i + 1, other, holders, sums)
                if not after:
                    continue
                weight = bound * after
                if u < weight:
                    u //= bound  # uniform below the weight still to come
                    chosen = mine
                    break
                u -= weight
            decks.append(chosen)
            left &= ~chosen
        decks.append(left)
        return rest, decks

    def flatten(self) -> tuple[list[int], list[tuple[int, list[int]]]]:
        """Every rest and split in the programme's order with the ends of their intervals
        of numbers (each as long as its weight)."""
        ends, picks, _ = self._flat()
        return ends, picks

    def _flat(self) -> tuple[list[int], list[tuple[int, list[int]]], list[int]]:
        """:meth:`flatten`'s list, with each split's product of its players' bounds (the
        part of the quick draw's odds that the split alone fixes, otherwise asked of
        :meth:`_bound` player by player on every try). The options are read as
        :meth:`_options` gives them, inline: made once per position, after a few draws,
        this is a large part of the first repeats."""
        ends: list[int] = []
        picks: list[tuple[int, list[int]]] = []
        dens: list[int] = []
        running = 0
        last = self.last
        size = self.from_deck
        bound_of = self._bound
        sum_of = self._sum
        rows = self.bounds
        shows = self.quick.shows

        def leaves(
            rest: int,
            holders: int,
            sums: dict[tuple[int, int], int],
            i: int,
            left: int,
            scale: int,
            bounds: int,
            decks: list[int],
        ) -> None:
            nonlocal running
            # (the bounds' memo read inline, its keys as in :meth:`_bound`)
            row, row_last = rows[i], rows[last]
            held_i, held_last = shows[i] & holders, shows[last] & holders
            for mine in _subsets(left, size):
                bound = row.get(mine << 1 | (held_i & ~mine != 0))
                if bound is None:
                    bound = bound_of(i, mine, holders)
                if not bound:
                    continue
                other = left & ~mine
                if i + 1 == last:  # the last player's deck cards are what is left
                    after = row_last.get(other << 1 | (held_last & ~other != 0))
                    if after is None:
                        after = bound_of(last, other, holders)
                    if after:
                        running += scale * bound * after
                        ends.append(running)
                        picks.append((rest, [*decks, mine, other]))
                        dens.append(bounds * bound * after)
                else:
                    after = sum_of(i + 1, other, holders, sums)
                    if after:
                        leaves(
                            rest,
                            holders,
                            sums,
                            i + 1,
                            other,
                            scale * bound,
                            bounds * bound,
                            [*decks, mine],
                        )

        for at, (rest, holders, base) in enumerate(self.rests):
            if not last:  # one other player: their deck cards are the rest's holders
                bound = bound_of(0, holders, holders)
                running += base * bound
                ends.append(running)
                picks.append((rest, [holders]))
                dens.append(bound)
            else:
                leaves(rest, holders, self.sums[at], 0, holders, base, 1, [])
        return ends, picks, dens

    def chances(self) -> Iterator[tuple[int, list[int], Fraction]]:
        """Every rest and split with the chance :meth:`choose` gives it (the tests')."""
        low = 0
        for at, high in enumerate(self.cums):
            holders = self.rests[at][1]
            yield from self._chances(at, 0, holders, [], Fraction(high - low, self.total))
            low = high

    def _chances(
        self, at: int, i: int, left: int, decks: list[int], chance: Fraction
    ) -> Iterator[tuple[int, list[int], Fraction]]:
        if i == self.last:
            yield self.rests[at][0], [*decks, left], chance
            return
        options = list(self._options(at, i, left))
        whole = sum(weight for _, _, weight in options)
        for mine, _, weight in options:
            yield from self._chances(
                at, i + 1, left & ~mine, [*decks, mine], chance * Fraction(weight, whole)
            )


_FLATTEN_AFTER = 4
"""Draws of a quick proposal's rest (and, where others show cards, split) read from its
programme before its flat list is made (a first re-deal takes one to a few; a search's
re-deals of one position take hundreds)."""


@functools.lru_cache(maxsize=1024)
def _masks(clans: tuple[int, ...], size: int) -> tuple[int, ...]:
    """Every set of ``size`` of ``clans``, as masks (in ``combinations`` order)."""
    return tuple(sum(1 << c for c in chosen) for chosen in itertools.combinations(clans, size))


@functools.lru_cache(maxsize=64)
def _others(players: int, viewer: int) -> tuple[int, ...]:
    """Every seat but ``viewer``'s, in order."""
    return tuple(p for p in range(players) if p != viewer)


@functools.lru_cache(maxsize=256)
def _dealt_sizes(players: int, dealt: int, from_deck: int) -> tuple[int, ...]:
    """Every seat's family size once the rules have dealt ``dealt`` thirds."""
    return tuple(from_deck + dealt // players + (p < dealt % players) for p in range(players))


@functools.lru_cache(maxsize=4096)
def _subsets(clans: int, size: int) -> tuple[int, ...]:
    """Every set of ``size`` of the clans in the mask ``clans`` (as :func:`_masks`)."""
    return _masks(_clans_of(clans), size)


def _shown(revealed: tuple[int, ...], viewer: int, clans: int) -> list[int]:
    """How many players other than ``viewer`` show a family card of each clan."""
    shown = [0] * clans
    for p, mask in enumerate(revealed):
        if mask and p != viewer:
            for c in _clans_of(mask):
                shown[c] += 1
    return shown


def _clans_of(mask: int) -> tuple[int, ...]:
    """The clans in ``mask``, lowest first (from a table up to eight clans)."""
    return _BITS[mask] if mask < 256 else _bits_of(mask)


def _bits_of(mask: int) -> tuple[int, ...]:
    """The clans in ``mask``, lowest first."""
    return tuple(c for c in range(mask.bit_length()) if mask >> c & 1)


_BITS = [_bits_of(b) for b in range(256)]
"""The clans of every mask of up to eight clans (the usual game's)."""


@functools.lru_cache(maxsize=256)
def _split_table(holders: tuple[int, ...], size: int, parts: int) -> tuple[list[int], ...]:
    """Every way to deal ``holders`` (ascending) into ``parts`` ordered groups of ``size``
    (as masks), made once per set of clans: each group in ``combinations`` order, the
    first group's choice varying slowest."""
    mask = 0
    for c in holders:
        mask |= 1 << c
    return _split_masks(mask, size, parts)


@functools.lru_cache(maxsize=1024)
def _split_masks(mask: int, size: int, parts: int) -> tuple[list[int], ...]:
    """:func:`_split_table` by mask. The groups after the first are the splits of what
    the first leaves, kept too, so a fresh process makes each table from a few kept ones
    (a third of the time it took clan list by clan list: with four players, 28 tables
    of 90 splits, which a fresh process's first re-deals made at about 0.2 ms each)."""
    if not parts:
        return ([],)
    out: list[list[int]] = []
    for first in _subsets(mask, size):
        for more in _split_masks(mask & ~first, size, parts - 1):
            out.append([first, *more])
    return tuple(out)


_QUICK: OrderedDict[Key, QuickDeal | None] = OrderedDict()
"""The quick draws made last, by key (at most ``_QUICK_CACHED``)."""

_QUICK_CACHED = 16
"""How many keys' quick draws are kept. A quick draw's set-up (the proposal's programme,
the joint's where others show cards) is most of a first re-deal, and about two positions
in five of a game have the key of one of the last eight re-dealt: a card moved between two
hidden places, or played by the viewer from their own hand, leaves what they know of the
families as it was."""


def quick_deal(key: Key) -> QuickDeal | None:
    """The quick draw for ``key``, or None where it does not apply: the family deal or
    the thirds under way, other than one third each, a state the rules do not reach, or
    no deal possible. Kept for the last few keys: a quick draw depends on nothing else,
    and what it caches as it draws (its deck splits' set-ups, the joint's flat list) gives
    the same deal for the same number, so sharing it changes no re-deal."""
    return _kept(_QUICK, _QUICK_CACHED, key, _make_quick_deal)


def _make_quick_deal(key: Key) -> QuickDeal | None:
    """:func:`quick_deal`'s work, for a key not kept."""
    family_deal, dealt, n = key[:3]
    extra = key[6]
    if family_deal or extra != 1 or dealt != n:
        return None
    seen = FamilyPosterior._seen(key)
    if seen is None:
        return None
    quick = QuickDeal(key, seen)
    return quick if quick.possible else None


def family_key(s: KingsKiltState, viewer: int, pool: tuple[int, ...]) -> Key:
    """What the posterior of ``s``'s families depends on, for ``viewer`` (``pool``: the
    hidden copies of each clan)."""
    game = s.game
    comps = game.components
    n = game.num_players
    name = s.phase.name
    family_deal = name == "deal_family"
    extra = comps.family_size - comps.family_from_deck
    if family_deal:
        dealt = 0
    elif name == "deal_third":
        dealt = s.dealt
    else:
        dealt = extra * n
    return (
        family_deal,
        dealt,
        n,
        viewer,
        comps.members_per_clan,
        comps.family_from_deck,
        extra,
        s.families[viewer],
        s.from_deck[viewer],
        s.revealed,
        tuple([f.bit_count() for f in s.families]),
        tuple([f.bit_count() for f in s.from_deck]),
        s.family_deck.bit_count(),
        pool,
    )


def hidden_pool(s: KingsKiltState, viewer: int) -> tuple[int, ...]:
    """The cards ``viewer`` cannot see, by clan: the others' face-down family cards and
    hands, the undealt family deck and (once the family deal is over) the Clan Members."""
    game = s.game
    bits = game.bits
    in_family_deal = s.phase.name == "deal_family"
    pool = [0] * len(game.clans) if in_family_deal else list(s.members.counts)
    hands = s.hands
    families = s.families
    revealed = s.revealed
    for p in range(game.num_players):
        if p == viewer:
            continue
        for c, count in enumerate(hands[p].counts):
            pool[c] += count
        for c in bits[families[p] & ~revealed[p]]:
            pool[c] += 1
    for c in bits[s.family_deck]:
        pool[c] += 1
    return tuple(pool)


class _Redeal:
    """What re-dealing one state for one viewer needs, kept while a search re-deals it."""

    __slots__ = (
        "bits",
        "family_deal",
        "freeze",
        "key",
        "others",
        "pool",
        "post",
        "quick",
        "sizes",
        "thaw",
        "width",
    )

    def __init__(self, s: KingsKiltState, viewer: int) -> None:
        pool = hidden_pool(s, viewer)
        # The kernel's copier and freezer bound to the state's class (no per-call lookup).
        self.thaw, self.freeze = _drafts(type(s))
        n = s.game.num_players
        self.pool = pool
        self.key = family_key(s, viewer, pool)
        self.post: FamilyPosterior | None = None
        self.quick = quick_deal(self.key)
        self.others = _others(n, viewer)
        self.sizes = tuple(len(s.hands[p]) for p in self.others)
        self.family_deal = s.phase.name == "deal_family"
        self.bits = s.game.bits
        self.width = max(len(pool), 4)


_drafts = functools.lru_cache(maxsize=8)(drafting)
"""The kernel's ``(thaw, freeze)`` pair for a state class, made once per class."""

_multiset = maker(Multiset)
"""A ``Multiset`` of counts the re-deal made itself (no check needed, none run)."""

_last: list[tuple[object, int, _Redeal | None]] = [(None, -1, None)]
"""The last state and viewer re-dealt (a search re-deals one position many times)."""

_TRIES = 12
"""Quick draws tried for a position's first re-deal before its tables are made."""


def resample(s: KingsKiltState, player: int, rng: Rng) -> KingsKiltState:
    """A state ``player`` cannot tell apart from ``s``, drawn from the exact posterior: the
    other players' families (and the undealt family deck) from :class:`FamilyPosterior`,
    then their hands and the pile's hidden members as a uniform deal of what is left.

    Where it applies, :class:`QuickDeal` is tried a few times first, without tables (a
    kept try has the posterior's distribution; if every try fails, the tables' draw has it
    too, so the mixture has it): the tables are made only for the positions it does not
    cover. Which way a re-deal goes depends only on ``s``, ``player`` and ``rng``."""
    last = _last[0]
    if last[0] is s and last[1] == player and last[2] is not None:
        redeal = last[2]
    else:
        redeal = _Redeal(s, player)
        _last[0] = (s, player, redeal)
    stream = _Stream(rng.state)
    revealed = s.revealed
    families = list(s.families)
    from_deck = list(s.from_deck)
    family_deck = s.family_deck
    got = None
    quick = redeal.quick
    if quick is not None:
        propose, complete = quick._propose, quick._complete
        for _ in range(_TRIES):
            decks, rest, bounds = propose(stream)  # QuickDeal.tried, inline
            got = complete(stream, decks, rest, bounds)
            if got is not None:
                break
    if got is not None:
        decks, thirds, _, remaining = got
        for p, deck, third in zip(redeal.others, decks, thirds, strict=True):
            families[p] = deck | 1 << third
            from_deck[p] = deck
    else:
        post = redeal.post
        if post is None:
            post = redeal.post = posterior(redeal.key)
        deal = post.draw(stream)
        width = redeal.width
        lane = (1 << width) - 1
        bits = redeal.bits
        remaining = list(redeal.pool)
        shift = 0
        for p in redeal.others:
            deck = deal >> shift & lane
            family = deal >> (shift + width) & lane
            shift += 2 * width
            families[p] = family
            from_deck[p] = deck
            for c in bits[family & ~revealed[p]]:
                remaining[c] -= 1
        if redeal.family_deal:
            family_deck = deal >> shift & lane
            for c in bits[family_deck]:
                remaining[c] -= 1
    # The hands: each drawn card by card without replacement from what is left of the
    # pool, every card a uniform index below the cards left (digits of the same stream).
    seed, x, m = stream.seed, stream.x, stream.m
    refill = _REFILL
    total = sum(remaining)
    hands = list(s.hands)
    k = len(remaining)
    for p, size in zip(redeal.others, redeal.sizes, strict=True):
        if not size:
            continue  # an empty hand stays the same empty hand
        drawn = [0] * k
        for _ in range(size):
            while True:  # _Stream.below, inlined: this is the hottest loop of a re-deal
                if m < refill:
                    seed = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                    z = ((seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                    x = x << 64 | z ^ z >> 31
                    m <<= 64
                q = m // total  # (kept exactly when x // total < q: see _Stream.below)
                y, i = divmod(x, total)
                if y < q:
                    x = y
                    m = q
                    break
                r = m - q * total
                x -= m - r
                m = r
            kind = 0
            for copies in remaining:
                if i < copies:
                    break
                i -= copies
                kind += 1
            remaining[kind] = copies - 1
            drawn[kind] += 1
            total -= 1
        hands[p] = _multiset(tuple(drawn))
    d = redeal.thaw(s)
    d.families = tuple(families)
    d.from_deck = tuple(from_deck)
    d.family_deck = family_deck
    d.hands = tuple(hands)
    if not redeal.family_deal:
        d.members = _multiset(tuple(remaining))
    frozen: KingsKiltState = redeal.freeze(d)
    return frozen
