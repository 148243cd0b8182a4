"""A King's Kilt position the deal cannot reach is re-dealt uniformly (a mutation audit's gap).

A position built by hand (no one-per-clan deck cards, as ``tests/kings_kilt/helpers.py``
makes them) has no posterior under the rules' dealing: ``resample`` gives every family
deal consistent with the viewer's view the same weight (docs/architecture.md). The
seeded games the other resample tests use never reach such a state, so nothing checked
that the sampler tells the two apart (its weights for a reachable deal there are far
from uniform). Here the consistent families are few and listed by hand.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import clangames

from .helpers import FULL_BASE, load, mask, position
from .test_resample_exact import sampler_distribution


def _hand_built() -> tuple[clangames.State, list[int]]:
    """Two players, nothing else hidden from seat 0 but seat 1's family and hand (the
    rest of the cards out of the game): the hidden cards are Br, Bu, Do and two Ha, and
    seat 1 shows Bu, so its family is Bu and two of Br, Do, Ha."""
    game = load(2)
    state = position(
        game,
        FULL_BASE,
        families=[["Ml", "Mk", "Mb"], ["Br", "Bu", "Do"]],
        revealed=[[], ["Bu"]],
        hands=[["St"], ["Ha", "Ha"]],
        rest="removed",
    )
    families = [mask(game, ["Bu", *pair]) for pair in (["Br", "Do"], ["Br", "Ha"], ["Do", "Ha"])]
    return state, families


def test_every_consistent_family_has_the_same_weight() -> None:
    """The sampler's exact distribution: the three families, a third each, no deck cards."""
    state, families = _hand_built()
    assert state.from_deck == (0, 0)
    dist = sampler_distribution(state, 0)
    assert dist == {((0, f), (0, 0)): Fraction(1, 3) for f in families}


def test_re_deals_of_a_hand_built_position_are_uniform_and_keep_the_view() -> None:
    """Real re-deals: only those families, each about a third of the time, the hand the
    hidden cards left, and the viewer's view unchanged."""
    state, families = _hand_built()
    root = clangames.Rng(11)
    draws = 600
    tally: Counter[int] = Counter()
    for i in range(draws):
        other = state.resample(0, root.fork(i))
        assert other.observation(0) == state.observation(0)
        other.check_consistency()
        tally[other.families[1]] += 1
    assert set(tally) == set(families)
    for family in families:
        assert abs(tally[family] - draws / 3) < 5 * (draws * 2 / 9) ** 0.5, tally
