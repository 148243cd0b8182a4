"""Rng: the kernel's seeded, immutable SplitMix64 generator."""

from __future__ import annotations

import copy
import itertools
import pickle
import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clangames import Rng


def draws(rng: Rng, n: int, bound: int) -> list[int]:
    """``n`` successive ``below(bound)`` values."""
    out = []
    for _ in range(n):
        x, rng = rng.below(bound)
        out.append(x)
    return out


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the block after ``seconds`` (a hanging call fails, not hangs)."""

    def _expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_splitmix64_reference_values() -> None:
    # The published SplitMix64 outputs for seed 0.
    a, rng = Rng(0).next64()
    b, rng = rng.next64()
    c, _ = rng.next64()
    assert (a, b, c) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F)


def test_same_seed_same_stream() -> None:
    assert draws(Rng(123), 50, 1000) == draws(Rng(123), 50, 1000)
    assert draws(Rng(123), 50, 1000) != draws(Rng(124), 50, 1000)


def test_draws_do_not_change_the_generator() -> None:
    rng = Rng(9)
    first, nxt = rng.below(100)
    assert rng == Rng(9)
    assert rng.below(100) == (first, nxt)
    assert nxt != rng


def test_attributes_cannot_be_set() -> None:
    rng = Rng(9)
    with pytest.raises(AttributeError, match="immutable"):
        rng._state = 3
    with pytest.raises(AttributeError):
        rng.other = 3
    assert rng.state == 9


def test_attributes_cannot_be_deleted() -> None:
    rng = Rng(9)
    with pytest.raises(AttributeError):
        del rng._state


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 1000, 2**63 + 1, 2**64])
def test_below_stays_in_range(n: int) -> None:
    values = draws(Rng(n % 1000), 300, n)
    assert all(0 <= v < n for v in values)
    if n == 1:
        assert set(values) == {0}


def test_below_is_roughly_uniform() -> None:
    counts = Counter(draws(Rng(2024), 60_000, 6))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    # Expected 10 000 each; the standard deviation is about 91, so 500 is > 5 sigma.
    assert all(abs(c - 10_000) < 500 for c in counts.values()), counts


@pytest.mark.parametrize("n", [0, -1, -100])
def test_below_needs_a_positive_bound(n: int) -> None:
    with pytest.raises(ValueError, match=rf"a bound n >= 1, got {n}"):
        Rng(1).below(n)


def _reference_below_wide(state: int, n: int) -> tuple[int, int]:
    """A bound above 2**64: whole 64-bit draws, the first the lowest word, rejected at
    or above the largest multiple of n they hold."""
    words = ((n - 1).bit_length() + 63) // 64
    limit = (1 << (64 * words)) - (1 << (64 * words)) % n
    while True:
        z = 0
        for i in range(words):
            z |= Rng(state).next64()[0] << (64 * i)
            state = Rng(state).next64()[1].state
        if z < limit:
            return z % n, state


@pytest.mark.parametrize("n", [2**64 + 1, 6**25, 6**30, 3 << 64, 2**128, 2**128 + 1, 7**90])
def test_below_beyond_64_bits_draws_from_several_words(n: int) -> None:
    # Clan Feud's 25 or more casualty dice weigh 6**25 > 2**64 in all: such a chance
    # node must be drawn, not refused (it was a ValueError in the middle of a game)
    rng = Rng(n % 997)
    with time_limit(0.5):
        for _ in range(200):
            expected, expected_state = _reference_below_wide(rng.state, n)
            value, rng = rng.below(n)
            assert 0 <= value < n and (value, rng.state) == (expected, expected_state)


def test_below_beyond_64_bits_is_uniform_over_its_high_part() -> None:
    counts = Counter(v >> 64 for v in draws(Rng(5), 30_000, 3 << 64))
    assert sorted(counts) == [0, 1, 2]
    assert all(abs(c - 10_000) < 500 for c in counts.values()), counts  # > 5 sigma


def test_weighted_is_below_of_the_total_mapped_to_buckets() -> None:
    # Exactness: weighted(w) draws x = below(sum(w)) and returns the bucket holding x.
    weights = [2, 3, 5]
    bucket = [0, 0, 1, 1, 1, 2, 2, 2, 2, 2]
    rng = Rng(77)
    for _ in range(500):
        i, after = rng.weighted(weights)
        x, same = rng.below(10)
        assert (i, after) == (bucket[x], same)
        rng = after


def test_weighted_frequencies_match_small_weights() -> None:
    rng = Rng(5)
    counts: Counter[int] = Counter()
    for _ in range(60_000):
        i, rng = rng.weighted([1, 2, 3])
        counts[i] += 1
    for i, expected in ((0, 10_000), (1, 20_000), (2, 30_000)):
        assert abs(counts[i] - expected) < 600, counts


def test_weighted_never_picks_zero_weights() -> None:
    rng = Rng(3)
    for _ in range(200):
        i, rng = rng.weighted([0, 4, 0, 1, 0])
        assert i in (1, 3)
    assert Rng(3).weighted([7])[0] == 0


@pytest.mark.parametrize("weights", [[], [0], [0, 0, 0]])
def test_weighted_needs_positive_total(weights: list[int]) -> None:
    with pytest.raises(ValueError):
        Rng(3).weighted(weights)


def test_weighted_rejects_negative_weights() -> None:
    with pytest.raises(ValueError):
        Rng(3).weighted([-1, 2])


def test_shuffled_is_a_uniform_permutation() -> None:
    rng = Rng(8)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        perm, rng = rng.shuffled([1, 2, 3])
        counts[perm] += 1
    assert set(counts) == set(itertools.permutations([1, 2, 3]))
    assert all(abs(c - 1000) < 150 for c in counts.values()), counts


def test_shuffled_keeps_every_item() -> None:
    items = ["a", "b", "b", "c", "d", "e", "f", "g"]
    out, nxt = Rng(1).shuffled(items)
    assert isinstance(out, tuple)
    assert sorted(out) == sorted(items)
    assert items == ["a", "b", "b", "c", "d", "e", "f", "g"]  # input untouched
    assert Rng(1).shuffled(items) == (out, nxt)
    assert Rng(1).shuffled([]) == ((), Rng(1))
    assert Rng(1).shuffled(["x"]) == (("x",), Rng(1))


def test_choice_and_random() -> None:
    rng = Rng(4)
    for _ in range(100):
        item, rng = rng.choice("xyz")
        assert item in "xyz"
        f, rng = rng.random()
        assert 0.0 <= f < 1.0
    with pytest.raises(ValueError, match="non-empty"):
        Rng(4).choice([])


def test_fork_gives_independent_streams() -> None:
    parent = Rng(42)
    forks = [parent.fork(i) for i in range(1000)]
    assert parent == Rng(42)  # forking draws nothing
    assert len({f.state for f in forks}) == 1000
    assert parent.fork(3) == forks[3]  # forks are reproducible
    assert parent not in forks
    firsts = [f.next64()[0] for f in forks]
    assert len(set(firsts)) == 1000
    # A child stream does not reproduce its parent's stream shifted by a few steps.
    parent_stream = draws(parent, 20, 2**32)
    for f in forks[:20]:
        assert draws(f, 5, 2**32) not in [parent_stream[k : k + 5] for k in range(16)]
    assert Rng(43).fork(0) != Rng(42).fork(0)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.0, "1", True, None, 2**70])
def test_bad_seeds_are_rejected(seed: object) -> None:
    with pytest.raises(ValueError, match="Rng seed must be an int in"):
        Rng(seed)  # type: ignore[arg-type]


def test_extreme_seeds_are_accepted() -> None:
    assert Rng(0).state == 0
    assert Rng(2**64 - 1).state == 2**64 - 1
    assert Rng(2**64 - 1).below(10)[0] in range(10)


def test_repr_eq_hash() -> None:
    rng = Rng(31337)
    assert repr(rng) == "Rng(31337)"
    assert eval(repr(rng), {"Rng": Rng}) == rng
    assert rng == Rng(31337) and hash(rng) == hash(Rng(31337))
    assert rng != Rng(31338)
    assert rng != 31337
    assert len({Rng(1), Rng(1), Rng(2)}) == 2
    assert Rng(rng.state) == rng


def test_pickle_and_copy_keep_the_stream() -> None:
    rng = Rng(99).below(10)[1]
    for clone in (pickle.loads(pickle.dumps(rng)), copy.copy(rng), copy.deepcopy(rng)):
        assert clone == rng
        assert draws(clone, 10, 1000) == draws(rng, 10, 1000)


# -- the fast ``below`` draws exactly what the original did -----------------------------------
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _reference_mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _reference_below(state: int, n: int) -> tuple[int, int]:
    """The original ``Rng.below``, kept verbatim: the value and the next state."""
    if not 0 < n <= _MASK + 1:
        raise ValueError(f"Rng.below needs 1 <= n <= 2**64, got {n}")
    limit = _MASK + 1 - ((_MASK + 1) % n)
    s = state
    while True:
        s = (s + _GAMMA) & _MASK
        z = _reference_mix(s)
        if z < limit:
            return z % n, s


BOUNDS = [
    1,
    2,
    3,
    5,
    7,
    10,
    52,
    *(1 << k for k in range(1, 65)),
    (1 << 16) - 1,
    1 << 16,
    (1 << 16) + 1,
    (1 << 63) + 1,  # rejects almost half of all draws
    (1 << 64) - 1,
    (1 << 64) // 3 * 2 + 1,
    3 << 62,
]


@pytest.mark.parametrize("n", BOUNDS)
def test_below_matches_the_original_implementation(n: int) -> None:
    for seed in range(0, 1 << 64, (1 << 64) // 97):
        state = seed
        for _ in range(25):
            expected, expected_state = _reference_below(state, n)
            value, nxt = Rng(state).below(n)
            assert (value, nxt.state) == (expected, expected_state)
            state = expected_state


def test_below_matches_the_original_on_rejection_prone_bounds() -> None:
    # With n just above 2**63 about half of the draws are rejected: the loop must skip the
    # same draws as the original and end in the same state.
    n = (1 << 63) + 12345
    rejected = 0
    rng = Rng(99)
    for _ in range(2000):
        expected, expected_state = _reference_below(rng.state, n)
        value, nxt = rng.below(n)
        assert (value, nxt.state) == (expected, expected_state)
        rejected += (nxt.state - rng.state) % (1 << 64) != _GAMMA
        rng = nxt
    assert 800 < rejected < 1200


@settings(max_examples=300, deadline=None)
@given(st.integers(0, _MASK), st.integers(1, 1 << 64))
def test_below_matches_the_original_anywhere(seed: int, n: int) -> None:
    assert Rng(seed).below(n) == (_reference_below(seed, n)[0], Rng(_reference_below(seed, n)[1]))


def test_below_refuses_bad_bounds_after_caching_good_ones() -> None:
    Rng(1).below(5)
    for bad in (0, -5):
        with pytest.raises(ValueError, match="n >= 1"):
            Rng(1).below(bad)
