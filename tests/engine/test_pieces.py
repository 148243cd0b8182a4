"""The shared pieces: Phase, seats, bits, Multiset, Pile, Commitments."""

from __future__ import annotations

from collections import Counter

import pytest

from clangames import CHANCE, Commitments, Multiset, Phase, Pile, Rng
from clangames.engine import bits, seats
from clangames.engine.simultaneous import NOT_COMMITTED

# -- Phase -----------------------------------------------------------------------------------


def test_turn_phase() -> None:
    phase = Phase.turn("play", 2)
    assert (phase.name, phase.to_move, phase.simultaneous) == ("play", (2,), False)
    assert not phase.is_chance and not phase.is_terminal
    assert Phase.turn("play", 2) is phase  # shared instance
    assert Phase.turn("play", 1) != phase and Phase.turn("other", 2) != phase


def test_chance_phase() -> None:
    phase = Phase.chance("deal")
    assert phase.to_move == (CHANCE,) == (-1,)
    assert phase.is_chance and not phase.is_terminal
    assert Phase.chance("deal") is phase
    assert Phase.chance("deal") != Phase.turn("deal", 0)


def test_together_phase_sorts_its_players() -> None:
    phase = Phase.together("bid", (2, 0, 1))
    assert phase.to_move == (0, 1, 2)
    assert phase.simultaneous and not phase.is_chance and not phase.is_terminal
    assert phase == Phase.together("bid", (0, 1, 2))
    assert hash(phase) == hash(Phase.together("bid", (1, 2, 0)))
    assert Phase.together("bid", (1,)).to_move == (1,)


def test_over_phase() -> None:
    phase = Phase.over()
    assert phase.is_terminal and not phase.is_chance
    assert phase.to_move == ()
    assert Phase.over() is phase


# -- seats -----------------------------------------------------------------------------------


