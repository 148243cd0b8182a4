"""Piles and decks: immutable multisets with exact chance draws, and ordered piles.

A face-down pile whose order nobody knows is a :class:`Multiset` of card kinds; drawing
from it is a chance node with one outcome per kind present, weighted by its count
(identical cards collapse: a pile of 8 clans has at most 8 outcomes).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import compress

import attrs

from clangames.engine.rng import Rng

KIND_BITS = tuple(1 << kind for kind in range(64))
"""Each card kind's bit in a bitmask of kinds: ``sum(compress(KIND_BITS, counts))`` is
:meth:`Multiset.kind_mask` of up to 64 kinds, for rules that would rather not pay the
method call."""


@attrs.frozen(slots=True, repr=False)
class Multiset:
    """How many cards of each kind 0..k-1 a pile or hand holds."""

    counts: tuple[int, ...]

    @classmethod
    def empty(cls, kinds: int) -> Multiset:
        """A multiset of ``kinds`` kinds with nothing in it."""
        return cls((0,) * kinds)

    @classmethod
    def from_kinds(cls, kinds: int, items: Iterable[int]) -> Multiset:
        """The multiset of the listed kinds (repeats count); ValueError for a kind outside
        0..kinds-1 (a -1 would otherwise count as the last kind)."""
        counts = [0] * kinds
        for item in items:
            if not 0 <= item < kinds:
                raise ValueError(f"kind {item} is out of range 0..{kinds - 1}")
            counts[item] += 1
        return cls(tuple(counts))

    def __repr__(self) -> str:
        return f"Multiset({self.counts!r})"

    def __len__(self) -> int:
        return sum(self.counts)

    def __bool__(self) -> bool:
        return any(self.counts)

    def __contains__(self, kind: object) -> bool:
        return isinstance(kind, int) and 0 <= kind < len(self.counts) and self.counts[kind] > 0

    def __iter__(self) -> Iterator[int]:
        """Each card's kind, with repeats, in kind order."""
        for kind, n in enumerate(self.counts):
            for _ in range(n):
                yield kind

    def count(self, kind: int) -> int:
        """How many cards of ``kind``; ValueError for a kind outside 0..k-1 (a -1 would
        otherwise read the last kind)."""
        if not 0 <= kind < len(self.counts):
            raise ValueError(f"kind {kind} is out of range 0..{len(self.counts) - 1}")
        return self.counts[kind]

    def kinds(self) -> tuple[int, ...]:
        """The kinds present, in order."""
        return tuple(k for k, n in enumerate(self.counts) if n)

    def kind_mask(self) -> int:
        """The kinds present as a bitmask (rules ask it at most steps: the bits of the
        kinds present are picked and summed in C)."""
        counts = self.counts
        if len(counts) <= len(KIND_BITS):
            return sum(compress(KIND_BITS, counts))
        return sum(1 << k for k, n in enumerate(counts) if n)

    def add(self, kind: int, n: int = 1) -> Multiset:
        """A copy with ``n`` more of ``kind``."""
        if not 0 <= kind < len(self.counts):
            raise ValueError(f"kind {kind} is out of range 0..{len(self.counts) - 1}")
        counts = list(self.counts)
        counts[kind] += n
        return Multiset(tuple(counts))

    def remove(self, kind: int, n: int = 1) -> Multiset:
        """A copy with ``n`` fewer of ``kind``; ValueError if there are not that many."""
        if not 0 <= kind < len(self.counts):
            raise ValueError(f"kind {kind} is out of range 0..{len(self.counts) - 1}")
        counts = list(self.counts)
        if counts[kind] < n:
            raise ValueError(f"cannot remove {n} of kind {kind}: only {counts[kind]} present")
        counts[kind] -= n
        return Multiset(tuple(counts))

    def union(self, other: Multiset) -> Multiset:
        """Both piles together."""
        return Multiset(tuple(a + b for a, b in zip(self.counts, other.counts, strict=True)))

    def difference(self, other: Multiset) -> Multiset:
        """This pile less ``other``; ValueError if ``other`` is not contained in it."""
        counts = tuple(a - b for a, b in zip(self.counts, other.counts, strict=True))
        if min(counts, default=0) < 0:
            raise ValueError(f"{other!r} is not contained in {self!r}")
        return Multiset(counts)

    def draw_weights(self, exclude: int = 0) -> tuple[tuple[int, int], ...]:
        """The chance outcomes of drawing one card: (kind, count) for each kind present,
        leaving out kinds in bitmask ``exclude`` (a redraw-until-new rule)."""
        return tuple((k, n) for k, n in enumerate(self.counts) if n and not exclude >> k & 1)

    def sample(self, rng: Rng, n: int) -> tuple[Multiset, Rng]:
        """``n`` cards drawn uniformly without replacement, as a multiset."""
        counts = list(self.counts)
        drawn = [0] * len(counts)
        for _ in range(n):
            kind, rng = rng.weighted(counts)
            counts[kind] -= 1
            drawn[kind] += 1
        return Multiset(tuple(drawn)), rng


@attrs.frozen(slots=True)
class Pile:
    """An ordered pile; the top card is the last item."""

    cards: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def top(self) -> int | None:
        """The top card, or None when empty."""
        return self.cards[-1] if self.cards else None

    def push(self, card: int) -> Pile:
        """A copy with ``card`` on top."""
        return Pile((*self.cards, card))

    def pop(self) -> tuple[int, Pile]:
        """The top card and the pile beneath it."""
        if not self.cards:
            raise ValueError("cannot draw from an empty pile")
        return self.cards[-1], Pile(self.cards[:-1])
