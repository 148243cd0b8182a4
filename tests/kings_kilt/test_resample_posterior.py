"""Is King's Kilt's ``resample`` the exact posterior of the deal? (Issue 11 follow-up.)

The posterior a re-deal should sample: every deal of the cards the viewer cannot see that
is consistent with their observation, with its probability under the rules' dealing. On
setup positions that is computed here by brute force from the rules themselves: every
path of the game's own chance nodes from the initial state, with its exact probability
(``chance_outcomes``), kept when it ends at a state the viewer cannot tell from the
position. ``posterior_by_formula`` computes the same posterior in closed form for any
position (late games included, where no brute force over the play is possible); the
first tests check the formula against the brute force.

The current re-deal (a depth-first search that keeps the first completable candidate of
orders weighted by hidden copies) does not have this distribution: its choices ignore
how a family changes the chance of the rest of the deal (a third card is drawn among the
clans its player does not hold, so its chance depends on the deck cards; the cards seen
since depend on how many of each clan were left among the members). The last tests pin
the difference exactly, on setup positions and late-game positions alike.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

import clangames
from clangames.engine.rng import Rng
from clangames.kings_kilt import KingsKiltState

from .test_resample_exact import (
    Dist,
    Outcome,
    _late_game,
    _outcome,
    _pool,
    chi_square_fails,
    exact_distribution,
)


def _viewer_fits(s: KingsKiltState, target: KingsKiltState, viewer: int) -> bool:
    """Whether the deal so far can still end at ``viewer``'s view of ``target``."""
    return (
        s.families[viewer] & ~target.families[viewer] == 0
        and s.from_deck[viewer] & ~target.from_deck[viewer] == 0
        and all(
            a <= b for a, b in zip(s.hands[viewer].counts, target.hands[viewer].counts, strict=True)
        )
    )


def posterior_by_brute_force(target: KingsKiltState, viewer: int) -> Dist:
    """The exact posterior of the other players' families (and the undealt family deck)
    at a setup position, from every path of the rules' chance nodes."""
    game = target.game
    seen = target.observation(viewer)
    mass: dict[Outcome, Fraction] = {}

    def walk(s: KingsKiltState, prob: Fraction) -> None:
        if s.phase.name == target.phase.name and s.dealt == target.dealt:
            if s.observation(viewer) == seen:
                key = _outcome(s, viewer)
                mass[key] = mass.get(key, Fraction(0)) + prob
            return
        for action, p in s.chance_outcomes():
            nxt = s.apply(action)
            assert isinstance(nxt, KingsKiltState)
            if _viewer_fits(nxt, target, viewer):
                walk(nxt, prob * p)

    start = game.initial_state()
    assert isinstance(start, KingsKiltState)
    walk(start, Fraction(1))
    total = sum(mass.values())
    return {outcome: p / total for outcome, p in mass.items()}


def posterior_by_formula(s: KingsKiltState, viewer: int) -> Dist:
    """The same posterior in closed form, for any position.

    The one-per-clan deck is dealt in a uniform order, so every split of it is equally
    likely. Each "third" family card is drawn among the Clan Members of the clans its
    player does not hold, weighted by copies: probability ``m_t / Z`` in dealing order
    (seat 0 first). Every later card off the members (hands, the pile) is a uniform draw,
    so the cards of each clan seen since have probability proportional to
    ``m_c! / Q_c!``: ``m_c`` the clan's members after the thirds, ``Q_c`` its copies
    still hidden in hands and pile (the hidden hands are then a uniform deal of those)."""
    game = s.game
    bits = game.bits
    n = game.num_players
    k = len(game.clans)
    everything = (1 << k) - 1
    in_family_deal = s.phase.name == "deal_family"
    deck_sizes = [d.bit_count() for d in s.from_deck]
    third_counts = [f.bit_count() - d for f, d in zip(s.families, deck_sizes, strict=True)]
    order = [j % n for j in range(sum(third_counts))]
    base = game.initial_state().members.counts
    pool = list(_pool(s, viewer))
    out: Dist = {}

    def weight(fams: list[int], decks: list[int], used: int, left: list[int]) -> Fraction:
        if in_family_deal:
            return Fraction(1)
        members = [b + (used >> c & 1 ^ 1) for c, b in enumerate(base)]
        thirds = [bits[fams[p] & ~decks[p]] for p in range(n)]
        total = Fraction(0)
        for perm in itertools.product(*map(itertools.permutations, thirds)):
            m = list(members)
            held = list(decks)
            nth = [0] * n
            w = Fraction(1)
            for p in order:
                t = perm[p][nth[p]]
                nth[p] += 1
                w *= Fraction(m[t], sum(m) - sum(m[c] for c in bits[held[p]]))
                m[t] -= 1
                held[p] |= 1 << t
            for c in range(k):
                if m[c] < left[c]:
                    return Fraction(0)
                w *= Fraction(math.factorial(m[c]), math.factorial(left[c]))
            total += w
        return total

    def place(i: int, used: int, fams: list[int], decks: list[int], left: list[int]) -> None:
        if i == n:
            rest = everything & ~used if in_family_deal else 0
            if rest.bit_count() != s.family_deck.bit_count():
                return
            if any(not left[c] for c in bits[rest]):
                return
            after = [c - (rest >> j & 1) for j, c in enumerate(left)]
            w = weight(fams, decks, used, after)
            if w:
                others = tuple((decks[p], fams[p]) for p in range(n) if p != viewer)
                key = (*others, (rest, 0))
                out[key] = out.get(key, Fraction(0)) + w
            return
        if i == viewer:
            place(i + 1, used, fams, decks, left)
            return
        shown = s.revealed[i]
        for deck in itertools.combinations(bits[everything & ~used], deck_sizes[i]):
            deck_mask = sum(1 << c for c in deck)
            must = shown & ~deck_mask
            extra = third_counts[i] - must.bit_count()
            if extra < 0:
                continue
            for more in itertools.combinations(bits[everything & ~deck_mask & ~shown], extra):
                family = deck_mask | must | sum(1 << c for c in more)
                hidden = bits[family & ~shown]
                if any(not left[c] for c in hidden):
                    continue
                after = [c - ((family & ~shown) >> j & 1) for j, c in enumerate(left)]
                place(
                    i + 1,
                    used | deck_mask,
                    [*fams[:i], family, *fams[i + 1 :]],
                    [*decks[:i], deck_mask, *decks[i + 1 :]],
                    after,
                )

    place(0, s.from_deck[viewer], list(s.families), list(s.from_deck), pool)
    total = sum(out.values())
    return {outcome: p / total for outcome, p in out.items()}


