"""A King's Kilt clan whose every copy the viewer sees is nobody else's deck card (a
mutation audit's gap).

Late in a game every copy of a clan may be in sight of the viewer (the pyramid, the
discards, their own hand and family): no other player can then hold that clan's
one-per-clan card, and the quick draw's proposal must give such a clan no weight outside
the undealt rest. The positions of the other quick-draw tests all still had a hidden
copy of every clan, so nothing checked it; these turns of seeded games (found by
search) have a clan without a hidden copy, where others show family cards and where
they do not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from clangames.engine.rng import Rng
from clangames.kings_kilt.posterior import family_key, hidden_pool, quick_deal

from .test_resample_posterior import _quick_outcomes, _turn, posterior_by_formula

SEEN_OUT = [(2, 3, 0.72), (3, 4, 0.71), (2, 0, 0.72), (3, 0, 0.92)]
"""Turns (players, seed, how far into the game) where a clan outside the viewer's deck
cards has no hidden copy (the last two: others show family cards)."""


@pytest.mark.parametrize(("players", "seed", "fraction"), SEEN_OUT)
def test_the_quick_draw_is_the_posterior_with_a_clan_seen_out(
    players: int, seed: int, fraction: float
) -> None:
    state, viewer = _turn(players, seed, fraction)
    pool = hidden_pool(state, viewer)
    quick = quick_deal(family_key(state, viewer, pool))
    assert quick is not None
    gone = [c for c in quick.held if not quick.pool[c]]
    assert gone, "a clan the viewer does not hold has no hidden copy"
    dist = _quick_outcomes(quick, quick.distribution())
    assert dist == posterior_by_formula(state, viewer)
    for outcome, prob in dist.items():
        assert prob > 0
        for deck, _ in outcome[:-1]:
            assert not any(deck >> c & 1 for c in gone)
    for i in range(40):
        other = state.resample(viewer, Rng(i))
        assert other.observation(viewer) == state.observation(viewer)
        other.check_consistency()
        assert all(other.members.counts[c] >= 0 for c in gone)
        assert dist.get(
            (
                *((other.from_deck[p], other.families[p]) for p in quick.others),
                (0, 0),
            ),
            Fraction(0),
        )
