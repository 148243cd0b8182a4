"""King's Kilt ``resample``: the sampler's own exact distribution, and its real re-deals.

``resample`` draws the other players' families from the tables of a dynamic programme
(``clangames.kings_kilt.posterior.FamilyPosterior``): one uniform number below the tables'
total, read as the deal whose interval it falls in, kept with a probability for the
thirds' draws, else drawn again. ``sampler_distribution`` computes exactly what that gives:
it walks the intervals (they must tile ``[0, total)``, one per deal) and weighs each deal
by its acceptance. tests/kings_kilt/test_resample_posterior.py compares that with the
rules' posterior; here the real re-deals are compared with it (chi-square), and the
pieces of the sampler are checked on their own.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt.posterior import (
    FamilyPosterior,
    _Stream,
    family_key,
    hidden_pool,
    posterior,
)

Outcome = tuple[tuple[int, int], ...]
"""Each other player's (deck part, family), in seat order, then (family deck, 0)."""
Dist = dict[Outcome, Fraction]


def _late_game(players: int, seed: int) -> tuple[KingsKiltState, int]:
    """A state near the end of a seeded random game, and its player to move."""
    game = clangames.load("kings_kilt", players=players)
    rng = Rng(seed)
    states: list[KingsKiltState] = []
    state, rng, moves = clangames.rollout_moves(game.initial_state(), rng)
    state = game.initial_state()
    for player, action in moves:
        assert isinstance(state, KingsKiltState)
        if player >= 0 and state.phase.name == "turn":
            states.append(state)
        state = state.apply(action, player)
    chosen = states[len(states) * 3 // 4]
    return chosen, chosen.to_move[0]


def _pool(s: KingsKiltState, viewer: int) -> tuple[int, ...]:
    """The hidden cards of ``viewer``'s view, by clan (during the family deal the member
    pool is public and the undealt family deck hidden)."""
    in_family_deal = s.phase.name == "deal_family"
    pool = [0] * len(s.game.clans) if in_family_deal else list(s.members.counts)
    for c in s.game.bits[s.family_deck]:
        pool[c] += 1
    for p in range(s.game.num_players):
        if p != viewer:
            pool = [a + b for a, b in zip(pool, s.hands[p].counts, strict=True)]
            for c in s.game.bits[s.families[p] & ~s.revealed[p]]:
                pool[c] += 1
    return tuple(pool)


def _outcome(s: KingsKiltState, viewer: int) -> Outcome:
    others = [p for p in range(s.game.num_players) if p != viewer]
    return (*((s.from_deck[p], s.families[p]) for p in others), (s.family_deck, 0))


def _posterior_of(s: KingsKiltState, viewer: int) -> FamilyPosterior:
    return posterior(family_key(s, viewer, hidden_pool(s, viewer)))


def sampler_distribution(s: KingsKiltState, viewer: int) -> Dist:
    """The exact distribution of the families ``resample`` deals, from its own tables."""
    post = _posterior_of(s, viewer)
    family_deal = s.phase.name == "deal_family"
    out: Dist = {}
    for deal, prob in post.deals():
        decks = post.decks(deal)
        families = post.families(deal)
        rest = post.rest(deal) if family_deal else 0
        key = (*((decks[p], families[p]) for p in post.others), (rest, 0))
        assert key not in out, "one deal, one interval"
        out[key] = prob
    return out


def chi_square_fails(
    counts: Counter[Any],
    dist: Mapping[Any, Fraction],
    samples: int,
    errors: float = 5,
    slack: float = 0,
) -> str | None:
    """Why ``counts`` (of ``samples`` draws) do not fit ``dist``, or None if they do:
    an outcome outside the support, or a chi-square statistic more than ``errors``
    standard errors (plus ``slack``) above its mean (outcomes expected fewer than 5 times
    are pooled)."""
    stray = set(counts) - set(dist)
    if stray:
        return f"outcomes the exact distribution never deals: {sorted(stray)[:3]}"
    statistic = 0.0
    cells = 0
    small_expected = 0.0
    small_seen = 0
    for outcome, prob in dist.items():
        expected = float(prob) * samples
        if expected < 5:
            small_expected += expected
            small_seen += counts[outcome]
            continue
        statistic += (counts[outcome] - expected) ** 2 / expected
        cells += 1
    if small_expected >= 5:
        statistic += (small_seen - small_expected) ** 2 / small_expected
        cells += 1
    df = max(cells - 1, 1)
    limit = df + errors * math.sqrt(2 * df) + slack
    return None if statistic <= limit else f"chi-square {statistic:.1f} > {limit:.1f} ({df} df)"


POSITIONS = [(2, 11), (3, 5), (4, 7), (4, 9), (4, 18), (4, 24)]
"""Late-game positions (players, seed) where many cards have been seen."""
SAMPLES = 6000


@pytest.mark.parametrize(("players", "seed"), POSITIONS)
def test_resample_matches_the_samplers_exact_distribution(players: int, seed: int) -> None:
    """Real re-deals (families and deck parts of every other player together) fit the
    distribution the tables say they have; the true deal is among the possible ones."""
    state, viewer = _late_game(players, seed)
    assert hidden_pool(state, viewer) == _pool(state, viewer)
    dist = sampler_distribution(state, viewer)
    assert sum(dist.values()) == 1
    assert dist[_outcome(state, viewer)] > 0
    root = Rng(seed * 1000 + players)
    counts = Counter(_outcome(state.resample(viewer, root.fork(i)), viewer) for i in range(SAMPLES))
    assert chi_square_fails(counts, dist, SAMPLES) is None


def _setup_state(players: int, phase: str, dealt: int) -> KingsKiltState:
    """The state of a seeded game when ``dealt`` cards of the setup step ``phase`` are out."""
    game = clangames.load("kings_kilt", players=players)
    _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(3))
    state = game.initial_state()
    for player, action in moves:
        assert isinstance(state, KingsKiltState)
        if state.phase.name == phase and state.dealt == dealt:
            return state
        state = state.apply(action, player)
    raise AssertionError(f"no {phase} state with {dealt} cards dealt")


