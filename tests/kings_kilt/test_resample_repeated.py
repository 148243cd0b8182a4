"""King's Kilt ``resample``: what makes a position's repeated re-deals cheap changes none.

A search re-deals one position again and again. The quick draw hands the re-deal its try
unpacked (deck cards, thirds and the copies left hidden) rather than as bit lanes, and
keeps what depends only on the clans held (``Q0``) or on one player's deck cards; none of
it may change which deal a number gives, nor what is left to deal as hands and members.
"""

from __future__ import annotations

from bisect import bisect_right

import pytest

from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt import posterior as post

from .test_resample_quick_cache import _turns


def _fresh_quick(state: KingsKiltState, viewer: int) -> post.QuickDeal:
    """A quick draw made anew for the position (nothing kept from other tests)."""
    pool = post.hidden_pool(state, viewer)
    key = post.family_key(state, viewer, pool)
    seen = post.FamilyPosterior._seen(key)
    assert seen is not None
    return post.QuickDeal(key, seen)


def _left_hidden(state: KingsKiltState, viewer: int, deal: int, width: int) -> list[int]:
    """The copies of each clan left hidden once the others' face-down family cards of the
    packed ``deal`` are taken out of the viewer's hidden pool (the re-deal's old way)."""
    left = list(post.hidden_pool(state, viewer))
    lane = (1 << width) - 1
    others = [p for p in range(state.game.num_players) if p != viewer]
    for i, p in enumerate(others):
        family = deal >> ((2 * i + 1) * width) & lane
        face_down = family & ~state.revealed[p]
        for c in range(width):
            left[c] -= face_down >> c & 1
    return left


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_unpacked_try_is_the_packed_deal_and_leaves_what_the_deal_leaves(players: int) -> None:
    turns = [turn for seed in range(2) for turn in _turns(players, 70 + seed)]
    checked = 0
    for state, viewer in turns[::3]:
        quick = _fresh_quick(state, viewer)
        if not quick.possible:
            continue
        twin = _fresh_quick(state, viewer)  # drawn from only through ``draw``
        for seed in range(12):
            got = quick.tried(post._Stream(seed))
            deal = twin.draw(post._Stream(seed))
            if got is None:
                assert deal is None
                continue
            decks, thirds, rest, left = got
            assert quick._deal(decks, thirds, rest) == deal
            assert left == _left_hidden(state, viewer, deal, quick.width)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", [3, 4])
def test_a_position_re_dealt_many_times_gives_what_fresh_re_deals_give(players: int) -> None:
    """Re-deals of one position from kept quick draws, copies and bounds (warmed by 40
    earlier re-deals) equal re-deals with everything made anew for each."""
    for state, viewer in _turns(players, 90 + players)[::7]:
        for i in range(40):
            state.resample(viewer, Rng(5000 + i))
        warm = [state.resample(viewer, Rng(i)) for i in range(8)]
        cold = []
        for i in range(8):
            post._QUICK.clear()
            post._TABLES.clear()
            post._last[0] = (None, -1, None)
            cold.append(state.resample(viewer, Rng(i)))
        assert warm == cold


@pytest.mark.parametrize("players", [2, 3])
def test_the_flat_list_of_rests_gives_the_rest_the_programme_gives(players: int) -> None:
    """At every end of every rest's interval (and one before it) the bisection of the flat
    list and the clan-by-clan reading agree, and the intervals cover every number."""
    checked = 0
    for state, viewer in _turns(players, 30 + players)[::4]:
        quick = _fresh_quick(state, viewer)
        if quick.shown or not quick.possible or not quick.rest_need:
            continue
        ends, picks = quick._flatten()
        assert ends[-1] == quick.ways[0][quick.rest_need]
        assert len({rest for rest, _ in picks}) == len(picks)
        low = 0
        for end, pick in zip(ends, picks, strict=True):
            assert end > low
            for u in (low, end - 1):
                assert quick._rest_at(u) == pick
            low = end
        checked += 1
    assert checked >= 3


def _walk_by_options(joint: post._Joint, u: int) -> tuple[int, list[int]]:
    """The reading of ``u`` through :meth:`_Joint._options`, as the walk was before it
    read the bounds' memo inline (the oracle)."""
    at = bisect_right(joint.cums, u)
    if at:
        u -= joint.cums[at - 1]
    rest, left, base = joint.rests[at]
    u //= base
    decks = []
    for i in range(joint.last):
        chosen = 0
        for mine, bound, weight in joint._options(at, i, left):
            if u < weight:
                u //= bound
                chosen = mine
                break
            u -= weight
        decks.append(chosen)
        left &= ~chosen
    decks.append(left)
    return rest, decks


@pytest.mark.parametrize("players", [3, 4])
def test_the_joint_programme_read_inline_is_the_one_read_by_its_options(players: int) -> None:
    """Where others show cards, each rest's weight summed inline (two other players) or by
    the memo equals its options' weights, and the inline walk gives the split the options'
    reading gives at both ends of every split's interval and at numbers between."""
    checked = 0
    for state, viewer in _turns(players, 50 + players)[::2]:
        quick = _fresh_quick(state, viewer)
        if not quick.shown or not quick.possible:
            continue
        joint = quick._joint()
        low = 0
        for at, (_, holders, base) in enumerate(joint.rests):
            whole = sum(weight for _, _, weight in joint._options(at, 0, holders))
            assert joint.cums[at] - low == base * whole
            low = joint.cums[at]
        ends, picks = joint.flatten()
        start = 0
        for end, pick in zip(ends, picks, strict=True):
            for u in (start, (start + end) // 2, end - 1):
                assert joint.walk(u) == _walk_by_options(joint, u) == pick
            start = end
        checked += 1
    assert checked >= 5
