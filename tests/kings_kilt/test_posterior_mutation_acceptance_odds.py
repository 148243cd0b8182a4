"""King's Kilt re-deals keep a drawn deal with exactly its odds (a mutation audit's gap).

Both of ``resample``'s draws (the tables' :class:`FamilyPosterior` and the quick
:class:`QuickDeal`) propose a deal and keep it with probability ``num / den``; the kept
deals have the posterior's distribution only if (1) the test keeps exactly ``num`` of
the ``den`` values its uniform draw can take, and (2) ``num / den`` is a probability for
every deal. The exact-distribution tests multiply by ``num / den`` in Fractions and
normalise, so they see neither an off-by-one in the keep test (one value in ``den``) nor
odds above 1 (which the real draw truncates to 1). Here (1) is checked with a scripted
stream at the boundary value, and (2) on every deal the proposals can give.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt.posterior import (
    FamilyPosterior,
    QuickDeal,
    _Stream,
    family_key,
    hidden_pool,
    posterior,
    quick_deal,
)

from .test_resample_exact import POSITIONS, _late_game
from .test_resample_posterior import QUICK_POSITIONS, SHOWN_POSITIONS, _big_family_game, _turn

SPIES_ON_THE_SAMPLER = pytest.mark.skipif(
    "clangames.kings_kilt.posterior" in clangames.compiled_modules(),
    reason="the compiled posterior's classes take no interpreted subclass (a scripted"
    " stream) and its compiled callers never see a method patched on the class",
)
"""For a test that scripts the sampler's random numbers or records its odds: it can only
look inside the interpreted posterior (the pure build, which CI runs it on)."""


class _Scripted(_Stream):
    """A stream whose draws are given in advance (each checked against its bound)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)
        self.asked: list[int] = []

    def below(self, n: int) -> int:
        value = self.values.pop(0)
        assert 0 <= value < n
        self.asked.append(n)
        return value


class _Recording(_Stream):
    """A real stream that remembers every draw (bound, value)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls: list[tuple[int, int]] = []

    def below(self, n: int) -> int:
        value = super().below(n)
        self.calls.append((n, value))
        return value


def _quick(state: KingsKiltState, viewer: int) -> QuickDeal:
    quick = quick_deal(family_key(state, viewer, hidden_pool(state, viewer)))
    assert quick is not None
    return quick


def _every_deal(post: FamilyPosterior) -> list[tuple[int, int]]:
    """Every deal of the tables with the first number that falls on it."""
    out = []
    u = 0
    while u < post.total:
        deal, low, high = post.path(u)
        out.append((deal, low))
        u = high
    return out


@SPIES_ON_THE_SAMPLER
def test_the_tables_keep_a_deal_for_exactly_num_of_den_values() -> None:
    """A deal whose thirds collide is kept when the acceptance draw is ``num - 1`` and
    drawn again when it is ``num`` (here: the same deal again, then kept)."""
    state, viewer = _late_game(4, 9)
    post = posterior(family_key(state, viewer, hidden_pool(state, viewer)))
    assert post.mode == "fast"
    hit = None
    for deal, u in _every_deal(post):
        if deal >> (post.lanes * post.width):
            num, den = post._fast_odds(deal)
            if num < den:
                hit = (deal, u, num, den)
                break
    assert hit is not None
    deal, u, num, den = hit
    kept = _Scripted([u, num - 1])
    assert post.draw(kept) == deal
    assert kept.asked == [post.total, den]
    again = _Scripted([u, num, u, num - 1])
    assert post.draw(again) == deal
    assert again.asked == [post.total, den, post.total, den]


def _record_odds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The (numerator, denominator) of every quick try's odds from now on, in order."""
    odds: list[tuple[int, int]] = []
    real_odds = QuickDeal._odds

    def recording(self: QuickDeal, *args: list[int]) -> tuple[int, int]:
        got = real_odds(self, *args)
        odds.append(got)
        return got

    monkeypatch.setattr(QuickDeal, "_odds", recording)
    return odds


@SPIES_ON_THE_SAMPLER
@pytest.mark.parametrize(("players", "seed", "fraction"), [(3, 7, 0.4), (4, 1, 0.9)])
def test_the_quick_draw_keeps_a_try_for_exactly_num_of_den_values(
    players: int, seed: int, fraction: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quick try whose odds are below 1, replayed draw for draw: its last draw (the
    acceptance, below ``den``) keeps it at ``num - 1`` and refuses it at ``num``."""
    state, viewer = _turn(players, seed, fraction)
    quick = _quick(state, viewer)
    odds = _record_odds(monkeypatch)
    for stream_seed in range(500):
        odds.clear()
        stream = _Recording(stream_seed)
        quick.draw(stream)
        if odds and odds[-1][0] < odds[-1][1]:
            break
    else:
        raise AssertionError("no try with odds below 1")
    num, den = odds[-1]
    values = [value for _, value in stream.calls]
    assert stream.calls[-1][0] == den, "the acceptance draw is the last, below den"
    kept = _Scripted([*values[:-1], num - 1])
    assert quick.draw(kept) is not None
    assert kept.asked == [n for n, _ in stream.calls]
    assert quick.draw(_Scripted([*values[:-1], num])) is None


@SPIES_ON_THE_SAMPLER
@pytest.mark.parametrize(("players", "seed", "fraction"), QUICK_POSITIONS + SHOWN_POSITIONS)
def test_the_quick_draws_odds_are_probabilities(
    players: int, seed: int, fraction: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On every deal the quick proposal can give, ``0 < num <= den`` (its bounds bound)."""
    state, viewer = _turn(players, seed, fraction)
    quick = _quick(state, viewer)
    odds = _record_odds(monkeypatch)
    quick.distribution()
    assert odds
    bad = [(num, den) for num, den in odds if not 0 < num <= den]
    assert not bad, bad[:3]


def _tables_positions() -> list[tuple[KingsKiltState, int]]:
    out = [_late_game(players, seed) for players, seed in POSITIONS[:3]]
    game = _big_family_game()
    _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(8))
    state = game.initial_state()
    for player, action in moves:
        assert isinstance(state, KingsKiltState)
        if state.phase.name == "deal_influence" and state.dealt == 2:
            out.append((state, 0))
            break
        state = state.apply(action, player)
    return out


def test_the_tables_acceptance_is_a_probability() -> None:
    """On every deal of the tables (one third each, and two each: averaged over orders),
    the acceptance is in ``(0, 1]``; each order's odds too."""
    modes = set()
    for state, viewer in _tables_positions():
        post = posterior(family_key(state, viewer, hidden_pool(state, viewer)))
        modes.add(post.mode)
        for deal, _ in _every_deal(post):
            assert 0 < post.acceptance(deal) <= 1
            if post.mode == "orders":
                num, den = post._odds(deal, post._thirds(deal))
                assert 0 < num <= den
                assert Fraction(num, den) <= 1
    assert modes == {"fast", "orders"}
