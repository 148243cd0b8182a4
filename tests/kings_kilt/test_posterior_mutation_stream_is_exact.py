"""King's Kilt's re-deal stream draws exactly uniform numbers (a mutation audit's gap).

Every random choice of ``resample`` is a digit of ``_Stream``'s random number ``x``
(uniform below ``m``). The sampler is exact only if each draw keeps that invariant: a
draw below ``n`` that lands below ``m - m % n`` splits ``x`` one to one into a digit and
a quotient uniform below ``m // n``; one that does not leaves ``x - (m - m % n)``, uniform
below ``m % n``. A draw rejected once in 2**32 is out of reach of frequency tests (and of
the digests, which pin seeded re-deals), so these tests set ``x`` and ``m`` by hand at
the boundaries. ``order`` (the thirds' order, with two thirds each) must be a uniform
shuffle: every order, as often as any other. And a re-deal's stream starts from the
whole generator: two generators that differ only in their high bits give two
independent re-deals, not one.
"""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import permutations

import pytest

from clangames.engine.rng import Rng
from clangames.kings_kilt.posterior import _Stream

from .test_resample_exact import _late_game


@contextmanager
def _within(seconds: int) -> Iterator[None]:
    """Fail, rather than hang, if the block runs longer than ``seconds`` (a draw that
    loses track of its number can loop for ever)."""

    def expire(signum: int, frame: object) -> None:
        raise AssertionError(f"the draws did not end within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _boundary_cases(n: int) -> list[tuple[int, int]]:
    """(x, m) pairs around the rejection boundary, with ``m`` large enough that the
    draw takes no generator word first."""
    out = []
    for extra in (1, n // 2 + 1, n - 1):
        m = (n << 32) * 3 + extra
        cut = m - m % n
        for x in (0, 1, cut - n, cut - 1, cut, cut + 1, m - 1):
            if 0 <= x < m:
                out.append((x, m))
    return out


@pytest.mark.parametrize("n", [3, 5, 7, 1000003])
def test_an_accepted_draw_splits_the_number_one_to_one(n: int) -> None:
    """Below the cut, the digit and the quotient are ``divmod(x, n)`` and the number left
    is uniform below ``m // n``; at or above it, the draw is what a stream holding
    ``x - cut`` below ``m % n`` gives (the same seed): never a digit read off the cut."""
    for x, m in _boundary_cases(n):
        stream = _Stream(99)
        stream.x, stream.m = x, m
        with _within(10):
            digit = stream.below(n)
        assert 0 <= digit < n
        assert 0 <= stream.x < stream.m, (x, m)
        cut = m - m % n
        if x < cut:
            assert (stream.x, digit) == divmod(x, n)
            assert stream.m == m // n
            assert stream.seed == 99, "no generator word was needed"
        else:
            twin = _Stream(99)
            twin.x, twin.m = x - cut, m % n
            assert twin.below(n) == digit
            assert (twin.seed, twin.x, twin.m) == (stream.seed, stream.x, stream.m)


def test_the_number_left_stays_below_its_bound_through_many_draws() -> None:
    """Thousands of draws of mixed sizes, including huge ones: ``0 <= x < m`` after each."""
    stream = _Stream(5)
    for i in range(4000):
        n = (i % 13) + 1 if i % 3 else 10**20 + i
        digit = stream.below(n)
        assert 0 <= digit < n
        assert 0 <= stream.x < stream.m


def test_order_is_a_uniform_shuffle() -> None:
    """Every order of three items comes up, each about a sixth of the time (a shuffle
    that must move every item would give only the two rotations)."""
    stream = _Stream(17)
    draws = 6000
    tally = Counter(tuple(stream.order([0, 1, 2])) for _ in range(draws))
    assert set(tally) == set(permutations([0, 1, 2]))
    for order in tally:
        # 1000 expected; 5 standard errors is about 144
        assert abs(tally[order] - draws / 6) < 150, tally
    assert Counter(tuple(stream.order([4, 9])) for _ in range(2000)).keys() == {(4, 9), (9, 4)}


def test_a_re_deal_reads_the_whole_generator() -> None:
    """Generators 2**40 apart give different re-deals of a position with thousands of
    consistent deals (two independent re-deals coincide about once in a thousand)."""
    state, viewer = _late_game(4, 9)
    same = 0
    for seed in range(12):
        a = state.resample(viewer, Rng(seed))
        b = state.resample(viewer, Rng(seed + (1 << 40)))
        assert a.observation(viewer) == b.observation(viewer)
        same += (a.families, a.hands) == (b.families, b.hands)
    assert same <= 1
