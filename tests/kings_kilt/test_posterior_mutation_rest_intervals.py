"""The quick draw's undealt rest: each rest owns exactly its weight of numbers (a
mutation audit's gap).

Where nobody else shows a family card, King's Kilt's quick draw picks the clans whose
one-per-clan card was left undealt with one number below ``ways[0][r]``, clan by clan
(the clan stays with a player for the first ``beta * ways`` numbers, else goes to the
rest). Every rest must own one interval of numbers, as long as the product of its
clans' factors. An off-by-one at an interval's end moves one number in ``ways[0][r]``
(astronomically many) to a neighbour: no frequency test or digest of seeded re-deals
sees it. Here every rest's first and last number are read back exactly.
"""

from __future__ import annotations

import itertools

import pytest

from clangames.kings_kilt.posterior import QuickDeal, _Stream, family_key, hidden_pool, quick_deal

from .test_posterior_mutation_acceptance_odds import SPIES_ON_THE_SAMPLER
from .test_resample_posterior import _turn


class _Scripted(_Stream):
    """A stream whose first draw is given (checked against its bound); then zeros."""

    def __init__(self, first: int) -> None:
        super().__init__(0)
        self.values = [first]

    def below(self, n: int) -> int:
        value = self.values.pop(0) if self.values else 0
        assert 0 <= value < n
        return value


@SPIES_ON_THE_SAMPLER
@pytest.mark.parametrize(("players", "seed", "fraction"), [(2, 11, 0.2), (3, 7, 0.4), (3, 5, 0.1)])
def test_every_rest_owns_an_interval_as_long_as_its_weight(
    players: int, seed: int, fraction: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, viewer = _turn(players, seed, fraction)
    quick = quick_deal(family_key(state, viewer, hidden_pool(state, viewer)))
    assert quick is not None and not quick.shown and quick.rest_need
    # Read the rest and deck split the proposal hands on, not the thirds after them.
    monkeypatch.setattr(
        QuickDeal, "_finish", lambda self, stream, decks, rest: (rest, sorted(decks))
    )
    held = quick.held
    rests = sorted(
        itertools.combinations(held, quick.rest_need),
        key=lambda chosen: tuple(c in chosen for c in held),
    )
    low = 0
    owners = 0
    for chosen in rests:
        weight = 1
        for j, c in enumerate(held):
            weight *= quick.rho[j] if c in chosen else quick.beta[j]
        if not weight:
            continue
        rest = sum(1 << c for c in chosen)
        for u in (low, low + weight - 1):
            got_rest, decks = quick.draw(_Scripted(u))  # type: ignore[misc]
            assert got_rest == rest, (u, chosen)
            holders = sum(1 << c for c in held) & ~rest
            assert sum(decks) == holders and all(d.bit_count() == 2 for d in decks)
        low += weight
        owners += 1
    assert low == quick.ways[0][quick.rest_need]
    assert owners > 1
