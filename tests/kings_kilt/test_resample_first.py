"""King's Kilt ``resample``: the eighth round's first re-deal gives the same numbers.

The deck splits a quick draw picks from are now made from kept splits of smaller sets of
clans (by mask) instead of a recursive generator over clan lists. The table must be the
old one, split for split in the same order, since a number below its length picks the
split; and, kept per process, it must answer only for its own set of clans. A quick try
now counts its ``Z_j`` while it draws the thirds: the same try, the same odds and the same
stream after it as the old ``_complete``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from clangames.engine.rng import Rng
from clangames.kings_kilt import posterior as post

from .test_resample_quick_cache import _turns
from .test_resample_repeated import _fresh_quick


def _old_splits(clans: list[int], size: int, parts: int) -> Iterator[list[int]]:
    """``posterior._splits`` as it was before this round (the oracle)."""
    if not parts:
        yield []
        return
    for first in itertools.combinations(clans, size):
        left = [c for c in clans if c not in first]
        for more in _old_splits(left, size, parts - 1):
            yield [sum(1 << c for c in first), *more]


def _forget_tables() -> None:
    post._split_table.cache_clear()
    post._split_masks.cache_clear()


@pytest.mark.parametrize("clans", [8, 10])
def test_the_split_tables_are_the_old_generators_split_for_split(clans: int) -> None:
    _forget_tables()
    checked = 0
    for size, parts in itertools.product([1, 2, 3], [1, 2, 3, 4]):
        for count in range(size * parts, min(clans, size * parts + 1) + 1):
            for holders in itertools.combinations(range(clans), count):
                expected = list(_old_splits(list(holders), size, parts))
                assert list(post._split_table(holders, size, parts)) == expected
                checked += 1
    assert checked > 700


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_kept_split_table_is_the_fresh_one_on_every_turn_of_seeded_games(players: int) -> None:
    # Tables kept from earlier positions (and other player counts) answer every turn's
    # holders exactly as the old generator does for that turn alone.
    seen = 0
    for seed in (3, 11):
        for state, viewer in _turns(players, seed):
            quick = _fresh_quick(state, viewer)
            holders = tuple(quick.held)
            if quick.rest_need or quick.shown:
                continue  # (the splits of a rest's holders: checked above for every set)
            expected = list(_old_splits(list(holders), quick.from_deck, players - 1))
            assert list(quick._splits_of(holders)) == expected
            state.resample(viewer, Rng(seed))
            seen += 1
    assert seen or players < 4


def test_the_split_tables_are_kept_by_the_clans_themselves() -> None:
    # A key coarser than the set of clans (its size, say) would hand one set's splits to
    # another: two sets of the same size must get their own tables, in either order.
    _forget_tables()
    first = post._split_table((0, 1, 2, 3, 4, 5), 2, 3)
    second = post._split_table((2, 3, 4, 5, 6, 7), 2, 3)
    assert first != second
    assert all(sum(split) == 0b111111 for split in first)
    assert all(sum(split) == 0b11111100 for split in second)
    assert post._split_table((0, 1, 2, 3, 4, 5), 2, 3) is first
    assert post._split_masks(0b111111, 2, 2) != post._split_masks(0b111111, 3, 2)


def _old_complete(
    quick: post.QuickDeal, stream: post._Stream, decks: list[int], rest: int, bounds: int
) -> post.Tried | None:
    """``QuickDeal._complete`` as it was before this round, asking ``_odds`` for the
    acceptance's odds once the thirds are drawn (the oracle)."""
    holders = 0
    for mine in decks:
        holders |= mine
    copies = list(quick._copies(decks))
    thirds: list[int] = []
    spans = []
    for i, mine in enumerate(decks):
        forced = quick.shows[i] & ~mine
        if forced:
            if forced & (forced - 1):
                return None
            third = forced.bit_length() - 1
            span = copies[third]
            if not span:
                return None
        else:
            span, outside = quick._outside(mine)
            span -= i
            for taken in thirds:
                span += mine >> taken & 1
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
    num, den = quick._odds(decks, thirds, spans, bounds)
    if num != den and stream.below(den) >= num:
        return None
    return decks, thirds, rest, copies


def _twin(stream: post._Stream) -> post._Stream:
    twin = post._Stream(stream.seed)
    twin.x, twin.m = stream.x, stream.m
    return twin


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_odds_taken_with_the_thirds_are_the_old_odds(players: int) -> None:
    # The same try, kept or not, and the same generator state after it, from the same
    # proposal, with the flat list's product of bounds and without it (asked of the joint).
    kept = refused = 0
    for seed in (5, 17):
        for state, viewer in _turns(players, seed)[::3]:
            quick = _fresh_quick(state, viewer)
            for draw in range(12):
                stream = post._Stream(Rng(seed * 1000 + draw).state)
                decks, rest, bounds = quick._propose(stream)
                for given in {bounds, 0}:
                    new, old = _twin(stream), _twin(stream)
                    got = quick._complete(new, decks, rest, given)
                    assert got == _old_complete(quick, old, decks, rest, given)
                    assert (new.seed, new.x, new.m) == (old.seed, old.x, old.m)
                    kept += got is not None
                    refused += got is None
    assert kept > 100 and refused > 5