def _setup_position(players: int, phase: str, dealt: int, seed: int) -> KingsKiltState:
    game = clangames.load("kings_kilt", players=players)
    _, _, moves = clangames.rollout_moves(game.initial_state(), Rng(seed))
    state = game.initial_state()
    for player, action in moves:
        assert isinstance(state, KingsKiltState)
        if state.phase.name == phase and state.dealt == dealt:
            return state
        state = state.apply(action, player)
    raise AssertionError(f"no {phase} state with {dealt} cards dealt")


SETUP_POSITIONS = [
    (2, "deal_family", 3, 0, 1),
    (2, "deal_third", 1, 1, 2),
    (2, "deal_influence", 0, 0, 3),
    (2, "deal_influence", 0, 1, 4),
    (2, "deal_influence", 2, 0, 5),
    (3, "deal_influence", 0, 1, 6),
]


def _distance(a: Dist, b: Dist) -> Fraction:
    """Total variation distance between two exact distributions."""
    return (
        sum((abs(a.get(o, Fraction(0)) - b.get(o, Fraction(0))) for o in a.keys() | b), Fraction(0))
        / 2
    )


@pytest.mark.parametrize(("players", "phase", "dealt", "viewer", "seed"), SETUP_POSITIONS)
def test_the_formula_is_the_rules_posterior(
    players: int, phase: str, dealt: int, viewer: int, seed: int
) -> None:
    """The closed form equals the brute force over the rules' chance nodes, exactly: the
    deck split, the thirds' conditional draws and the viewer's own cards seen since."""
    state = _setup_position(players, phase, dealt, seed)
    exact = posterior_by_brute_force(state, viewer)
    assert exact[_outcome(state, viewer)] > 0
    assert sum(exact.values()) == 1
    assert posterior_by_formula(state, viewer) == exact


@pytest.mark.parametrize(("players", "phase", "dealt", "viewer", "seed"), SETUP_POSITIONS[:2])
def test_the_search_is_exact_while_no_member_has_been_seen(
    players: int, phase: str, dealt: int, viewer: int, seed: int
) -> None:
    """On these positions (the family deal, the thirds) the search is exact."""
    state = _setup_position(players, phase, dealt, seed)
    assert exact_distribution(state, viewer) == posterior_by_brute_force(state, viewer)


BIASED_SETUP = [
    (position, bias)
    for position, bias in zip(SETUP_POSITIONS[2:], (0.0035, 0.0098, 0.0094, 0.0302), strict=True)
]


@pytest.mark.parametrize(("position", "bias"), BIASED_SETUP)
def test_the_search_is_biased_once_members_have_been_seen(
    position: tuple[int, str, int, int, int], bias: float
) -> None:
    """Known bug (issue 11 follow-up): once cards off the members are seen (here the
    viewer's own Influence cards), the search's distribution differs from the rules'
    posterior, over the same deals. Pinned: its total variation distance to the brute
    force. A fixed re-deal makes this distance 0 and this test is to be turned round."""
    players, phase, dealt, viewer, seed = position
    state = _setup_position(players, phase, dealt, seed)
    exact = posterior_by_brute_force(state, viewer)
    search = exact_distribution(state, viewer)
    assert set(search) == set(exact)
    assert float(_distance(search, exact)) == pytest.approx(bias, abs=5e-5)


LATE_BIAS = [(2, 11, 0.0275), (3, 5, 0.1008), (4, 7, 0.2426), (4, 9, 0.3636), (4, 24, 0.6415)]


@pytest.mark.parametrize(("players", "seed", "bias"), LATE_BIAS)
def test_the_search_is_far_from_the_posterior_late_in_the_game(
    players: int, seed: int, bias: float
) -> None:
    """Known bug: late in a game (many cards seen, dead ends common) the gap is large,
    up to 0.64 in total variation with four players. Pinned as above."""
    state, viewer = _late_game(players, seed)
    exact = posterior_by_formula(state, viewer)
    assert exact[_outcome(state, viewer)] > 0
    search = exact_distribution(state, viewer)
    assert set(search) == set(exact)
    assert float(_distance(search, exact)) == pytest.approx(bias, abs=5e-5)


def test_resample_itself_fails_the_posterior_by_frequency() -> None:
    """The sampler, not just its enumerated distribution: 3000 re-deals of a four-player
    late-game position fail a chi-square test against the posterior and pass one
    against the search's own distribution."""
    state, viewer = _late_game(4, 24)
    root = Rng(2024)
    samples = 3000
    counts = Counter(_outcome(state.resample(viewer, root.fork(i)), viewer) for i in range(samples))
    assert chi_square_fails(counts, posterior_by_formula(state, viewer), samples) is not None
    assert chi_square_fails(counts, exact_distribution(state, viewer), samples) is None
