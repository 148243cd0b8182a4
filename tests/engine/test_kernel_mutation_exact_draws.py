"""Every random draw is exact (rejection sampling, no modulo bias), and the fast rollout
path rejects exactly the draws ``Rng.below`` rejects.

A seeded game meets a rejected draw about once in 2**60 draws, so seeded comparisons never
see the rejection branch. Here a generator is built whose next raw 64-bit draw is a chosen
value (SplitMix64's mix is a bijection, so it can be inverted): the draw at the rejection
limit, the last one, and the one just below the limit. Found by the kernel's mutation audit:
an ``Rng.below`` accepting the draw at its limit, and rollout loops without their rejection
step, passed every test before.
"""

from __future__ import annotations

from typing import Any

import pytest

import clangames
from clangames import CHANCE, Rng, State
from clangames.engine import rng as rng_module
from clangames.engine.rollout import rollout, rollout_moves, rollout_seats
from testing import toys

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_TOP = 1 << 64


def _unshift(y: int, k: int) -> int:
    """The inverse of ``x ^ (x >> k)`` on 64 bits."""
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x


def _unmix(z: int) -> int:
    """The inverse of SplitMix64's output mix."""
    z = _unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, _TOP)) & _MASK
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, _TOP)) & _MASK
    return _unshift(z, 30)


def draw_is(z: int, at: int = 1) -> Rng:
    """A generator whose ``at``-th raw 64-bit draw (1 = the next) is ``z``."""
    return Rng((_unmix(z) - at * _GAMMA) & _MASK)


def limit(n: int) -> int:
    """The largest multiple of ``n`` not above 2**64: draws from it up are rejected."""
    return _TOP - _TOP % n


def test_the_crafted_generators_draw_what_they_are_built_to() -> None:
    for z in (0, 1, 12345, limit(3), _MASK):
        assert draw_is(z).next64()[0] == z
        assert draw_is(z, at=2).next64()[1].next64()[0] == z


@pytest.mark.parametrize("n", [3, 5, 6, 7, 10, 1000, 65537, (1 << 63) + 1])
def test_below_rejects_every_draw_from_its_limit_up(n: int) -> None:
    for z in (limit(n), _MASK):
        rng = draw_is(z)
        value, after = rng.below(n)
        # The rejected draw is skipped: the answer is the next generator's own draw.
        assert (value, after) == rng.next64()[1].below(n)
        assert after != rng.next64()[1]
    rng = draw_is(limit(n) - 1)
    assert rng.below(n) == ((limit(n) - 1) % n, rng.next64()[1])


def test_a_power_of_two_bound_never_rejects() -> None:
    for n in (1, 2, 8, 1 << 40):
        rng = draw_is(_MASK)
        assert rng.below(n) == (_MASK % n, rng.next64()[1])


def test_weighted_and_choice_reject_like_below() -> None:
    rng = draw_is(_MASK)  # rejected for a total of 5
    assert rng.weighted([2, 0, 3]) == rng.next64()[1].weighted([2, 0, 3])
    assert rng.choice("abc") == rng.next64()[1].choice("abc")


@pytest.mark.parametrize("weights", [[], [0], [0, 0]])
def test_weighted_names_a_zero_total(weights: list[int]) -> None:
    with pytest.raises(ValueError, match=r"needs positive total weight, got \["):
        Rng(3).weighted(weights)


def test_the_limit_cache_stays_small() -> None:
    # below(n) caches the limits of small bounds only: huge bounds (a hash, a big total
    # weight) must not grow the table without end.
    before = set(rng_module._LIMITS)
    rng = Rng(5)
    for k in range(200):
        _, rng = rng.below((1 << 20) + 7 * k)
    assert set(rng_module._LIMITS) - before == set()


# -- the fast rollout path ----------------------------------------------------------------

CONFIGS = [
    ("toy_duel", 2),
    ("kings_kilt", 3),
    ("koa_kingmaker", 3),
    ("kilt_castle", 2),
    ("clan_feud", 3),
]


def _load(name: str, players: int) -> clangames.Game:
    if name == "toy_duel":
        return toys.toy()
    return clangames.load(name, players=players)


def reference_step(state: State, rng: Rng, draw_mover: bool) -> tuple[int, Any, Rng]:
    """One step of the documented random loop through the public API."""
    if state.is_chance:
        action, rng = clangames.sample_chance(state, rng)
        return CHANCE, action, rng
    player = state.to_move[0]
    if draw_mover:
        k, rng = rng.below(len(state.to_move))
        player = state.to_move[k]
    legal = state.legal_actions(player)
    j, rng = rng.below(len(legal))
    return player, legal[j], rng


def bounds(state: State) -> set[int]:
    """Every bound a draw at this node may use (chance total, movers, legal actions)."""
    if state.is_chance:
        return {sum(w for _, w in state.chance_weights())}
    return {len(state.to_move)} | {len(state.legal_actions(p)) for p in state.to_move}


def crafted(state: State) -> list[Rng]:
    """Generators whose first or second draw is a rejected one (or the first accepted one
    below a limit) for one of this node's bounds."""
    values = {_MASK}
    for n in bounds(state):
        values |= {limit(n), limit(n) - 1}
    return [draw_is(z, at) for z in sorted(values) for at in (1, 2)]


def states_of(name: str, players: int, steps: int) -> list[State]:
    """The states of a seeded game, a decision or chance node each."""
    state = _load(name, players).initial_state()
    out = [state]
    rng = Rng(11)
    while not state.is_terminal and len(out) < steps:
        player, action, rng = reference_step(state, rng, True)
        state = state.apply(action, player)
        out.append(state)
    return out


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_rollouts_reject_the_draws_below_rejects(name: str, players: int) -> None:
    rejected = 0
    for state in states_of(name, players, 80):
        if state.is_terminal:
            continue
        for rng in crafted(state):
            for first_mover in (False, True):
                player, action, after = reference_step(state, rng, not first_mover)
                expected = state.apply(action, player)
                reached, rng_after, moves = rollout_moves(state, rng, 1, first_mover=first_mover)
                assert moves == ((player, action),)
                assert (reached, rng_after) == (expected, after)
                assert rollout(state, rng, 1, first_mover=first_mover) == (expected, after, 1)
                rejected += after != rng.next64()[1].next64()[1]
    assert rejected  # some crafted draw was rejected at this game's nodes


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_rollout_seats_rejects_the_draws_below_rejects(name: str, players: int) -> None:
    n = players
    for state in states_of(name, players, 80):
        if state.is_terminal:
            continue
        for rng in crafted(state):
            if state.is_chance:
                seat_rngs = [Rng(p) for p in range(n)]
                action, after = clangames.sample_chance(state, rng)
                player, expected_seats = CHANCE, seat_rngs
                chance_rng, chance_after = rng, after
            else:
                player = state.to_move[0]
                seat_rngs = [rng if p == player else Rng(p) for p in range(n)]
                legal = state.legal_actions(player)
                j, after = rng.below(len(legal))
                action = legal[j]
                expected_seats = [after if p == player else Rng(p) for p in range(n)]
                chance_rng = chance_after = Rng(99)
            played = rollout_seats(state, chance_rng, seat_rngs, 1)
            assert played.moves == ((player, action),)
            assert played.state == state.apply(action, player)
            assert played.rng == chance_after
            assert played.seat_rngs == tuple(expected_seats)
