"""King's Kilt re-deals fit the exact posterior player by player (a mutation audit's gap).

The frequency tests of tests/kings_kilt/test_resample_posterior.py and
test_resample_exact.py compare whole deals with their exact distribution; with three or
four players a position has thousands of deals, each expected less than 5 times in a few
thousand draws, so the chi-square pools them into one cell and checks little more than
the support (a quick draw that always took the first deck split of the held clans passed
them). Here the same draws are compared in their marginals, each small: every other
player's deck cards and their third family card (a few dozen values at most), against
the quick draw's exact distribution for its tries and the closed-form posterior for
``resample`` itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from clangames.engine.rng import Rng
from clangames.kings_kilt.posterior import _Stream, family_key, hidden_pool, quick_deal

from .test_resample_exact import Dist, Outcome, _late_game, _outcome, chi_square_fails
from .test_resample_posterior import _quick_outcomes, _turn, posterior_by_formula

Projection = Callable[[Outcome], int]


def _projections(others: int) -> dict[str, Projection]:
    """Each other player's deck cards and third, by name."""
    out: dict[str, Projection] = {}
    for i in range(others):
        out[f"deck {i}"] = lambda o, i=i: o[i][0]
        out[f"third {i}"] = lambda o, i=i: o[i][1] & ~o[i][0]
    return out


def _misfits(counts: Counter[Outcome], dist: Dist, samples: int, others: int) -> list[str]:
    """The marginals in which ``counts`` do not fit ``dist``."""
    bad = []
    for name, project in _projections(others).items():
        marginal: dict[int, Fraction] = {}
        for outcome, prob in dist.items():
            key = project(outcome)
            marginal[key] = marginal.get(key, Fraction(0)) + prob
        seen: Counter[int] = Counter()
        for outcome, n in counts.items():
            seen[project(outcome)] += n
        why = chi_square_fails(seen, marginal, samples, errors=6, slack=12)
        if why is not None:
            bad.append(f"{name}: {why}")
    return bad


@pytest.mark.parametrize(
    ("players", "seed", "fraction"), [(3, 7, 0.4), (4, 9, 0.3), (3, 0, 0.9), (4, 1, 0.9)]
)
def test_the_quick_draws_fit_the_posterior_player_by_player(
    players: int, seed: int, fraction: float
) -> None:
    """4000 kept quick tries against the quick draw's exact distribution (which
    test_resample_posterior.py equates with the posterior), in each other player's deck
    cards and third (nobody else showing a family card, and others showing some)."""
    state, viewer = _turn(players, seed, fraction)
    quick = quick_deal(family_key(state, viewer, hidden_pool(state, viewer)))
    assert quick is not None
    dist = _quick_outcomes(quick, quick.distribution())
    counts: Counter[Outcome] = Counter()
    kept = 0
    stream_seed = 0
    while kept < 4000:
        deal = quick.draw(_Stream(stream_seed))
        stream_seed += 1
        if deal is not None:
            counts.update(_quick_outcomes(quick, {deal: Fraction(1)}).keys())
            kept += 1
    assert not _misfits(counts, dist, kept, players - 1)


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (4, 24)])
def test_re_deals_fit_the_posterior_player_by_player(players: int, seed: int) -> None:
    """3000 re-deals of a late-game position (``resample`` itself: quick tries, the
    tables where they fail, the identity cache of the last state)."""
    state, viewer = _late_game(players, seed)
    dist = posterior_by_formula(state, viewer)
    root = Rng(seed + 77)
    samples = 3000
    counts = Counter(_outcome(state.resample(viewer, root.fork(i)), viewer) for i in range(samples))
    assert not _misfits(counts, dist, samples, players - 1)
