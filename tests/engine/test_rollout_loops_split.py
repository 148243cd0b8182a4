"""The rollout loops' generator held in 32-bit halves (what the compiled build runs) draws
exactly what :meth:`Rng.below` draws, and the loops play the same games with it.

``below_split`` is checked against ``Rng.below`` draw by draw, over a million draws of
bounds of every size it handles on the halves and of the bounds it hands on (2**31 and
more, above 2**64). The loops are run both ways on seeded games of every game: in the pure
build by switching the module's ``SPLIT`` (the compiled build reads its own ``SPLIT``,
true, and the other rollout tests compare it with the step-by-step API).
"""

from __future__ import annotations

import pytest

import clangames
from clangames import Rng
from clangames.engine import rollout_loops
from clangames.engine.rollout import rollout_moves, rollout_seats
from clangames.engine.rollout_loops import below_split

BOUNDS = (1, 2, 3, 5, 6, 7, 10, 13, 36, 100, 216, 1000, 7776, 65535, 65536, 65537)
"""Action counts and chance totals (dice) the games meet, around the limits' cache."""
WIDE = (
    (1 << 31) - 1,  # the largest bound drawn on the halves
    1 << 31,
    (1 << 32) + 15,
    (1 << 63) + 7,
    1 << 64,
    6**25,  # more than one 64-bit word: below_wide
)


def _halves(rng: Rng) -> tuple[int, int]:
    return rng.state >> 32, rng.state & 0xFFFFFFFF


def _draws(rng: Rng, n: int, count: int) -> None:
    sh, sl = _halves(rng)
    for _ in range(count):
        expected, rng = rng.below(n)
        z, sh, sl = below_split(sh, sl, n)
        assert (z, (sh << 32) | sl) == (expected, rng.state), (n, rng)


def test_a_million_draws_on_the_halves_are_rng_below_s() -> None:
    rng = Rng(2026)
    for k, n in enumerate(BOUNDS):
        _draws(rng.fork(k), n, 1_000_000 // len(BOUNDS))


def _unmixed(z: int) -> int:
    """The generator state whose draw is ``z`` (SplitMix64's output function inverted),
    before its step."""
    mask = (1 << 64) - 1
    z ^= z >> 31 ^ z >> 62
    z = z * pow(0x94D049BB133111EB, -1, 1 << 64) & mask
    z ^= z >> 27 ^ z >> 54
    z = z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask
    z ^= z >> 30 ^ z >> 60
    return (z - 0x9E3779B97F4A7C15) & mask


def test_draws_at_the_top_are_rejected_as_rng_below_rejects_them() -> None:
    # A draw is rejected only at or above 2**64 - 2**64 % n: for these bounds once in
    # 2**33 or less, so the states are made to draw there (the top word, the limit itself,
    # just below it).
    for n in (3, 7, 1000, 65537, (1 << 31) - 1):
        limit = (1 << 64) - (1 << 64) % n
        for z in ((1 << 64) - 1, limit, limit - 1, limit - 2**32, (1 << 64) - 2**32):
            state = _unmixed(z)
            assert Rng(state).next64()[0] == z
            _draws(Rng(state), n, 3)
        assert Rng(_unmixed(limit)).below(n)[1] != Rng(_unmixed(limit)).next64()[1]


@pytest.mark.parametrize("n", WIDE)
def test_large_bounds_are_handed_to_the_whole_state_draw(n: int) -> None:
    _draws(Rng(n % 1000), n, 2_000)


def test_edge_states_carry_between_the_halves() -> None:
    # States whose low half overflows when the generator steps, and the extremes.
    for state in (0, 0xFFFFFFFF, 0x80B583EAFFFFFFFF, (1 << 64) - 1, 0xFFFFFFFF00000000):
        for n in (1, 2, 7, 65537, (1 << 31) - 1):
            _draws(Rng(state), n, 50)


def test_a_bound_below_one_is_refused_as_rng_below_refuses_it() -> None:
    with pytest.raises(ValueError, match="n >= 1"):
        Rng(1).below(0)
    with pytest.raises(ValueError, match="n >= 1"):
        below_split(0, 1, 0)


CONFIGS = [
    (spec.name, n)
    for spec in clangames.games()
    for n in range(spec.min_players, spec.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_the_loops_play_the_same_games_on_the_halves(
    name: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = clangames.load(name, players=players)

    def play() -> list[object]:
        out: list[object] = []
        for seed in range(3):
            rng = Rng(seed)
            for first_mover in (False, True):
                state, nxt, moves = rollout_moves(
                    game.initial_state(), rng, first_mover=first_mover
                )
                out.append((state.to_json(), nxt, moves))
            cut, nxt, moves = rollout_moves(game.initial_state(), rng, 25)
            out.append((cut.to_json(), nxt, moves))
            seats = [rng.fork(i + 1) for i in range(players)]
            played = rollout_seats(game.initial_state(), rng, seats)
            out.append((played.state.to_json(), played.rng, played.seat_rngs, played.moves))
        return out

    monkeypatch.setattr(rollout_loops, "SPLIT", False)
    whole = play()
    monkeypatch.setattr(rollout_loops, "SPLIT", True)
    halves = play()
    assert halves == whole


def test_the_compiled_chance_draw_picks_what_bisecting_the_cumulative_weights_picks() -> None:
    # Compiled, a chance node's outcome is found by walking the weights instead of
    # bisecting a list of their running sums: the same outcome for every draw.
    from bisect import bisect_right
    from itertools import accumulate

    from clangames.engine.rollout_loops import _outcome, _total

    for weights in (
        (("a", 1),),
        (("a", 1), ("b", 1)),
        (("a", 3), ("b", 1), ("c", 5), ("d", 2)),
        tuple((i, 6**20 + i) for i in range(4)),  # totals past 64 bits
    ):
        cumulative = list(accumulate(w for _, w in weights))
        assert _total(weights) == cumulative[-1]
        draws = range(cumulative[-1]) if cumulative[-1] < 100 else cumulative[:-1]
        for z in (*draws, *(c - 1 for c in cumulative)):
            assert _outcome(weights, z) == weights[bisect_right(cumulative, z)][0]
    with pytest.raises(ValueError, match="past the chance outcomes' total weight 4"):
        _outcome((("a", 3), ("b", 1)), 4)
