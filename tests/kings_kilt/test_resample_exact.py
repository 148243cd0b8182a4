"""King's Kilt ``resample`` against the exact distribution of its re-deal.

The re-deal is a depth-first search: each choice (how many of a player's deck cards are
face up, which ones, which hidden clans come from the deck, which complete the family)
tries candidates in a random order, weighted by hidden copies, and keeps the first one
under which the rest of the deal can still be completed. So a choice is the first
*completable* candidate of a random order: a candidate drawn with probability its weight
over the weight of all completable candidates (a combination: element by element, each
among those that extend the ones drawn to a completable combination). The enumerator
below computes that distribution exactly, with exact completability (no sampling, no
search order), for small late-game positions where dead ends are common; the sampler must
match it on joint outcomes (every other player's family and deck part together).

A sampler that restarts on a dead end instead of searching on is biased there; the last
test shows the check here would catch it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState
from clangames.kings_kilt.observation import _FamilyDeal

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
    """The hidden cards of ``viewer``'s view, by clan (as ``resample`` pools them: during
    the family deal the member pool is public and the undealt family deck hidden)."""
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


def _combinations(
    elements: list[int],
    weights: dict[int, int],
    size: int,
    completable: Callable[[int], bool],
    lookahead: bool = True,
) -> dict[int, Fraction]:
    """The first completable ``size``-combination (as a clan mask) of a random order
    weighted by ``weights``, exactly: element by element, each drawn among those that
    extend the mask so far to a completable combination."""
    out: dict[int, Fraction] = {}

    def extends(mask: int, left: int, start: list[int]) -> bool:
        if not lookahead:
            return True
        if left == 0:
            return completable(mask)
        return any(extends(mask | 1 << e, left - 1, start[i + 1 :]) for i, e in enumerate(start))

    def walk(mask: int, left: int, prob: Fraction) -> None:
        if left == 0:
            out[mask] = out.get(mask, Fraction(0)) + prob
            return
        rest = [e for e in elements if not mask >> e & 1]
        ok = [e for e in rest if extends(mask | 1 << e, left - 1, [f for f in rest if f != e])]
        total = sum(weights[e] for e in ok)
        for e in ok:
            walk(mask | 1 << e, left - 1, prob * Fraction(weights[e], total))

    if not lookahead and size > len(elements):
        return out

    walk(0, size, Fraction(1))
    return out


def exact_distribution(s: KingsKiltState, viewer: int, lookahead: bool = True) -> Dist:
    """The exact distribution of the families (and undealt family deck) ``resample``
    deals to the other players of ``s``, as seen by ``viewer``. Without ``lookahead``
    every candidate counts as completable: the deals of a sampler that draws each choice
    blindly and starts again on a dead end (the probabilities are then normalised)."""
    k = len(s.game.clans)
    others = tuple(p for p in range(s.game.num_players) if p != viewer)

    @cache
    def deal(i: int, pool: tuple[int, ...], used: int) -> tuple[tuple[Outcome, Fraction], ...]:
        if i == len(others):
            options = [c for c in range(k) if pool[c] and not used >> c & 1]
            size = s.family_deck.bit_count()
            if size > len(options):
                return ()
            decks = _combinations(
                options, {c: pool[c] for c in options}, size, lambda m: True, lookahead
            )
            return tuple((((mask, 0),), prob) for mask, prob in decks.items())
        p = others[i]
        shown = s.revealed[p]
        hidden = (s.families[p] & ~shown).bit_count()
        from_deck = s.from_deck[p].bit_count()
        free = [c for c in range(k) if shown >> c & 1 and not used >> c & 1]

        def after_third(deck_part: int, third: int, pool2: tuple[int, ...]) -> Dist:
            rest = deal(i + 1, pool2, used | deck_part)
            mine = (deck_part, shown | deck_part | third)
            return {(mine, *outcome): prob for outcome, prob in rest}

        def taken(pool0: tuple[int, ...], mask: int) -> tuple[int, ...]:
            return tuple(n - (mask >> c & 1) for c, n in enumerate(pool0))

        def after_new(x: int, shown_deck: int, new_deck: int) -> Dist:
            deck_part = shown_deck | new_deck
            pool1 = taken(pool, new_deck)
            size = hidden - (from_deck - x)
            options = [c for c in range(k) if pool1[c] and not (shown | deck_part) >> c & 1]
            if size > len(options):
                return {}
            thirds = _combinations(
                options,
                {c: pool1[c] for c in options},
                size,
                lambda m: bool(after_third(deck_part, m, taken(pool1, m))),
                lookahead,
            )
            out: Dist = {}
            for third, prob in thirds.items():
                for outcome, q in after_third(deck_part, third, taken(pool1, third)).items():
                    out[outcome] = out.get(outcome, Fraction(0)) + prob * q
            return out

        def after_subset(x: int, shown_deck: int) -> Dist:
            size = from_deck - x
            options = [c for c in range(k) if pool[c] and not (shown | used) >> c & 1]
            if size > len(options):
                return {}
            news = _combinations(
                options,
                {c: pool[c] for c in options},
                size,
                lambda m: bool(after_new(x, shown_deck, m)),
                lookahead,
            )
            out: Dist = {}
            for new_deck, prob in news.items():
                for outcome, q in after_new(x, shown_deck, new_deck).items():
                    out[outcome] = out.get(outcome, Fraction(0)) + prob * q
            return out

        def after_x(x: int) -> Dist:
            if x > len(free):
                return {}
            subsets = _combinations(
                free, dict.fromkeys(free, 1), x, lambda m: bool(after_subset(x, m)), lookahead
            )
            out: Dist = {}
            for subset, prob in subsets.items():
                for outcome, q in after_subset(x, subset).items():
                    out[outcome] = out.get(outcome, Fraction(0)) + prob * q
            return out

        low = max(0, from_deck - hidden)
        high = min(from_deck, shown.bit_count())
        branches = [after_x(x) for x in range(low, high + 1)]
        if lookahead:
            branches = [d for d in branches if d]
        total: Dist = {}
        for branch in branches:
            for outcome, q in branch.items():
                total[outcome] = total.get(outcome, Fraction(0)) + q / len(branches)
        return tuple(total.items())

    dist = dict(deal(0, _pool(s, viewer), s.from_deck[viewer]))
    mass = sum(dist.values())
    return {outcome: prob / mass for outcome, prob in dist.items()}


def _outcome(s: KingsKiltState, viewer: int) -> Outcome:
    others = [p for p in range(s.game.num_players) if p != viewer]
    return (*((s.from_deck[p], s.families[p]) for p in others), (s.family_deck, 0))


def chi_square_fails(counts: Counter[Outcome], dist: Dist, samples: int) -> str | None:
    """Why ``counts`` (of ``samples`` draws) do not fit ``dist``, or None if they do:
    an outcome outside the support, or a chi-square statistic more than 5 standard
    errors above its mean (outcomes expected fewer than 5 times are pooled)."""
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
    limit = df + 5 * math.sqrt(2 * df)
    return None if statistic <= limit else f"chi-square {statistic:.1f} > {limit:.1f} ({df} df)"


POSITIONS = [(2, 11), (3, 5), (4, 7), (4, 9), (4, 18), (4, 24)]
SAMPLES = 6000


@pytest.mark.parametrize(("players", "seed"), POSITIONS)
def test_resample_matches_the_exact_distribution(players: int, seed: int) -> None:
    state, viewer = _late_game(players, seed)
    dist = exact_distribution(state, viewer)
    assert dist and sum(dist.values()) == 1
    # The true deal is always a possible re-deal.
    assert dist[_outcome(state, viewer)] > 0
    root = Rng(seed * 1000 + players)
    counts = Counter(_outcome(state.resample(viewer, root.fork(i)), viewer) for i in range(SAMPLES))
    assert chi_square_fails(counts, dist, SAMPLES) is None


@pytest.mark.parametrize(
    ("players", "seed", "dead_ends_expected"),
    [(2, 11, False), (3, 5, False), (4, 16, True), (4, 18, True), (4, 24, True), (4, 59, True)],
)
def test_the_first_path_shortcut_is_the_search_itself(
    players: int, seed: int, dead_ends_expected: bool
) -> None:
    """``deal`` (the first path, the search on a dead end) gives the search's own result
    for every stream, dead ends included: same families, same pool left, same stream."""
    state, viewer = _late_game(players, seed)
    others = [p for p in range(players) if p != viewer]
    pool = list(_pool(state, viewer))
    dead_ends = 0
    for stream in range(400):
        fast = _FamilyDeal(state, list(pool), stream)
        search = _FamilyDeal(state, list(pool), stream)
        probe = _FamilyDeal(state, list(pool), stream)
        assert fast.deal(others, state.from_deck[viewer])
        assert search.solve(others, state.from_deck[viewer])
        dead_ends += not probe.first_path(others, state.from_deck[viewer])
        assert fast.plan == search.plan
        assert (fast.deck, fast.pool, fast.seed, fast.x, fast.m) == (
            search.deck,
            search.pool,
            search.seed,
            search.x,
            search.m,
        )
    if dead_ends_expected:
        assert dead_ends, "this position should send some streams down the search"


@pytest.mark.parametrize(("players", "seed"), [(4, 9)])
def test_the_check_catches_a_sampler_that_restarts_on_dead_ends(players: int, seed: int) -> None:
    """Drawing each choice blindly and starting again on a dead end deals a different
    distribution on these positions: at this sample size the chi-square statistic it
    would give is expected (its mean: degrees of freedom plus the noncentrality) to be
    well above the limit the check allows."""
    state, viewer = _late_game(players, seed)
    exact = exact_distribution(state, viewer)
    restarting = exact_distribution(state, viewer, lookahead=False)
    assert set(restarting) == set(exact)
    noncentrality = SAMPLES * sum(float((restarting[o] - p) ** 2 / p) for o, p in exact.items())
    df = len(exact) - 1
    assert df + noncentrality > 2 * (df + 5 * math.sqrt(2 * df))


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
    """During the family deal the undealt one-per-clan deck is re-dealt too."""
    state = _setup_state(players, phase, dealt)
    dist = exact_distribution(state, viewer)
    assert dist[_outcome(state, viewer)] > 0
    root = Rng(dealt * 100 + players)
    counts = Counter(_outcome(state.resample(viewer, root.fork(i)), viewer) for i in range(SAMPLES))
    assert chi_square_fails(counts, dist, SAMPLES) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shortcut_is_the_search_on_every_state_of_seeded_games(players: int) -> None:
    """Every state of two seeded games (setup included), every seat as the viewer, a few
    streams each: the shortcut and the search agree."""
    game = clangames.load("kings_kilt", players=players)
    checked = 0
    for seed in (8, 9):
        _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(seed))
        state = game.initial_state()
        for step, (player, action) in enumerate(moves):
            assert isinstance(state, KingsKiltState)
            if step % 3 == 0:
                for viewer in range(players):
                    others = [p for p in range(players) if p != viewer]
                    pool = list(_pool(state, viewer))
                    for stream in range(3):
                        fast = _FamilyDeal(state, list(pool), stream)
                        search = _FamilyDeal(state, list(pool), stream)
                        assert fast.deal(others, state.from_deck[viewer])
                        assert search.solve(others, state.from_deck[viewer])
                        assert (fast.plan, fast.deck, fast.pool, fast.seed, fast.x) == (
                            search.plan,
                            search.deck,
                            search.pool,
                            search.seed,
                            search.x,
                        )
                        checked += 1
            state = state.apply(action, player)
    assert checked > 100