@pytest.mark.parametrize(
    ("players", "phase", "dealt", "viewer"),
    [(4, "deal_family", 7, 0), (3, "deal_family", 4, 2), (2, "deal_third", 1, 1)],
)
def test_resample_during_the_deal_matches_the_exact_distribution(
    players: int, phase: str, dealt: int, viewer: int
) -> None:
    """During the family deal the undealt one-per-clan deck is re-dealt too: every split
    of it is equally likely."""
    state = _setup_state(players, phase, dealt)
    dist = sampler_distribution(state, viewer)
    assert dist[_outcome(state, viewer)] > 0
    if phase == "deal_family":
        assert set(dist.values()) == {Fraction(1, len(dist))}
    root = Rng(dealt * 100 + players)
    counts = Counter(_outcome(state.resample(viewer, root.fork(i)), viewer) for i in range(SAMPLES))
    assert chi_square_fails(counts, dist, SAMPLES) is None


@pytest.mark.parametrize(("players", "seed"), POSITIONS)
def test_the_quick_acceptance_is_the_rules_draw_by_draw(players: int, seed: int) -> None:
    """With one third each the sampler reads ``prod Z_j`` from collision counts kept in
    the deal; it equals the draw-by-draw product of the rules' third deal, on every deal."""
    state, viewer = _late_game(players, seed)
    post = _posterior_of(state, viewer)
    assert post.mode == "fast"
    checked = 0
    for deal, _ in post.deals():
        thirds = post._thirds(deal)
        assert all(len(t) == 1 for t in thirds)
        assert post._fast_odds(deal) == post._odds(deal, thirds)
        checked += 1
    assert checked == len(sampler_distribution(state, viewer))


def test_a_deal_is_kept_with_its_acceptance() -> None:
    """The sampler itself, not only its tables: drawing from the tables alone and keeping
    each deal with its acceptance gives the same deals as ``draw`` for the same stream."""
    state, viewer = _late_game(4, 9)
    post = _posterior_of(state, viewer)
    rejected = 0
    for seed in range(300):
        stream = _Stream(seed)
        kept = post.draw(stream)
        replay = _Stream(seed)
        while True:
            deal, _, _ = post.path(replay.below(post.total))
            if deal >> (post.lanes * post.width) == 0:
                break  # no collision: kept without a draw
            num, den = post._fast_odds(deal)
            if replay.below(den) < num:
                break
            rejected += 1
        assert deal == kept
        assert (replay.seed, replay.x, replay.m) == (stream.seed, stream.x, stream.m)
    assert rejected, "some deals on this position are drawn again"


def test_the_stream_draws_uniformly_below_large_bounds() -> None:
    """``_Stream.below`` for bounds far above a generator word: every residue class of a
    small modulus comes up as often as it should."""
    bound = 3 * 10**25 + 7
    stream = _Stream(12)
    draws = [stream.below(bound) for _ in range(3000)]
    assert all(0 <= d < bound for d in draws)
    tally = Counter(d * 10 // bound for d in draws)
    assert (
        chi_square_fails(
            Counter({((i, 0),): n for i, n in tally.items()}),
            {((i, 0),): Fraction(1, 10) for i in range(10)},
            3000,
        )
        is None
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_tables_depend_only_on_what_the_viewer_knows(players: int) -> None:
    """A re-dealt state has the same key (so the same tables) for the viewer as the
    state it came from, at every tenth state of a seeded game; the same stream gives the
    same re-deal."""
    game = clangames.load("kings_kilt", players=players)
    _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(41))
    state = game.initial_state()
    checked = 0
    for step, (player, action) in enumerate(moves):
        assert isinstance(state, KingsKiltState)
        if step % 5 == 0:
            for viewer in range(players):
                key = family_key(state, viewer, hidden_pool(state, viewer))
                other = state.resample(viewer, Rng(step))
                assert family_key(other, viewer, hidden_pool(other, viewer)) == key
                assert other.observation(viewer) == state.observation(viewer)
                other.check_consistency()
                assert state.resample(viewer, Rng(step)) == other
                checked += 1
        state = state.apply(action, player)
    assert checked > 20


def test_hands_are_a_uniform_deal_of_the_cards_left() -> None:
    """Given the families, each other player's hand is a uniform draw of the hidden cards
    left: on a position whose families the viewer knows almost entirely, each hand's
    count of each clan averages ``size * left_c / left`` (within 5 standard errors)."""
    state, viewer = _late_game(4, 18)
    root = Rng(5)
    samples = [state.resample(viewer, root.fork(i)) for i in range(2000)]
    by_families = Counter(s.families for s in samples)
    families, count = by_families.most_common(1)[0]
    group = [s for s in samples if s.families == families]
    assert count == len(group) >= 200
    left = list(hidden_pool(state, viewer))
    for p in range(4):
        if p != viewer:
            for c in state.game.bits[families[p] & ~state.revealed[p]]:
                left[c] -= 1
    total = sum(left)
    for p in range(4):
        size = len(state.hands[p])
        if p == viewer or not size:
            continue
        for c, copies in enumerate(left):
            mean = size * copies / total
            var = size * (copies / total) * (1 - copies / total) * (total - size) / (total - 1)
            seen = sum(s.hands[p].counts[c] for s in group) / count
            assert abs(seen - mean) <= 5 * math.sqrt(var / count) + 1e-9, (p, c, seen, mean)
