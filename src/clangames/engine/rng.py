"""The kernel's random number generator: seeded, immutable, serializable, fast.

Every random choice in clangames goes through :class:`Rng`. Its whole state is one
64-bit integer, so it can be stored in a record or a JSON file, and because it is
immutable each draw returns the value *and* the next generator: a search that
branches never disturbs another branch's stream. The algorithm is SplitMix64.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from clangames.engine.errors import InvalidArgumentError
from clangames.engine.integers import as_integer

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """An immutable SplitMix64 generator; ``Rng(seed)`` for any seed in [0, 2**64)."""

    __slots__ = ("_state",)
    _state: int

    def __init__(self, seed: int) -> None:
        value = as_integer(seed)  # a NumPy seed is a seed
        if value is None or not 0 <= value <= _MASK:
            raise InvalidArgumentError(f"Rng seed must be an int in [0, 2**64), got {seed!r}")
        object.__setattr__(self, "_state", value)

    @classmethod
    def _at(cls, state: int) -> Rng:
        rng = _new(cls)
        _set_state(rng, state)
        return rng

    @property
    def state(self) -> int:
        """The whole state of the generator; ``Rng(rng.state) == rng``."""
        return self._state

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Rng is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Rng is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other._state == self._state

    def __hash__(self) -> int:
        return hash(("Rng", self._state))

    def __repr__(self) -> str:
        return f"Rng({self._state})"

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        return (Rng, (self._state,))

    def next64(self) -> tuple[int, Rng]:
        """A uniform 64-bit integer and the next generator."""
        s = (self._state + _GAMMA) & _MASK
        rng = _new(Rng)
        _set_state(rng, s)
        return _mix(s), rng

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in [0, n) (exact: rejection, no modulo bias)."""
        # The hot path of every random playout: the mix is inlined with literal constants
        # and the rejection limit comes from a table for small n (the draws are the same).
        limit = _LIMITS.get(n)
        if limit is None:
            limit = _limit(n)
            if not limit:  # a bound above 2**64: drawn from several words
                value, state = below_wide(self._state, n)
                return value, Rng._at(state)
        s = self._state
        while True:
            s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            z ^= z >> 31
            if z < limit:
                rng = _new(Rng)
                _set_state(rng, s)
                return z % n, rng

    def random(self) -> tuple[float, Rng]:
        """A float in [0, 1) with 53 random bits."""
        z, nxt = self.next64()
        return (z >> 11) * (1.0 / (1 << 53)), nxt

    def weighted(self, weights: Sequence[int]) -> tuple[int, Rng]:
        """An index drawn with probability ``weights[i] / sum(weights)`` (exact integers)."""
        if weights and min(weights) < 0:
            raise ValueError(f"Rng.weighted needs weights >= 0, got {list(weights)!r}")
        total = sum(weights)
        if total <= 0:
            raise ValueError(f"Rng.weighted needs positive total weight, got {list(weights)!r}")
        x, nxt = self.below(total)
        for i, w in enumerate(weights):
            if x < w:
                return i, nxt
            x -= w
        raise ValueError(f"Rng.weighted needs positive total weight, got {list(weights)!r}")

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """A uniformly chosen item of a non-empty sequence."""
        if not items:
            raise ValueError("Rng.choice needs a non-empty sequence")
        i, nxt = self.below(len(items))
        return items[i], nxt

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """A uniformly shuffled copy (Fisher-Yates)."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def fork(self, stream: int) -> Rng:
        """An independent generator for sub-stream ``stream`` (a playout, a job, a seat)."""
        return Rng._at(_mix((self._state ^ _mix((stream * _GAMMA + 1) & _MASK)) & _MASK))


_new = object.__new__
_set_state: Callable[[Rng, int], None] = Rng.__dict__["_state"].__set__
"""Writes the slot of a new Rng, past the __setattr__ that keeps Rngs immutable."""

_LIMITS: dict[int, int] = {}
"""Rejection limits of ``below`` for the small bounds seen so far (bounded in size)."""

_CACHED_BELOW = 1 << 16
"""Bounds below this have their limit cached: action and outcome counts, not huge n."""


def _limit(n: int) -> int:
    """The rejection limit of ``below(n)``: the largest multiple of n not above 2**64
    (a 64-bit draw below it is unbiased modulo n), or 0 for a bound above 2**64, which
    :func:`below_wide` draws. Checks n; caches small bounds."""
    if not n > 0:
        raise ValueError(f"Rng.below needs a bound n >= 1, got {n}")
    if n > _MASK + 1:
        return 0
    limit = _MASK + 1 - ((_MASK + 1) % n)
    if type(n) is int and n < _CACHED_BELOW:
        _LIMITS[n] = limit
    return limit


def below_wide(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) for a bound above 2**64, and the generator's next state.

    Chance nodes can have more weight than one word holds (Clan Feud's 25 or more
    casualty dice: 6**25 > 2**64). Such a draw takes as many 64-bit draws as n needs,
    the first the lowest word, and rejects a number at or above the largest multiple of
    n that fits in them, as the one-word draw does; bounds up to 2**64 never come here,
    so their streams are unchanged."""
    words = ((n - 1).bit_length() + 63) // 64
    span = 1 << (64 * words)
    limit = span - span % n
    s = state
    while True:
        z = 0
        for i in range(words):
            s = (s + _GAMMA) & _MASK
            z |= _mix(s) << (64 * i)
        if z < limit:
            return z % n, s