def test_left_and_right() -> None:
    assert [seats.left_of(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert [seats.right_of(s, 4) for s in range(4)] == [3, 0, 1, 2]
    assert seats.left_of(0, 1) == 0 and seats.right_of(0, 1) == 0


def test_next_seat_without_skips() -> None:
    assert [seats.next_seat(s, 3) for s in range(3)] == [1, 2, 0]


def test_next_seat_skips_masked_seats() -> None:
    assert seats.next_seat(0, 4, skip=0b0010) == 2  # seat 1 skipped
    assert seats.next_seat(0, 4, skip=0b1110) == 0  # only the seat itself is left
    assert seats.next_seat(3, 4, skip=0b0001) == 1  # wraps past skipped seat 0
    assert seats.next_seat(2, 4, skip=0b1111) is None  # everyone skipped
    assert seats.next_seat(2, 4, skip=0b0100) == 3  # the seat itself may be skipped


def test_clockwise_from() -> None:
    assert seats.clockwise_from(2, 4) == (2, 3, 0, 1)
    assert seats.clockwise_from(0, 3) == (0, 1, 2)
    assert seats.clockwise_from(0, 1) == (0,)


def test_seat_sets() -> None:
    assert seats.seat_set([0, 2, 3]) == 0b1101
    assert seats.seat_set(()) == 0
    assert seats.seats_in(0b1101, 4) == (0, 2, 3)
    assert seats.seats_in(0b1101, 3) == (0, 2)  # seats beyond n are ignored


# -- bits ------------------------------------------------------------------------------------


def test_bits_of_and_mask_of() -> None:
    assert bits.bits_of(0) == ()
    assert bits.bits_of(0b101001) == (0, 3, 5)
    assert bits.mask_of([0, 3, 5]) == 0b101001
    assert bits.mask_of([2, 2]) == 0b100
    for mask in range(256):
        assert bits.mask_of(list(bits.bits_of(mask))) == mask


def test_bit_tables() -> None:
    table = bits.bit_tables(3)
    assert len(table) == 8
    assert table[0] == () and table[0b101] == (0, 2) and table[0b111] == (0, 1, 2)
    assert all(table[m] == bits.bits_of(m) for m in range(8))
    assert bits.bit_tables(3) is table  # cached


# -- Multiset --------------------------------------------------------------------------------


def test_multiset_basics() -> None:
    pile = Multiset.from_kinds(4, [2, 0, 2, 3, 2])
    assert pile == Multiset((1, 0, 3, 1))
    assert repr(pile) == "Multiset((1, 0, 3, 1))"
    assert len(pile) == 5 and bool(pile)
    assert list(pile) == [0, 2, 2, 2, 3]
    assert pile.count(2) == 3 and pile.count(1) == 0
    assert pile.kinds() == (0, 2, 3)
    assert pile.kind_mask() == 0b1101
    assert 2 in pile and 1 not in pile and 9 not in pile and -1 not in pile
    assert "2" not in pile


def test_kind_mask_of_more_kinds_than_its_table() -> None:
    # up to 64 kinds the bits come from one table; beyond it, one by one, alike
    wide = Multiset.from_kinds(70, [0, 63, 64, 69, 69])
    assert wide.kind_mask() == 1 | 1 << 63 | 1 << 64 | 1 << 69
    assert Multiset.from_kinds(64, [63]).kind_mask() == 1 << 63


def test_empty_multiset() -> None:
    empty = Multiset.empty(3)
    assert empty.counts == (0, 0, 0)
    assert len(empty) == 0 and not empty
    assert empty.kinds() == () and empty.kind_mask() == 0
    assert empty.draw_weights() == ()


def test_multiset_add_and_remove_copy() -> None:
    pile = Multiset((1, 0, 2))
    assert pile.add(1) == Multiset((1, 1, 2))
    assert pile.add(0, 3) == Multiset((4, 0, 2))
    assert pile.remove(2) == Multiset((1, 0, 1))
    assert pile.remove(2, 2) == Multiset((1, 0, 0))
    assert pile == Multiset((1, 0, 2))  # unchanged


def test_multiset_remove_errors() -> None:
    pile = Multiset((1, 0, 2))
    with pytest.raises(ValueError, match="cannot remove 1 of kind 1: only 0 present"):
        pile.remove(1)
    with pytest.raises(ValueError, match="cannot remove 3 of kind 2: only 2 present"):
        pile.remove(2, 3)


def test_multiset_rejects_negative_kinds() -> None:
    with pytest.raises(ValueError):
        Multiset((1, 0, 2)).remove(-1)


def test_multiset_union_and_difference() -> None:
    a, b = Multiset((1, 2, 0)), Multiset((0, 1, 0))
    assert a.union(b) == Multiset((1, 3, 0))
    assert a.difference(b) == Multiset((1, 1, 0))
    assert a.difference(a) == Multiset.empty(3)
    with pytest.raises(ValueError, match=r"Multiset\(\(1, 2, 0\)\) is not contained in"):
        b.difference(a)
    with pytest.raises(ValueError):
        a.union(Multiset((1, 1)))  # different numbers of kinds


def test_draw_weights_collapse_identical_cards() -> None:
    pile = Multiset((3, 0, 1, 4))
    assert pile.draw_weights() == ((0, 3), (2, 1), (3, 4))
    assert pile.draw_weights(exclude=0b1001) == ((2, 1),)
    assert pile.draw_weights(exclude=0b1111) == ()


def test_sample_draws_without_replacement() -> None:
    pile = Multiset((2, 1, 3))
    hand, rng = pile.sample(Rng(3), 6)
    assert hand == pile  # drawing everything gives everything back
    assert pile.sample(Rng(3), 0) == (Multiset.empty(3), Rng(3))
    rng = Rng(10)
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(3000):
        hand, rng = pile.sample(rng, 2)
        assert len(hand) == 2
        pile.difference(hand)  # always contained
        seen[hand.counts] += 1
    # Of the 15 equally likely pairs: 1 is {0,0}, 2 are {0,1}, 6 {0,2}, 3 {1,2}, 3 {2,2}.
    expected = {(2, 0, 0): 1, (1, 1, 0): 2, (1, 0, 1): 6, (0, 1, 1): 3, (0, 0, 2): 3}
    assert set(seen) == set(expected)
    for counts, n in expected.items():
        assert abs(seen[counts] - 200 * n) < 60 + 20 * n, seen


def test_sample_is_deterministic() -> None:
    pile = Multiset((5, 5, 5))
    assert pile.sample(Rng(1), 7) == pile.sample(Rng(1), 7)


# -- Pile ------------------------------------------------------------------------------------


def test_pile_push_and_pop() -> None:
    pile = Pile()
    assert len(pile) == 0 and pile.top is None
    pile = pile.push(4).push(7)
    assert pile.cards == (4, 7) and pile.top == 7 and len(pile) == 2
    card, rest = pile.pop()
    assert (card, rest) == (7, Pile((4,)))
    assert pile == Pile((4, 7))  # unchanged


def test_pile_pop_empty() -> None:
    with pytest.raises(ValueError, match="cannot draw from an empty pile"):
        Pile().pop()


# -- Commitments -----------------------------------------------------------------------------


def test_commitments_flow() -> None:
    c = Commitments.open(3)
    assert c.ids == (NOT_COMMITTED,) * 3
    assert c.waiting((0, 2)) == (0, 2) and not c.is_complete((0, 2))
    c2 = c.commit(2, 17)
    assert c == Commitments.open(3)  # unchanged
    assert c2.ids == (-1, -1, 17)
    assert c2.has_committed(2) and not c2.has_committed(0)
    assert c2.waiting((0, 2)) == (0,)
    assert c2.committed() == (False, False, True)
    c3 = c2.commit(0, 0)  # action id 0 is a real commitment
    assert c3.is_complete((0, 2)) and not c3.is_complete((0, 1, 2))
    assert c3.waiting((0, 1, 2)) == (1,)


def test_commitments_seen_by_hides_the_others() -> None:
    c = Commitments.open(3).commit(0, 5).commit(1, 6)
    assert c.seen_by(0) == (5, -1, -1)
    assert c.seen_by(1) == (-1, 6, -1)
    assert c.seen_by(2) == (-1, -1, -1)


def test_commit_twice_is_refused() -> None:
    c = Commitments.open(2).commit(1, 3)
    with pytest.raises(ValueError, match="seat 1 has already committed"):
        c.commit(1, 4)
