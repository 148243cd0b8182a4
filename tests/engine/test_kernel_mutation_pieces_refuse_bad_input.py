"""The kernel's shared pieces (phases, commitments, multisets, seats) refuse what would
silently corrupt a game, naming it, and change nothing.

Each test here fails on a mutant of the kernel's mutation audit that no test caught before:
an empty simultaneous phase (a node nobody can leave), a commitment of id -1 (the "not
committed" mark: the seat would seem to have played and still be waited on), a card of
kind -1 (Python's index of the last kind) added to or counted into a multiset, and a
commitment of action id 0 read as no commitment.
"""

from __future__ import annotations

import pytest

from clangames.engine.phases import Phase
from clangames.engine.piles import Multiset
from clangames.engine.seats import left_of, next_seat, right_of
from clangames.engine.simultaneous import NOT_COMMITTED, Commitments


def test_a_simultaneous_phase_needs_a_player() -> None:
    with pytest.raises(ValueError, match="simultaneous phase 'bid' needs at least one player"):
        Phase.together("bid", ())


@pytest.mark.parametrize("bad", [NOT_COMMITTED, -2])
def test_a_commitment_is_a_real_action_id(bad: int) -> None:
    open_ = Commitments.open(2)
    with pytest.raises(ValueError, match=rf"an action id is >= 0, got {bad}"):
        open_.commit(0, bad)
    assert open_ == Commitments.open(2) and open_.waiting((0, 1)) == (0, 1)


@pytest.mark.parametrize("bad", [-1, 3])
def test_adding_a_kind_out_of_range_is_refused(bad: int) -> None:
    pile = Multiset((1, 0, 2))
    with pytest.raises(ValueError, match=rf"kind {bad} is out of range 0..2"):
        pile.add(bad)
    assert pile == Multiset((1, 0, 2))


@pytest.mark.parametrize("bad", [-1, 3])
def test_removing_a_kind_out_of_range_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match=rf"kind {bad} is out of range 0..2"):
        Multiset((1, 0, 2)).remove(bad)


@pytest.mark.parametrize("bad", [-1, 3])
def test_listing_a_kind_out_of_range_is_refused(bad: int) -> None:
    # Before the audit, kind -1 was counted as the last kind, silently.
    with pytest.raises(ValueError, match=rf"kind {bad} is out of range 0..2"):
        Multiset.from_kinds(3, [0, bad])
    assert Multiset.from_kinds(3, [2, 0, 2]) == Multiset((1, 0, 2))


def test_right_of_wraps_at_seat_zero() -> None:
    for n in (2, 3, 5):
        assert right_of(0, n) == n - 1
        assert left_of(n - 1, n) == 0
        for seat in range(n):
            assert left_of(right_of(seat, n), n) == seat
            assert next_seat(seat, n) == left_of(seat, n)


def test_action_id_zero_is_a_commitment() -> None:
    sealed = Commitments.open(2).commit(0, 0)
    assert sealed.has_committed(0) and not sealed.has_committed(1)
    assert sealed.committed() == (True, False)
    assert sealed.waiting((0, 1)) == (1,)
    assert sealed.seen_by(0) == (0, NOT_COMMITTED)
