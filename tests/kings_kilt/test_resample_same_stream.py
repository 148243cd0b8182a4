"""King's Kilt ``resample``: the seventh round's shortcuts give the same numbers.

The stream's usual draw takes one division fewer, the shown-card proposal's flat list is
read inline and carries each split's product of bounds (the acceptance's denominator
part), and the state's ``resample`` is the re-deal itself. Each is checked here against
the code it replaced, kept as an oracle: the same digits from the same generator words,
the same list, the same odds.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from clangames.engine.errors import InvalidArgumentError
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt import posterior as post

from .test_resample_quick_cache import _turns
from .test_resample_repeated import _fresh_quick

_MASK64 = (1 << 64) - 1


class _OldStream:
    """``posterior._Stream`` as it was before the one-division draw (the oracle)."""

    __slots__ = ("m", "seed", "x")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.x = 0
        self.m = 1

    def below(self, n: int) -> int:
        x, m = self.x, self.m
        limit = n << 32
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


def _bounds(rnd: random.Random) -> Callable[[], int]:
    """Bounds as the re-deal asks them: mostly small (thirds, hands, splits), some of a
    power of two, now and then a large one (the acceptance's and the rest's)."""
    small = [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 31, 32, 40, 60, 64]

    def draw() -> int:
        roll = rnd.random()
        if roll < 0.8:
            return rnd.choice(small)
        if roll < 0.9:
            return 1 << rnd.randrange(1, 70)
        return rnd.randrange(1, 1 << rnd.randrange(8, 90))

    return draw


def test_the_streams_draws_are_the_old_streams_on_millions_of_draws() -> None:
    """Two million draws of mixed bounds from several seeds: every digit equal, and the
    generator's words consumed (``seed``) and the number left (``x``, ``m``) equal after
    every thousand draws, so no later draw can differ either."""
    rnd = random.Random(11)
    draws = 0
    for seed in (0, 1, 2**63 + 5, _MASK64, 123456789):
        new, old = post._Stream(seed), _OldStream(seed)
        bound = _bounds(rnd)
        for _ in range(400):
            ns = [bound() for _ in range(1000)]
            assert [new.below(n) for n in ns] == [old.below(n) for n in ns]
            assert (new.seed, new.x, new.m) == (old.seed, old.x, old.m)
            draws += len(ns)
    assert draws == 2_000_000


def test_a_refused_draw_is_redone_as_the_old_stream_redoes_it() -> None:
    """A number placed where the usual draw refuses it (past the last whole multiple of
    the bound) takes the loop's way, with the old stream's result."""
    for n in (3, 7, 1000, 3**40):
        for excess in (0, 1, n - 1):
            new, old = post._Stream(9), _OldStream(9)
            m = (n << 40) + n - 1  # m % n == n - 1: the top n - 1 values are refused
            x = m - (n - 1) + excess % (n - 1) if n > 1 else 0
            new.x, new.m, old.x, old.m = x, m, x, m
            assert new.below(n) == old.below(n)
            assert (new.seed, new.x, new.m) == (old.seed, old.x, old.m)


def _old_flatten(joint: post._Joint) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """``_Joint.flatten`` as it was before it read the options inline (the oracle)."""
    ends: list[int] = []
    picks: list[tuple[int, list[int]]] = []
    running = 0
    last = joint.last

    def leaves(at: int, i: int, left: int, scale: int, decks: list[int]) -> None:
        nonlocal running
        if i == last:
            running += scale * joint._bound(last, left, joint.rests[at][1])
            ends.append(running)
            picks.append((joint.rests[at][0], [*decks, left]))
            return
        for mine, bound, _ in joint._options(at, i, left):
            leaves(at, i + 1, left & ~mine, scale * bound, [*decks, mine])

    for at, (_, holders, base) in enumerate(joint.rests):
        leaves(at, 0, holders, base, [])
    return ends, picks


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_joints_flat_list_is_the_old_one_with_each_splits_bounds(players: int) -> None:
    """Where others show cards, the list read inline is the old reading's, and each
    split's product is that of its players' bounds (what the odds asked for before)."""
    checked = 0
    for state, viewer in _turns(players, 60 + players)[::2]:
        quick = _fresh_quick(state, viewer)
        if not quick.shown or not quick.possible:
            continue
        joint = quick._joint()
        ends, picks, dens = joint._flat()
        assert (ends, picks) == _old_flatten(joint) == joint.flatten()
        for (_, decks), den in zip(picks, dens, strict=True):
            holders = 0
            for mine in decks:
                holders |= mine
            product = 1
            for i, mine in enumerate(decks):
                product *= joint._bound(i, mine, holders)
            assert den == product > 0
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("players", [3, 4])
def test_a_try_read_from_the_flat_list_has_the_odds_of_one_read_from_the_programme(
    players: int,
) -> None:
    """The same numbers give the same tries (deck cards, thirds, rest, copies left) and
    the same refusals whether the split comes from the list with its bounds or from the
    programme, whose odds ask the bounds player by player."""
    checked = 0
    for state, viewer in _turns(players, 80 + players)[::3]:
        listed = _fresh_quick(state, viewer)
        if not listed.shown or not listed.possible:
            continue
        walked = _fresh_quick(state, viewer)
        joint = walked._joint()
        joint.draws = -(10**9)  # never makes its list: reads the programme
        for seed in range(post._FLATTEN_AFTER + 1):  # the list is made on the fifth draw
            listed.tried(post._Stream(10_000 + seed))
        assert listed.joint is not None and listed.joint.flat is not None
        for seed in range(40):
            assert listed.tried(post._Stream(seed)) == walked.tried(post._Stream(seed))
        assert joint.flat is None
        checked += 1
    assert checked >= 2


def test_the_states_resample_is_the_re_deal_behind_the_seat_check() -> None:
    """The state's method is the re-deal behind the kernel's checks: the same state for
    the same generator as the module's function, and a seat or generator that is not one
    refused before any re-deal is made."""
    state, viewer = _turns(3, 5)[10]
    assert isinstance(state, KingsKiltState)
    assert state.resample(viewer, Rng(4)) == post.resample(state, viewer, Rng(4))
    before = post._last[0]
    with pytest.raises(InvalidArgumentError):
        state.resample(7, Rng(4))
    with pytest.raises(InvalidArgumentError):
        state.resample(viewer, 4)  # type: ignore[arg-type]
    assert post._last[0] is before
